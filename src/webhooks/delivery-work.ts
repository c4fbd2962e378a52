// The delivery outbox seen from the queue consumer and the scheduled sweep: claiming a delivery
// for one attempt, recording its outcome, and finding deliveries whose message was lost.
import { and, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../db/client";
import { idempotencyKeys } from "../db/schema";
import { statements } from "../statements/schema";
import type { AttemptStatus } from "./delivery-attempt";
import {
  advanceHealth,
  type HealthChange,
  type HealthPolicy,
  healthChanges,
} from "./endpoint-health";
import { EVENT_FIELDS, type EventRow, toEventRow } from "./event-store";
import type { StoredFilter } from "./event-types";
import { DELIVERY_RETURNING, type DeliveryRef, type DeliveryRow, withShard } from "./event-writes";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "./schema";
import { secondOf, slotInstant, takeSlots } from "./throttle";

/** What an attempt needs: the event, its statement, and the endpoint with its secrets. */
export interface ClaimedDelivery {
  attempts: number;
  cycleStartedAt: string;
  partnerId: string;
  event: EventRow;
  endpoint: {
    url: string;
    apiVersion: string;
    apiOrigin: string;
    /** Sealed (see secret-sealing.ts), under the key id beside it. */
    secret: string;
    secretKeyId: string | null;
    previousSecret: string | null;
    previousSecretKeyId: string | null;
    previousSecretExpiresAt: string | null;
    status: "enabled" | "disabled";
    /** Its filter, in its version's type names (null: every type), and how it is stored. */
    filter: StoredFilter;
  };
}

/** What a message may do now: attempt, wait for its throttle slot, or nothing. */
export type Claim =
  | { kind: "claimed"; delivery: ClaimedDelivery }
  | { kind: "throttled"; slot: number }
  | { kind: "none" };

function deliveryOf(ref: DeliveryRef) {
  return and(
    eq(webhookDeliveries.eventId, ref.event_id),
    eq(webhookDeliveries.endpointId, ref.endpoint_id),
    eq(webhookDeliveries.generation, ref.generation),
  );
}

export interface ClaimMoment {
  now: Date;
  leaseUntil: Date;
  /** The endpoint's throttle: attempts per second at most. */
  perSecond: number;
}

/**
 * Takes the delivery for one attempt, if this message may make it: the delivery is still pending
 * in this message's generation, due, not held by another attempt, and its endpoint's throttle has
 * a slot this second. A due delivery without a slot yet takes the endpoint's next free one: now,
 * or in a later second, to which it is deferred (`throttled`); a delivery back at its slot takes
 * it. The lease keeps duplicate messages (the queue delivers at least once; the sweep re-sends
 * lost ones) from attempting together. One round trip: the slot, the claim, and the reads of what
 * the attempt sends.
 */
export async function claimDelivery(
  db: Database,
  ref: DeliveryRef,
  moment: ClaimMoment,
): Promise<Claim> {
  const { now, perSecond } = moment;
  const at = now.toISOString();
  const second = secondOf(now);
  // Queue delays are not exact to the second.
  const due = new Date(now.getTime() + 5000).toISOString();
  const free = and(
    deliveryOf(ref),
    eq(webhookDeliveries.status, "pending"),
    or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, at)),
  );
  // Due, and no slot reserved yet: it takes the endpoint's next one.
  const fresh = and(
    free,
    isNull(webhookDeliveries.throttleSecond),
    lte(webhookDeliveries.nextAttemptAt, due),
  );
  const endpointSlot = sql`(SELECT w.throttle_second FROM webhook_endpoints w
    WHERE w.endpoint_id = ${ref.endpoint_id})`;
  const [, claimed, , state, rows] = await db.batch([
    db
      .update(webhookEndpoints)
      .set(takeSlots(second, perSecond, 1))
      .where(
        and(
          eq(webhookEndpoints.endpointId, ref.endpoint_id),
          sql`EXISTS (SELECT 1 FROM ${webhookDeliveries} WHERE ${fresh})`,
        ),
      ),
    db
      .update(webhookDeliveries)
      .set({
        leaseUntil: moment.leaseUntil.toISOString(),
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        throttleSecond: null,
      })
      .where(
        or(
          and(free, lte(webhookDeliveries.throttleSecond, second)),
          and(fresh, sql`${endpointSlot} <= ${second}`),
        ),
      )
      .returning({
        attempts: webhookDeliveries.attempts,
        cycleStartedAt: webhookDeliveries.cycleStartedAt,
      }),
    // Its slot lies in a later second: reserved, and the attempt deferred to it.
    db
      .update(webhookDeliveries)
      .set({ throttleSecond: endpointSlot, nextAttemptAt: slotInstant(endpointSlot) })
      .where(fresh),
    db
      .select({ slot: webhookDeliveries.throttleSecond })
      .from(webhookDeliveries)
      .where(and(free, sql`${webhookDeliveries.throttleSecond} > ${second}`)),
    db
      .select({
        ...EVENT_FIELDS,
        partnerId: events.partnerId,
        url: webhookEndpoints.url,
        apiVersion: webhookEndpoints.apiVersion,
        apiOrigin: webhookEndpoints.apiOrigin,
        secret: webhookEndpoints.secret,
        secretKeyId: webhookEndpoints.secretKeyId,
        previousSecret: webhookEndpoints.previousSecret,
        previousSecretKeyId: webhookEndpoints.previousSecretKeyId,
        previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
        endpointStatus: webhookEndpoints.status,
        enabledEvents: webhookEndpoints.enabledEvents,
        eventTypes: webhookEndpoints.eventTypes,
        eventTypesRevision: webhookEndpoints.eventTypesRevision,
      })
      .from(events)
      .innerJoin(statements, eq(statements.statementId, events.statementId))
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.endpointId, ref.endpoint_id))
      .where(eq(events.eventId, ref.event_id)),
  ]);
  const claim = claimed[0];
  const row = rows[0];
  if (!claim || !row) {
    const slot = state[0]?.slot;
    return typeof slot === "number" ? { kind: "throttled", slot } : { kind: "none" };
  }
  return {
    kind: "claimed",
    delivery: {
      attempts: claim.attempts,
      cycleStartedAt: claim.cycleStartedAt,
      partnerId: row.partnerId,
      event: toEventRow(row),
      endpoint: {
        url: row.url,
        apiVersion: row.apiVersion,
        apiOrigin: row.apiOrigin,
        secret: row.secret,
        secretKeyId: row.secretKeyId,
        previousSecret: row.previousSecret,
        previousSecretKeyId: row.previousSecretKeyId,
        previousSecretExpiresAt: row.previousSecretExpiresAt,
        status: row.endpointStatus,
        filter: {
          enabledEvents: row.enabledEvents,
          eventTypes: row.eventTypes,
          eventTypesRevision: row.eventTypesRevision,
        },
      },
    },
  };
}

