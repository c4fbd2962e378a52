// The `scheduled()` handler: re-send deliveries whose queue message was lost, and purge events
// past their 30 days and idempotency keys past their 24 hours.

import type { Bindings } from "../app/context";
import { sendDeliveries } from "../app/delivery-queue";
import { openDatabase } from "../db/client";
import { overdueDeliveries, purgeExpired } from "../db/delivery-work";
import { EVENT_RETENTION_MS } from "../domain/event";

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
  const before = new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
  let purged = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = await purgeExpired(db, before, now.toISOString(), PER_BATCH);
    purged += n;
    if (n < PER_BATCH) break;
  }
  console.log(JSON.stringify({ maintenance: { resent, events_purged: purged } }));
}
