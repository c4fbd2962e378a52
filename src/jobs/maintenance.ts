// The `scheduled()` handler: re-send deliveries whose queue message was lost, and purge events
// past their 30 days, idempotency keys past their 24 hours, and dashboard sessions and sign-in
// links past their end.

import type { Bindings } from "../app/context";
import { openDatabase } from "../db/client";
import { purgeExpiredCredentials } from "../db/sessions";
import { EVENT_RETENTION_MS } from "../domain/event";
import { SESSION_IDLE_TIMEOUT_MS } from "../domain/session-policy";
import { sendDeliveries } from "../webhooks/delivery-queue";
import {
  overdueDeliveries,
  purgeExpiredEvents,
  purgeExpiredIdempotencyKeys,
} from "../webhooks/delivery-work";

/** A delivery overdue by this much lost its message (queues add seconds, not minutes). */
export const SWEEP_GRACE_MS = 5 * 60 * 1000;
/** Rows handled per batch, and batches per run at most (the cron runs every five minutes). */
const PER_BATCH = 500;
const MAX_BATCHES = 20;

export async function runMaintenance(
  controller: ScheduledController,
  env: Bindings,
): Promise<void> {
  const now = new Date(controller.scheduledTime);
  const { db } = openDatabase(env.DB);
  let resent = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const lost = await overdueDeliveries(db, now, SWEEP_GRACE_MS, PER_BATCH);
    await sendDeliveries(env.WEBHOOK_DELIVERIES, lost);
    resent += lost.length;
    if (lost.length < PER_BATCH) break;
  }
  const at = now.toISOString();
  const before = new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS).toISOString();
  const events = await drain(() => purgeExpiredEvents(db, before, PER_BATCH));
  const keys = await drain(() => purgeExpiredIdempotencyKeys(db, at, PER_BATCH));
  await drain(() => purgeExpiredCredentials(db, at, idleCutoff, PER_BATCH));
  console.log(
    JSON.stringify({
      maintenance: { resent, events_purged: events, idempotency_keys_purged: keys },
    }),
  );
}

/** Runs a purge of up to PER_BATCH rows until it comes back short (MAX_BATCHES at most). */
async function drain(purge: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = await purge();
    total += n;
    if (n < PER_BATCH) break;
  }
  return total;
}