/**
 * The write that stores an endpoint's filter worked out anew, unless the filter was changed
 * meanwhile (the change stored its own).
 */
function filterWrite(db: Database, endpointId: string, refreshed: StoredFilter) {
  return db
    .update(webhookEndpoints)
    .set(refreshed)
    .where(
      and(
        eq(webhookEndpoints.endpointId, endpointId),
        sql`${webhookEndpoints.enabledEvents} IS ${refreshed.enabledEvents}`,
      ),
    );
}

/** Stores an endpoint's filter worked out anew under this build's event types. */
export async function storeFilter(
  db: Database,
  endpointId: string,
  refreshed: StoredFilter,
): Promise<void> {
  await filterWrite(db, endpointId, refreshed);
}

/**
 * Drops a claimed delivery whose event the endpoint does not take (its filter changed, or the
 * fan-out went by a filter worked out under other event types), storing its filter worked out
 * anew when it was stale.
 */
export async function dropDelivery(
  db: Database,
  ref: DeliveryRef,
  refreshed: StoredFilter | null,
): Promise<void> {
  const drop = db.delete(webhookDeliveries).where(deliveryOf(ref));
  if (refreshed) await db.batch([drop, filterWrite(db, ref.endpoint_id, refreshed)]);
  else await drop;
}

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
  const writes: BatchItem<"sqlite">[] = [];
  if (attempt) {
    writes.push(
      db.insert(webhookAttempts).values({
        ...attempt,
        eventId: ref.event_id,
        endpointId: ref.endpoint_id,
      }),
    );
  }
  writes.push(
    db
      .update(webhookDeliveries)
      .set({
        status: next.status,
        leaseUntil: null,
        ...(next.status === "pending"
          ? { nextAttemptAt: next.nextAttemptAt }
          : { completedAt: at }),
      })
      .where(deliveryOf(ref)),
  );
  const endpoint = eq(webhookEndpoints.endpointId, ref.endpoint_id);
  if (!attempt) {
    await db.batch(writes as [BatchItem<"sqlite">]);
    return null;
  }
  if (attempt.status === "succeeded") {
    writes.push(
      db
        .update(webhookEndpoints)
        .set({ failingSince: null, failureStreak: 0, healthNotice: 0 })
        .where(endpoint),
    );
    await db.batch(writes as [BatchItem<"sqlite">]);
    return null;
  }
  writes.push(
    db
      .update(webhookEndpoints)
      .set({
        failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${attempt.attemptedAt})`,
        failureStreak: sql`${webhookEndpoints.failureStreak} + 1`,
      })
      .where(endpoint),
    advanceHealth(db, policy, now, endpoint),
  );
  const results = await db.batch(writes as [BatchItem<"sqlite">]);
  return healthChanges(results.at(-1) as unknown[])[0] ?? null;
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
        LIMIT ${limit})`,
    )
    .returning(DELIVERY_RETURNING);
  return withShard(rows as DeliveryRow[], shard);
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
  const expired = sql`SELECT event_id FROM events WHERE created_at < ${before} ORDER BY created_at LIMIT ${limit}`;
  const results = await db.batch([
    db.delete(webhookAttempts).where(sql`${webhookAttempts.eventId} IN (${expired})`),
    db.delete(webhookDeliveries).where(sql`${webhookDeliveries.eventId} IN (${expired})`),
    db
      .delete(events)
      .where(sql`${events.eventId} IN (${expired})`)
      .returning({ id: events.eventId }),
  ]);
  return (results[2] as unknown[]).length;
}

/** Deletes up to `limit` idempotency keys past their window. Answers how many went. */
export async function purgeExpiredIdempotencyKeys(
  db: Database,
  now: string,
  limit: number,
): Promise<number> {
  const gone = await db
    .delete(idempotencyKeys)
    .where(
      sql`${idempotencyKeys.keyHash} IN (SELECT key_hash FROM idempotency_keys WHERE expires_at < ${now} LIMIT ${limit})`,
    )
    .returning({ keyHash: idempotencyKeys.keyHash });
  return gone.length;
}
