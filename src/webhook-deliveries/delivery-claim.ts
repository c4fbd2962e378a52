// Claiming a delivery for one attempt, from the queue consumer: the delivery must be pending in the
// message's generation, due, not held by another attempt, and have a slot of its endpoint's
// throttle this second (or be deferred to its slot); and dropping one its endpoint does not take.
import { and, eq, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { EVENT_FIELDS, type EventRow, type StoredFilter, toEventRow } from "../events";
import { events } from "../events/schema";
import { statements } from "../statements/schema";
import { webhookDeliveries, webhookEndpoints } from "../webhook-endpoints/schema";
import type { DeliveryRef } from "./event-writes";
import {
  admissionRoom,
  admitOne,
  lastSlotOf,
  secondOf,
  secondOfSlot,
  slotInstant,
  takeSlots,
} from "./throttle";

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
    /** Sealed (see webhook-endpoints/secret-sealing.ts), under the key id beside it. */
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

/** What a message may do now: attempt, wait for its throttle slot (its number), or nothing. */
export type Claim =
  | { kind: "claimed"; delivery: ClaimedDelivery }
  | { kind: "throttled"; slot: number }
  | { kind: "none" };

/** The delivery a message names, in its generation. */
export function deliveryOf(ref: DeliveryRef) {
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

/** The conditions of a claim, in SQL: which delivery may do what at the moment of `moment`. */
function claimConditions(ref: DeliveryRef, moment: ClaimMoment) {
  const at = moment.now.toISOString();
  const second = secondOf(moment.now);
  const endpoint = ref.endpoint_id;
  // Queue delays are not exact to the second.
  const due = new Date(moment.now.getTime() + 5000).toISOString();
  const free = and(
    deliveryOf(ref),
    eq(webhookDeliveries.status, "pending"),
    or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, at)),
  );
  return {
    second,
    free,
    // Due, and no slot reserved yet: it takes the endpoint's next one.
    fresh: and(
      free,
      isNull(webhookDeliveries.throttleSlot),
      lte(webhookDeliveries.nextAttemptAt, due),
    ),
    slotTaken: sql`(SELECT ${lastSlotOf("w")} FROM webhook_endpoints w
      WHERE w.endpoint_id = ${endpoint})`,
    // Its slot's second has come, every slot handed out before it has been attempted, and fewer
    // than `perSecond` attempts have started this second.
    ready: and(free, sql`${secondOfSlot(sql`${webhookDeliveries.throttleSlot}`)} <= ${second}`),
    inTurn: sql`NOT EXISTS (SELECT 1 FROM webhook_deliveries o
      WHERE o.endpoint_id = ${endpoint} AND o.throttle_slot < webhook_deliveries.throttle_slot
        AND o.status = 'pending' AND (o.lease_until IS NULL OR o.lease_until < ${at}))`,
    room: sql`EXISTS (SELECT 1 FROM webhook_endpoints w
      WHERE w.endpoint_id = ${endpoint} AND ${admissionRoom("w", second, moment.perSecond)})`,
  };
}

/** The read of what an attempt sends: the event with its statement, and the endpoint. */
function attemptRead(db: Database, ref: DeliveryRef) {
  return db
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
    .where(eq(events.eventId, ref.event_id));
}

type AttemptRow = Awaited<ReturnType<typeof attemptRead>>[number];

/** The claimed delivery, from the claim's write and the read of what the attempt sends. */
function claimedDelivery(
  claim: { attempts: number; cycleStartedAt: string },
  row: AttemptRow,
): ClaimedDelivery {
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
      filter: {
        enabledEvents: row.enabledEvents,
        eventTypes: row.eventTypes,
        eventTypesRevision: row.eventTypesRevision,
      },
    },
  };
}

/**
 * Takes the delivery for one attempt, if this message may make it: the delivery is still pending
 * in this message's generation, due, not held by another attempt, and admitted by its endpoint's
 * throttle (throttle.ts). A due delivery without a slot takes the endpoint's next one; one whose
 * slot lies in a later second, or that the throttle holds back this second, is `throttled` until
 * then. The lease keeps duplicate messages (the queue delivers at least once; the sweep re-sends
 * lost ones) from attempting together. One round trip: the slot, the admission, the claim, and
 * the reads of what the attempt sends.
 */
export async function claimDelivery(
  db: Database,
  ref: DeliveryRef,
  moment: ClaimMoment,
): Promise<Claim> {
  const { second, free, fresh, slotTaken, ready, inTurn, room } = claimConditions(ref, moment);
  const { perSecond } = moment;
  const lease = moment.leaseUntil.toISOString();
  const ofEndpoint = eq(webhookEndpoints.endpointId, ref.endpoint_id);
  const [_slotsTaken, _slotReserved, claimed, _admitted, _heldBack, waiting, sent] = await db.batch(
    [
      db
        .update(webhookEndpoints)
        .set(takeSlots(second, perSecond, 1))
        .where(and(ofEndpoint, sql`EXISTS (SELECT 1 FROM ${webhookDeliveries} WHERE ${fresh})`)),
      db
        .update(webhookDeliveries)
        .set({ throttleSlot: slotTaken, nextAttemptAt: slotInstant(slotTaken) })
        .where(fresh),
      db
        .update(webhookDeliveries)
        .set({
          leaseUntil: lease,
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          throttleSlot: null,
        })
        .where(and(ready, inTurn, room))
        .returning({
          attempts: webhookDeliveries.attempts,
          cycleStartedAt: webhookDeliveries.cycleStartedAt,
        }),
      db
        .update(webhookEndpoints)
        .set(admitOne(second))
        .where(
          and(
            ofEndpoint,
            sql`EXISTS (SELECT 1 FROM ${webhookDeliveries}
              WHERE ${deliveryOf(ref)} AND ${webhookDeliveries.leaseUntil} = ${lease})`,
          ),
        ),
      // Held back this second: it tries again in the next one, keeping its slot (and its turn).
      db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date((second + 1) * 1000).toISOString() })
        .where(ready),
      db
        .select({ slot: webhookDeliveries.throttleSlot })
        .from(webhookDeliveries)
        .where(and(free, isNotNull(webhookDeliveries.throttleSlot))),
      attemptRead(db, ref),
    ],
  );
  const claim = claimed[0];
  const row = sent[0];
  if (!claim || !row) {
    const slot = waiting[0]?.slot;
    return typeof slot === "number" ? { kind: "throttled", slot } : { kind: "none" };
  }
  return { kind: "claimed", delivery: claimedDelivery(claim, row) };
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
