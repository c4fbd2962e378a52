// Recovering an endpoint's missed events in D1: one batch takes a recovery of the endpoint's hourly
// budget and marks it running, picks the events of a window the endpoint has not received (nor
// has queued, nor waits to retry), queues each with a throttle slot reserved for it in event order,
// takes those slots from the endpoint's throttle, and writes the audit row; the next call, once
// this one's deliveries are made, picks up where a capped one stopped.
import { and, count, eq, type SQL, sql } from "drizzle-orm";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import type { Actor } from "../domain/audit";
import type { Environment } from "../domain/environment";
import type { EventType } from "../domain/event";
import { BUDGET_COLUMNS, type BudgetState, budgetRoom, takeBudget } from "../webhook-endpoints";
import { webhookDeliveries, webhookEndpoints } from "../webhook-endpoints/schema";
import { attemptsLeft, type DeliveryRef, isDeliveryRow } from "./event-writes";
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

/** SQL over the endpoint row `w`: its latest recovery still has a delivery to make. */
function recoveryRunning(w: string): SQL {
  const endpoint = sql.raw(`${w}.endpoint_id`);
  const started = sql.raw(`${w}.recovery_started_at`);
  return sql`EXISTS (SELECT 1 FROM webhook_deliveries r WHERE r.endpoint_id = ${endpoint}
    AND r.status = 'pending' AND r.recovered_at = ${started})`;
}

/** The endpoint's running recovery: when it started, its window, and the deliveries it has left. */
export interface RunningRecovery {
  startedAt: string;
  since: string;
  until: string;
  left: number;
}

/** What a recovery of the endpoint must wait for: the one running, and the hourly budget. */
export interface RecoveryState {
  running: RunningRecovery | null;
  budget: BudgetState;
}

/** The endpoint's recovery state (null for no such endpoint). */
export async function readRecoveryState(
  db: Database,
  endpointId: string,
): Promise<RecoveryState | null> {
  const [row] = await db
    .select({
      ...BUDGET_COLUMNS,
      startedAt: webhookEndpoints.recoveryStartedAt,
      since: webhookEndpoints.recoverySince,
      until: webhookEndpoints.recoveryUntil,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.endpointId, endpointId));
  if (!row) return null;
  const { startedAt, since, until, ...budget } = row;
  if (startedAt === null || since === null || until === null) return { running: null, budget };
  const [left] = await db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, "pending"),
        eq(webhookDeliveries.recoveredAt, startedAt),
      ),
    );
  const n = left?.n ?? 0;
  return { running: n > 0 ? { startedAt, since, until, left: n } : null, budget };
}

/**
 * Queues, once each, every event of the window the endpoint takes and has not received: none
 * delivered, or given up with attempts left. One pending is not missed: it is queued already, or
 * waits for a retry of its cycle. Each is queued in a new generation (so an older message
 * attempts nothing) within the retry window it had (a new delivery's starts now), with the next
 * slot of the endpoint's throttle from the next second on, in event order; at most
 * `MAX_RECOVERED` per call, `hasMore` saying whether more remain. The recovery takes one of the
 * endpoint's hourly budget and is its running one until its deliveries are made: nothing is
 * queued (`started` false) while another runs or the budget is spent, nor for an endpoint that is
 * not enabled, or not in the scope. One batch.
 */
export async function recoverEvents(
  db: Database,
  recovery: Recovery,
): Promise<{ started: boolean; deliveries: RecoveredDelivery[]; hasMore: boolean }> {
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
      AND (d.event_id IS NULL OR (d.status = 'failed' AND ${attemptsLeft("d")}))`;
  const endpoint = sql`FROM webhook_endpoints w WHERE w.endpoint_id = ${id}
    AND w.partner_id = ${scope.partnerId} AND w.environment = ${scope.environment}
    AND w.merchant_key = ${scope.merchantKey} AND w.status = 'enabled'`;
  const slot = slotOfRank("st", second, perSecond, sql`p.rn`);
  // The deliveries this call queued: marked with its start, with a slot.
  const queued = sql`FROM webhook_deliveries q WHERE q.endpoint_id = ${id}
    AND q.status = 'pending' AND q.recovered_at = ${at} AND q.throttle_slot IS NOT NULL`;
  const results = await atomically(db, [
    // The recovery starts only when none runs and the budget has room for it.
    db
      .update(webhookEndpoints)
      .set({
        ...takeBudget("recover", now),
        recoveryStartedAt: at,
        recoverySince: recovery.since,
        recoveryUntil: recovery.until,
      })
      .where(
        sql`${webhookEndpoints.endpointId} IN (SELECT w.endpoint_id ${endpoint})
          AND ${budgetRoom("recover", now)} AND NOT ${recoveryRunning("webhook_endpoints")}`,
      ),
    // Only when it started (`changes()`: the rows the update before changed).
    sql`WITH st AS (SELECT w.throttle_second, w.throttle_used ${endpoint}),
      picked AS (SELECT e.event_id,
          row_number() OVER (ORDER BY e.created_at, e.event_id) AS rn
        ${missed} ORDER BY e.created_at, e.event_id LIMIT ${MAX_RECOVERED})
      INSERT INTO webhook_deliveries (event_id, endpoint_id, status, generation, attempts,
        cycle_started_at, next_attempt_at, lease_until, completed_at, throttle_slot, recovered_at)
      SELECT p.event_id, ${id}, 'pending', 0, 0, ${at}, ${slotInstant(slot)}, NULL, NULL, ${slot},
        ${at}
      FROM picked p, st WHERE changes() = 1
      ON CONFLICT (event_id, endpoint_id) DO UPDATE SET status = 'pending',
        generation = webhook_deliveries.generation + 1, next_attempt_at = excluded.next_attempt_at,
        lease_until = NULL, completed_at = NULL, throttle_slot = excluded.throttle_slot,
        recovered_at = excluded.recovered_at
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
  const deliveries = (results[1]?.results ?? [])
    .map((row) => recoveredOf(row, recovery.shard))
    .sort((a, b) => {
      const [x, y] = [`${a.createdAt} ${a.event_id}`, `${b.createdAt} ${b.event_id}`];
      return x < y ? -1 : x > y ? 1 : 0;
    });
  const answer = results[4]?.results?.[0];
  const more =
    typeof answer === "object" && answer !== null && "more" in answer && answer.more === 1;
  return { started: results[0]?.meta.changes === 1, deliveries, hasMore: more };
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
