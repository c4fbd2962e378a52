// The `scheduled()` handler: re-send deliveries whose queue message was lost, and purge events
// past their 30 days and idempotency keys past their 24 hours.

import type { Bindings } from "../app/context";
import { sendDeliveries } from "../app/delivery-queue";
import { openDatabase } from "../db/client";
import { overdueDeliveries, purgeExpired } from "../db/delivery-work";
import { EVENT_RETENTION_MS } from "../domain/event";

/** A delivery overdue by this much lost its message (queues add seconds, not minutes). */
export const SWEEP_GRACE_MS = 5 * 60 * 1000;
/** Rows handled per run; the cron runs every five minutes. */
const PER_RUN = 500;

export async function runMaintenance(
  controller: ScheduledController,
  env: Bindings,
): Promise<void> {
  const now = new Date(controller.scheduledTime);
  const { db } = openDatabase(env.DB);
  const lost = await overdueDeliveries(db, now, SWEEP_GRACE_MS, PER_RUN);
  await sendDeliveries(env.WEBHOOK_DELIVERIES, lost);
  const before = new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
  const purged = await purgeExpired(db, before, now.toISOString(), PER_RUN);
  console.log(JSON.stringify({ maintenance: { resent: lost.length, events_purged: purged } }));
}
