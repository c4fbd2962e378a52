// Recovering an endpoint's missed events in D1: one batch picks the events of a window the
// endpoint has not received (nor has queued), starts a delivery cycle of each with a throttle slot
// reserved for it in event order, takes those slots from the endpoint's throttle, and writes the
// audit row; the next call picks up where a capped one stopped.
import { type SQL, sql } from "drizzle-orm";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import type { Actor } from "../domain/audit";
import type { Environment } from "../domain/environment";
import type { EventType } from "../domain/event";
import { webhookEndpoints } from "../webhook-endpoints/schema";
import { type DeliveryRef, isDeliveryRow } from "./event-writes";
import { secondOf, slotInstant, slotOfRank, takeSlots } from "./throttle";

/** The most events one call queues: a few sends of 100 per thousand, well within a request. */
const MAX_RECOVERED = 10_000;

export interface Recovery {
  scope: ReadScope & { environment: Environment };
  /** The shard `db` is: the messages name it. */
  shard: string;
  endpointId: string;
  /** The window: created at or after `since`, before `until` (RFC 3339, normalised). */
  since: string;
  until: string;
  /** The canonical types the endpoint takes; null for every type. */
  types: readonly EventType[] | null;
  /** The endpoint's throttle: attempts per second at most. */
  perSecond: number;
  actor: Actor;
  now: Date;
}

/** A delivery queued by a recovery, with its throttle slot and its event's creation. */
export interface RecoveredDelivery extends DeliveryRef {
  /** Its throttle slot (see throttle.ts): the second its attempt may start in, and its turn. */
  slot: number;
  createdAt: string;
}

/**
 * Queues, once each, every event of the window the endpoint takes and has not received: none
 * delivered, given up, or pending without a throttle slot nor an attempt under way (one pending
 * with a slot is queued already). Each starts a new delivery cycle (a new generation, so an older
 * message attempts nothing) with the next slot of the endpoint's throttle from the next second
 * on, in event order; at
 * most `MAX_RECOVERED` per call, `hasMore` saying whether more remain. Nothing is queued for an
 * endpoint that is not enabled, or not in the scope. One batch.
 */
export async function recoverEvents(
  db: Database,
  recovery: Recovery,
): Promise<{ deliveries: RecoveredDelivery[]; hasMore: boolean }> {
  const { scope, endpointId: id, now, perSecond } = recovery;
  const at = now.toISOString();
  // From the next whole second on: its messages are sent as it begins (recovery.ts), so that each
  // second's attempts start as their second begins, not part-way through it.
  const second = secondOf(now) + 1;
  const types: SQL = recovery.types
    ? sql`AND e.type IN (SELECT value FROM json_each(${JSON.stringify(recovery.types)}))`
    : sql``;
  const missed = sql`FROM events e
      LEFT JOIN webhook_deliveries d ON d.event_id = e.event_id AND d.endpoint_id = ${id}
    WHERE e.partner_id = ${scope.partnerId} AND e.environment = ${scope.environment}
      AND e.merchant_key = ${scope.merchantKey}
      AND e.created_at >= ${recovery.since} AND e.created_at < ${recovery.until} ${types}
      AND (d.event_id IS NULL OR d.status = 'failed'
        OR (d.status = 'pending' AND d.throttle_slot IS NULL
          AND (d.lease_until IS NULL OR d.lease_until < ${at})))`;
  const endpoint = sql`FROM webhook_endpoints w WHERE w.endpoint_id = ${id}
    AND w.partner_id = ${scope.partnerId} AND w.environment = ${scope.environment}
    AND w.merchant_key = ${scope.merchantKey} AND w.status = 'enabled'`;
  const slot = slotOfRank("st", second, perSecond, sql`p.rn`);
  // The deliveries this call queued: its cycle's start, with a slot.
  const queued = sql`FROM webhook_deliveries q WHERE q.endpoint_id = ${id}
    AND q.status = 'pending' AND q.cycle_started_at = ${at} AND q.throttle_slot IS NOT NULL`;
  const results = await atomically(db, [
    sql`WITH st AS (SELECT w.throttle_second, w.throttle_used ${endpoint}),
      picked AS (SELECT e.event_id,
          row_number() OVER (ORDER BY e.created_at, e.event_id) AS rn
        ${missed} ORDER BY e.created_at, e.event_id LIMIT ${MAX_RECOVERED})
      INSERT INTO webhook_deliveries (event_id, endpoint_id, status, generation, attempts,
        cycle_started_at, next_attempt_at, lease_until, completed_at, throttle_slot)
      SELECT p.event_id, ${id}, 'pending', 0, 0, ${at}, ${slotInstant(slot)}, NULL, NULL, ${slot}
      FROM picked p, st WHERE true
      ON CONFLICT (event_id, endpoint_id) DO UPDATE SET status = 'pending',
        generation = webhook_deliveries.generation + 1, attempts = 0,
        cycle_started_at = excluded.cycle_started_at, next_attempt_at = excluded.next_attempt_at,
        lease_until = NULL, completed_at = NULL, throttle_slot = excluded.throttle_slot
      RETURNING event_id, endpoint_id, generation,
        (SELECT w.partner_id FROM webhook_endpoints w
          WHERE w.endpoint_id = webhook_deliveries.endpoint_id) AS partner_id,
        throttle_slot AS slot,
        (SELECT e.created_at FROM events e WHERE e.event_id = webhook_deliveries.event_id)
          AS created_at`,
    // The endpoint's throttle gives up the slots taken.
    db
      .update(webhookEndpoints)
      .set(takeSlots(second, perSecond, sql`(SELECT count(*) ${queued})`))
      .where(sql`${webhookEndpoints.endpointId} = ${id} AND EXISTS (SELECT 1 ${queued})`),
    auditInsert(
      scope.partnerId,
      recovery.actor,
      {
        action: "webhook_endpoint.recovered",
        environment: scope.environment,
        target: id,
      },
      now,
      {
        guard: sql`EXISTS (SELECT 1 ${queued})`,
        details: sql`json_object('since', ${recovery.since}, 'until', ${recovery.until},
          'queued', (SELECT count(*) ${queued}))`,
      },
    ),
    sql`SELECT EXISTS (SELECT 1 ${missed} AND EXISTS (SELECT 1 ${endpoint})) AS more`,
  ]);
  const deliveries = (results[0]?.results ?? [])
    .map((row) => recoveredOf(row, recovery.shard))
    .sort((a, b) => {
      const [x, y] = [`${a.createdAt} ${a.event_id}`, `${b.createdAt} ${b.event_id}`];
      return x < y ? -1 : x > y ? 1 : 0;
    });
  const answer = results[3]?.results?.[0];
  const more =
    typeof answer === "object" && answer !== null && "more" in answer && answer.more === 1;
  return { deliveries, hasMore: more };
}

/**
 * A row the recovery's write answered (its `RETURNING`: the delivery's columns, its slot and its
 * event's `created_at`) as a delivery of shard `shard`; a row of another shape is a defect.
 */
function recoveredOf(row: unknown, shard: string): RecoveredDelivery {
  if (
    isDeliveryRow(row) &&
    "slot" in row &&
    typeof row.slot === "number" &&
    "created_at" in row &&
    typeof row.created_at === "string"
  ) {
    const { event_id, endpoint_id, generation, partner_id } = row;
    const { slot, created_at: createdAt } = row;
    return { event_id, endpoint_id, generation, partner_id, slot, shard, createdAt };
  }
  throw new Error("a recovery answered a row of another shape");
}
