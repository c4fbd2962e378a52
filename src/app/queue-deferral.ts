// Work a queue message stands for, postponed while its partner is being moved between shards.
// The move's fence refuses every write of the partner until the switch, which may take longer
// than a message's retries last (`max_retries`): rather than spend an attempt per wait, the
// message is sent again, delayed, as a fresh copy, and the delivery in hand is acknowledged. The
// work is idempotent wherever it lands (each consumer says how), so a copy delivered twice is
// harmless.
import { MOVING_DELAY_SECONDS } from "../db/shards";
import { MAX_DELAY_SECONDS, positiveSetting } from "../domain/retry-schedule";
import type { Bindings } from "./context";
import { sendMessages } from "./queue-send";

/** Seconds a message waits while its partner is being moved (`MOVE_DEFER_SECONDS`, or 30). */
export function moveDeferSeconds(env: Bindings): number {
  return positiveSetting(env.MOVE_DEFER_SECONDS, MOVING_DELAY_SECONDS);
}

/**
 * Sends `bodies` to `queue` again, after `delaySeconds`, as fresh messages (no attempt spent);
 * answers false when they could not be sent (no queue bound, or the send failed): the caller then
 * retries its own delivery instead, spending an attempt.
 */
export async function sendAgainLater(
  queue: Queue | undefined,
  bodies: readonly unknown[],
  delaySeconds: number,
): Promise<boolean> {
  if (!queue) return false;
  if (bodies.length === 0) return true;
  const delay = Math.min(Math.max(0, Math.round(delaySeconds)), MAX_DELAY_SECONDS);
  try {
    await sendMessages(queue, bodies, delay);
    return true;
  } catch (err) {
    console.error(JSON.stringify({ queue_deferral: "send failed", error: String(err) }));
    return false;
  }
}

/**
 * Postpones the work of `messages` by `delaySeconds` without spending their attempts: each is
 * sent again as a fresh copy and acknowledged; if that send fails, each is retried instead.
 */
export async function postpone(
  queue: Queue | undefined,
  messages: readonly Message<unknown>[],
  delaySeconds: number,
): Promise<void> {
  if (
    await sendAgainLater(
      queue,
      messages.map((m) => m.body),
      delaySeconds,
    )
  ) {
    for (const message of messages) message.ack();
  } else {
    for (const message of messages) message.retry({ delaySeconds });
  }
}
