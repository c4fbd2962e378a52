// The delivery outbox seen from the queue consumer and the scheduled sweep: recording an attempt's
// outcome (claiming one: delivery-claim.ts), and finding deliveries whose message was lost.
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { fencedPartners, frozenPartners } from "../db/move-fences";
import { events } from "../events/schema";
import {
  advanceHealth,
  type HealthChange,
  type HealthPolicy,
  healthChanges,
} from "../webhook-endpoints";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../webhook-endpoints/schema";
import type { AttemptStatus } from "./delivery-attempt";
import { deliveryOf } from "./delivery-claim";
import { DELIVERY_RETURNING, type DeliveryRef, withShard } from "./event-writes";

export interface AttemptRecord {
  attemptId: string;
  attemptedAt: string;
  durationMs: number;
  status: AttemptStatus;
  responseStatus: number | null;
  error: string | null;
}

/** What the attempt leaves the delivery as. */
export type DeliveryNext =
  | { status: "succeeded" }
  | { status: "pending"; nextAttemptAt: string }
  | { status: "failed" };

/**
 * Records an attempt and its consequences in one batch: the attempt row, the delivery's next
 * state (within its generation only), and the endpoint's health: a success ends its run of
 * failures, a failure extends it and may move it to a further stage (failing, to be disabled,
 * disabled), exactly once per run; a change of stage is answered so that its Admins are told.
 */
export async function recordAttempt(
  db: Database,
  ref: DeliveryRef,
  attempt: AttemptRecord | null,
  next: DeliveryNext,
  now: Date,
  policy: HealthPolicy,
): Promise<HealthChange | null> {
  const at = now.toISOString();
  const delivery = db
    .update(webhookDeliveries)
    .set({
      status: next.status,
      leaseUntil: null,
      ...(next.status === "pending" ? { nextAttemptAt: next.nextAttemptAt } : { completedAt: at }),
      // No attempt was made (its endpoint is disabled): the claim's count is taken back.
      ...(attempt ? {} : { attempts: sql`max(0, ${webhookDeliveries.attempts} - 1)` }),
    })
    .where(deliveryOf(ref));
  if (!attempt) {
    await db.batch([delivery]);
    return null;
  }
  const attemptRow = db.insert(webhookAttempts).values({
    ...attempt,
    eventId: ref.event_id,
    endpointId: ref.endpoint_id,
  });
  const endpoint = eq(webhookEndpoints.endpointId, ref.endpoint_id);
  if (attempt.status === "succeeded") {
    await db.batch([
      attemptRow,
      delivery,
      db
        .update(webhookEndpoints)
        .set({ failingSince: null, failureStreak: 0, healthNotice: 0 })
        .where(endpoint),
    ]);
    return null;
  }
  const [, , , advanced] = await db.batch([
    attemptRow,
    delivery,
    db
      .update(webhookEndpoints)
      .set({
        failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${attempt.attemptedAt})`,
        failureStreak: sql`${webhookEndpoints.failureStreak} + 1`,
      })
      .where(endpoint),
    advanceHealth(db, policy, now, endpoint),
  ]);
  return healthChanges(advanced)[0] ?? null;
}

/**
 * Pending deliveries of shard `shard` whose attempt is overdue by `grace` and not leased: their
 * message was lost (or never sent). Each is marked due now, so the next sweep leaves it alone
 * while its new message waits in the queue, and answered for re-sending. Deliveries of a partner
 * a move froze or moved away are the new shard's to send, and left alone here.
 */
export async function overdueDeliveries(
  db: Database,
  shard: string,
  now: Date,
  graceMs: number,
  limit: number,
): Promise<DeliveryRef[]> {
  const at = now.toISOString();
  const overdue = new Date(now.getTime() - graceMs).toISOString();
  const rows = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: at })
    .where(
      sql`(${webhookDeliveries.eventId}, ${webhookDeliveries.endpointId}) IN (
        SELECT d.event_id, d.endpoint_id FROM webhook_deliveries d
          JOIN webhook_endpoints w ON w.endpoint_id = d.endpoint_id
          JOIN partners p ON p.partner_id = w.partner_id
        WHERE d.status = 'pending' AND d.next_attempt_at < ${overdue}
          AND (d.lease_until IS NULL OR d.lease_until < ${at}) AND p.moving_to IS NULL
          AND p.moved_to IS NULL AND p.partner_id NOT IN ${fencedPartners}
        LIMIT ${limit})`,
    )
    .returning(DELIVERY_RETURNING);
  return withShard(rows, shard);
}

/**
 * Deletes up to `limit` events created before `before` with their deliveries and attempts, in one
 * batch. Answers how many events went.
 */
export async function purgeExpiredEvents(
  db: Database,
  before: string,
  limit: number,
): Promise<number> {
  // A partner frozen by a move keeps its events until the move is over.
  const expired = sql`SELECT event_id FROM events WHERE created_at < ${before}
    AND partner_id NOT IN ${frozenPartners} ORDER BY created_at LIMIT ${limit}`;
  const results = await db.batch([
    db.delete(webhookAttempts).where(sql`${webhookAttempts.eventId} IN (${expired})`),
    db.delete(webhookDeliveries).where(sql`${webhookDeliveries.eventId} IN (${expired})`),
    db
      .delete(events)
      .where(sql`${events.eventId} IN (${expired})`)
      .returning({ id: events.eventId }),
  ]);
  return results[2].length;
}
