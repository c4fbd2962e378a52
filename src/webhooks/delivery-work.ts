// The delivery outbox seen from the queue consumer and the scheduled sweep: claiming a delivery
// for one attempt, recording its outcome, and finding deliveries whose message was lost.
import { and, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../db/client";
import { fencedPartners, frozenPartners } from "../db/move-fences";
import { idempotencyKeys } from "../db/schema";
import { statements } from "../statements/schema";
import type { AttemptStatus } from "./delivery-attempt";
import { EVENT_FIELDS, type EventRow, toEventRow } from "./event-store";
import { DELIVERY_RETURNING, type DeliveryRef, type DeliveryRow, withShard } from "./event-writes";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "./schema";

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
  };
}

function deliveryOf(ref: DeliveryRef) {
  return and(
    eq(webhookDeliveries.eventId, ref.event_id),
    eq(webhookDeliveries.endpointId, ref.endpoint_id),
    eq(webhookDeliveries.generation, ref.generation),
  );
}

/**
 * Takes the delivery for one attempt, if this message may make it: the delivery is still pending
 * in this message's generation, due, and not held by another attempt. The lease keeps duplicate
 * messages (the queue delivers at least once; the sweep re-sends lost ones) from attempting
 * together. One round trip: the claim and the reads of what the attempt sends.
 */
export async function claimDelivery(
  db: Database,
  ref: DeliveryRef,
  now: Date,
  leaseUntil: Date,
): Promise<ClaimedDelivery | null> {
  const at = now.toISOString();
  // Queue delays are not exact to the second.
  const due = new Date(now.getTime() + 5000).toISOString();
  const [claimed, rows] = await db.batch([
    db
      .update(webhookDeliveries)
      .set({
        leaseUntil: leaseUntil.toISOString(),
        attempts: sql`${webhookDeliveries.attempts} + 1`,
      })
      .where(
        and(
          deliveryOf(ref),
          eq(webhookDeliveries.status, "pending"),
          lte(webhookDeliveries.nextAttemptAt, due),
          or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, at)),
        ),
      )
      .returning({
        attempts: webhookDeliveries.attempts,
        cycleStartedAt: webhookDeliveries.cycleStartedAt,
      }),
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
      })
      .from(events)
      .innerJoin(statements, eq(statements.statementId, events.statementId))
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.endpointId, ref.endpoint_id))
      .where(eq(events.eventId, ref.event_id)),
  ]);
  const claim = claimed[0];
  const row = rows[0];
  if (!claim || !row) return null;
  return {
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
    },
  };
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

export interface DisabledEndpoint {
  endpointId: string;
  partnerId: string;
  environment: string;
  url: string;
  /** Where the endpoint was registered: its dashboard page is there. */
  apiOrigin: string;
  failingSince: string;
  disabledAt: string;
}

/**
 * Records an attempt and its consequences in one batch: the attempt row, the delivery's next
 * state (within its generation only), and the endpoint's failure run. An endpoint whose failures
 * began at or before `disableIfFailingSince` is disabled, exactly once; it is answered so that
 * its Admins can be told.
 */
export async function recordAttempt(
  db: Database,
  ref: DeliveryRef,
  attempt: AttemptRecord | null,
  next: DeliveryNext,
  now: Date,
  disableIfFailingSince: string,
): Promise<DisabledEndpoint | null> {
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
    writes.push(db.update(webhookEndpoints).set({ failingSince: null }).where(endpoint));
    await db.batch(writes as [BatchItem<"sqlite">]);
    return null;
  }
  writes.push(
    db
      .update(webhookEndpoints)
      .set({
        failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${attempt.attemptedAt})`,
      })
      .where(endpoint),
    db
      .update(webhookEndpoints)
      .set({
        status: "disabled",
        disabledAt: at,
        disabledReason: "Every delivery attempt failed for too long.",
      })
      .where(
        and(
          endpoint,
          eq(webhookEndpoints.status, "enabled"),
          lte(webhookEndpoints.failingSince, disableIfFailingSince),
        ),
      )
      .returning({
        endpointId: webhookEndpoints.endpointId,
        partnerId: webhookEndpoints.partnerId,
        environment: webhookEndpoints.environment,
        url: webhookEndpoints.url,
        apiOrigin: webhookEndpoints.apiOrigin,
        failingSince: webhookEndpoints.failingSince,
      }),
  );
  const results = await db.batch(writes as [BatchItem<"sqlite">]);
  const disabled = (results.at(-1) as DisabledEndpoint[] | undefined)?.[0];
  return disabled ? { ...disabled, disabledAt: at } : null;
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
      sql`${idempotencyKeys.keyHash} IN (SELECT key_hash FROM idempotency_keys
        WHERE expires_at < ${now} AND partner_id NOT IN ${frozenPartners} LIMIT ${limit})`,
    )
    .returning({ keyHash: idempotencyKeys.keyHash });
  return gone.length;
}
