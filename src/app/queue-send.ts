// Handing work to a queue: webhook deliveries, statement renders, request logs sent again. The
// rows a message stands for are already committed with the change (the outbox), so a failed send
// loses nothing: the scheduled sweep enqueues it later.

/** Queues accept at most 100 messages per sendBatch. */
const SEND_BATCH = 100;

/**
 * Sends one message per body (a string as text, anything else as JSON); `delaySeconds` postpones
 * them all.
 */
export async function sendMessages<Body>(
  queue: Queue,
  bodies: readonly Body[],
  delaySeconds = 0,
): Promise<void> {
  for (let i = 0; i < bodies.length; i += SEND_BATCH) {
    await queue.sendBatch(
      bodies.slice(i, i + SEND_BATCH).map((body) => ({
        body,
        contentType: typeof body === "string" ? ("text" as const) : ("json" as const),
        ...(delaySeconds > 0 ? { delaySeconds } : {}),
      })),
    );
  }
}

/** Like `sendMessages`, but a failure is only logged: the sweep will send what was not sent. */
export async function enqueueMessages<Body>(
  queue: Queue,
  bodies: readonly Body[],
  requestId: string,
  what = "webhook",
): Promise<void> {
  if (bodies.length === 0) return;
  try {
    await sendMessages(queue, bodies);
  } catch (err) {
    console.error(
      JSON.stringify({ request_id: requestId, error: `${what} enqueue failed: ${String(err)}` }),
    );
  }
}
