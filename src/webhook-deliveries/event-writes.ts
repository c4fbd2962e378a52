// Writing statement events: rows for one atomic batch with the change that causes them, and the
// fan-out of each new event to the enabled webhook endpoints of its product (the delivery outbox).
// Set-based: the statements are named by one JSON value (db/json-rows.ts), so the same two
// statements record the event of one hidden statement or of a whole chunk of an import.
import { type SQL, sql } from "drizzle-orm";
import type { EventType } from "../domain/event";
import { EVENT_TYPES_REVISION } from "../events";
import { MAX_DELIVERY_ATTEMPTS } from "../webhook-endpoints";
import { webhookDeliveries } from "../webhook-endpoints/schema";

/** A delivery row as a write answers it (`DELIVERY_RETURNING`). */
export interface DeliveryRow {
  event_id: string;
  endpoint_id: string;
  generation: number;
  /** The endpoint's partner: a message's consumer checks it has not moved. */
  partner_id: string;
}

/**
 * What a queue message carries: the delivery, and the shard it lives on. (A message sent before
 * shards carries neither shard nor partner: the consumer reads it as the first shard's.)
 */
export interface DeliveryRef extends DeliveryRow {
  shard: string;
}

const endpointPartner = sql`(SELECT w.partner_id FROM webhook_endpoints w
  WHERE w.endpoint_id = ${webhookDeliveries.endpointId})`;

/**
 * A delivery queued again at `at` (a re-send, a re-drive): a new generation, so that a message of
 * its earlier queueing attempts nothing, due now, with no lease and a new place in its endpoint's
 * throttle. Its attempts and its retry window go on: a re-queue never starts a new window, so one
 * after the window closed gets a single attempt, and the backoff keeps growing.
 */
export function requeued(at: string) {
  return {
    status: "pending" as const,
    generation: sql`${webhookDeliveries.generation} + 1`,
    nextAttemptAt: at,
    leaseUntil: null,
    completedAt: null,
    throttleSlot: null,
  };
}

/** SQL over the delivery row `d`: it may be attempted again (its attempts are under the cap). */
export function attemptsLeft(d: string): SQL {
  return sql`${sql.raw(`${d}.attempts`)} < ${MAX_DELIVERY_ATTEMPTS}`;
}

/** The columns a write of deliveries answers, for drizzle's `.returning()`. */
export const DELIVERY_RETURNING = {
  event_id: webhookDeliveries.eventId,
  endpoint_id: webhookDeliveries.endpointId,
  generation: webhookDeliveries.generation,
  partner_id: sql<string>`${endpointPartner}`.as("partner_id"),
};

export interface EventWrites {
  /** Put this in the change's batch, after the writes that create the statements. */
  events: SQL;
  /** Put this after `events`; it answers the deliveries it created (`deliveriesOf`). */
  deliveries: SQL;
}

/**
 * The writes that record event `type` for each statement of `rows` that satisfies `when` (a
 * condition on the statement row `s`, checked before the change in the same batch), and queue
 * its delivery to every enabled endpoint of the statement's product that takes it (see
 * `takesType`). `rows` is a JSON array of
 * rows whose first element is a statement id, such as an import's chunk of statements. Each
 * transition is recorded once per statement: a unique index turns a repeat into a no-op.
 */
export function statementEventWrites(
  type: EventType,
  rows: string,
  createdAt: string,
  when: SQL = sql`true`,
): EventWrites {
  return {
    events: sql`INSERT INTO events (event_id, type, statement_id, account_id, customer_id,
        partner_id, environment, merchant_key, created_at)
      SELECT 'evt_' || lower(hex(randomblob(12))), ${type}, s.statement_id, s.account_id,
        a.customer_id, a.partner_id, a.environment, a.merchant_key, ${createdAt}
      FROM json_each(${rows}) AS j JOIN statements AS s ON s.statement_id = j.value ->> 0
        JOIN accounts AS a ON a.account_id = s.account_id
      WHERE ${when} ON CONFLICT (statement_id, type) DO NOTHING`,
    deliveries: sql`INSERT INTO webhook_deliveries (event_id, endpoint_id, status, generation,
        attempts, cycle_started_at, next_attempt_at, lease_until, completed_at)
      SELECT e.event_id, w.endpoint_id, 'pending', 0, 0, ${createdAt}, ${createdAt}, NULL, NULL
      FROM json_each(${rows}) AS j
        JOIN events AS e ON e.statement_id = j.value ->> 0 AND e.type = ${type}
          AND e.created_at = ${createdAt}
        JOIN webhook_endpoints AS w ON w.partner_id = e.partner_id
          AND w.environment = e.environment AND w.merchant_key = e.merchant_key
          AND w.status = 'enabled' AND ${takesType(sql`w`, sql`e.type`)}
      WHERE true ON CONFLICT DO NOTHING
      RETURNING event_id, endpoint_id, generation, ${endpointPartner} AS partner_id`,
  };
}

/**
 * SQL: the endpoint `w` takes events of canonical type `type`. Its filter names types of its own
 * version, worked out into canonical types when it was set (events/event-types.ts); a filter
 * worked out under other canonical types than this build's lets everything through, and the consumer, which
 * holds the version bundle, drops what the endpoint's version does not show under a type it
 * takes (and works the filter out anew).
 */
export function takesType(w: SQL, type: SQL): SQL {
  return sql`(${w}.event_types IS NULL OR ${w}.event_types_revision IS NOT ${EVENT_TYPES_REVISION}
    OR EXISTS (SELECT 1 FROM json_each(${w}.event_types) t WHERE t.value = ${type}))`;
}

/** The deliveries created on shard `shard`, from the batch results of `deliveries` writes. */
export function deliveriesOf(results: readonly D1Result[], shard: string): DeliveryRef[] {
  return results.flatMap((result) => withShard(deliveryRowsOf(result.results), shard));
}

/**
 * The rows of a raw result of a delivery write (the `RETURNING` of `deliveries`, or
 * `DELIVERY_RETURNING`); a row of another shape is a defect, and throws.
 */
export function deliveryRowsOf(rows: readonly unknown[]): DeliveryRow[] {
  return rows.map((row) => {
    if (!isDeliveryRow(row)) throw new Error("a delivery write answered a row of another shape");
    return row;
  });
}

/** Whether a raw result row has a delivery row's columns (and maybe others). */
export function isDeliveryRow(row: unknown): row is DeliveryRow {
  return (
    typeof row === "object" &&
    row !== null &&
    "event_id" in row &&
    typeof row.event_id === "string" &&
    "endpoint_id" in row &&
    typeof row.endpoint_id === "string" &&
    "generation" in row &&
    typeof row.generation === "number" &&
    "partner_id" in row &&
    typeof row.partner_id === "string"
  );
}

/** Delivery rows of shard `shard`, as messages. */
export function withShard(rows: readonly DeliveryRow[], shard: string): DeliveryRef[] {
  return rows.map((row) => ({ ...row, shard }));
}
