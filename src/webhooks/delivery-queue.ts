// Handing new webhook deliveries to the queue. The delivery rows are already committed with the
// change (the outbox), so a failed send loses nothing: the scheduled sweep enqueues it later.
import type { DeliveryRef } from "../db/event-writes";

/** Queues accept at most 100 messages per sendBatch. */
const SEND_BATCH = 100;

/** Sends one message per delivery; `delaySeconds` postpones them all. */
export async function sendDeliveries(
  queue: Queue,
  deliveries: readonly DeliveryRef[],
  delaySeconds = 0,
): Promise<void> {
  for (let i = 0; i < deliveries.length; i += SEND_BATCH) {
    await queue.sendBatch(
      deliveries.slice(i, i + SEND_BATCH).map((body) => ({
        body,
        contentType: "json" as const,
        ...(delaySeconds > 0 ? { delaySeconds } : {}),
      })),
    );
  }
}

/** Like `sendDeliveries`, but a failure is only logged: the sweep will send what was not sent. */
export async function enqueueDeliveries(
  queue: Queue,
  deliveries: readonly DeliveryRef[],
  requestId: string,
): Promise<void> {
  if (deliveries.length === 0) return;
  try {
    await sendDeliveries(queue, deliveries);
  } catch (err) {
    console.error(
      JSON.stringify({ request_id: requestId, error: `webhook enqueue failed: ${String(err)}` }),
    );
  }
}
