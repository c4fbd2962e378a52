// The delivery outbox seen from partners (the API and the dashboard): the attempts of an
// endpoint, and re-sending an event (an event's attempts: delivery-attempt.ts).
import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import type { Actor } from "../domain/audit";
import { events } from "../events/schema";
import { type BudgetState, budgetRoom, takeBudget } from "../webhook-endpoints";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../webhook-endpoints/schema";
import type { EndpointAttempt } from "./delivery-attempt";
import {
  attemptsLeft,
  DELIVERY_RETURNING,
  type DeliveryRef,
  deliveryRowsOf,
  requeued,
  takesType,
  withShard,
} from "./event-writes";

/**
 * Up to `limit + 1` attempts to deliver to the endpoint, newest first, older than the attempt
 * `before`: one range of `webhook_attempts_endpoint_idx`, each joined to its event by key.
 */
export async function readEndpointAttempts(
  db: Database,
  endpointId: string,
  before: string | null,
  limit: number,
): Promise<EndpointAttempt[]> {
  const ofEndpoint = eq(webhookAttempts.endpointId, endpointId);
  return db
    .select({
      attemptId: webhookAttempts.attemptId,
      eventId: webhookAttempts.eventId,
      eventType: events.type,
      attemptedAt: webhookAttempts.attemptedAt,
      durationMs: webhookAttempts.durationMs,
      status: webhookAttempts.status,
      responseStatus: webhookAttempts.responseStatus,
      error: webhookAttempts.error,
    })
    .from(webhookAttempts)
    .leftJoin(events, eq(events.eventId, webhookAttempts.eventId))
    .where(before ? and(ofEndpoint, lt(webhookAttempts.attemptId, before)) : ofEndpoint)
    .orderBy(desc(webhookAttempts.attemptId))
    .limit(limit + 1);
}

export interface Resend {
  scope: ReadScope;
  /** The shard `db` is: the messages name it. */
  shard: string;
  eventId: string;
  /** One endpoint of the scope, or null for every enabled one. */
  endpointId: string | null;
  actor: Actor;
  now: Date;
}

/** An endpoint a re-send would go to: its budget, and whether the event's attempts are spent. */
export interface ResendTarget extends BudgetState {
  endpointId: string;
  exhausted: boolean;
}

/** SQL: the (event, endpoint) pairs a re-send goes to, as `e` and `w`, each with its delivery `d`. */
function resendPairs(resend: Resend): SQL {
  const { scope, eventId, endpointId } = resend;
  const oneEndpoint = endpointId === null ? sql`` : sql`AND w.endpoint_id = ${endpointId}`;
  // The event's enabled endpoints in its scope that take its type.
  return sql`FROM events e JOIN webhook_endpoints w
      ON w.partner_id = e.partner_id AND w.environment = e.environment
     AND w.merchant_key = e.merchant_key AND w.status = 'enabled' ${oneEndpoint}
     AND ${takesType(sql`w`, sql`e.type`)}
    LEFT JOIN webhook_deliveries d ON d.event_id = e.event_id AND d.endpoint_id = w.endpoint_id
    WHERE e.event_id = ${eventId} AND e.partner_id = ${scope.partnerId}
      AND e.environment = ${scope.environment} AND e.merchant_key = ${scope.merchantKey}`;
}

/** The endpoints a re-send would go to, with their budgets and whether the event has attempts left. */
export async function resendTargets(db: Database, resend: Resend): Promise<ResendTarget[]> {
  const [read] = await atomically(db, [
    sql`SELECT w.endpoint_id AS endpointId, w.budget_since AS budgetSince,
      w.budget_recoveries AS budgetRecoveries, w.budget_resends AS budgetResends,
      w.budget_enables AS budgetEnables,
      (d.event_id IS NOT NULL AND NOT ${attemptsLeft("d")}) AS exhausted
      ${resendPairs(resend)}`,
  ]);
  const results = read?.results ?? [];
  return results.map(resendTargetOf);
}

/** A row `resendTargets` read; a row of another shape is a defect. */
function resendTargetOf(row: unknown): ResendTarget {
  if (
    typeof row === "object" &&
    row !== null &&
    "endpointId" in row &&
    typeof row.endpointId === "string" &&
    "budgetSince" in row &&
    (row.budgetSince === null || typeof row.budgetSince === "string") &&
    "budgetRecoveries" in row &&
    typeof row.budgetRecoveries === "number" &&
    "budgetResends" in row &&
    typeof row.budgetResends === "number" &&
    "budgetEnables" in row &&
    typeof row.budgetEnables === "number" &&
    "exhausted" in row
  ) {
    const { endpointId, budgetSince, budgetRecoveries, budgetResends, budgetEnables } = row;
    const exhausted = row.exhausted === 1;
    return { endpointId, budgetSince, budgetRecoveries, budgetResends, budgetEnables, exhausted };
  }
  throw new Error("a re-send's targets answered a row of another shape");
}

/**
 * Queues the event (of the scope) again to one enabled endpoint, or to all of them, but those its
 * delivery has had all its attempts to: a new generation, so that messages of the previous
 * queueing attempt nothing, in the delivery's retry window (a new delivery's starts now). Each
 * endpoint pays one re-send of its hourly budget; when one of them has none left, nothing is
 * queued. One batch with its audit row (written only when something is queued). Answers the
 * deliveries to enqueue.
 */
export async function resendEvent(db: Database, resend: Resend): Promise<DeliveryRef[]> {
  const { scope, eventId, now } = resend;
  const at = now.toISOString();
  const pairs = sql`${resendPairs(resend)} AND (d.event_id IS NULL OR ${attemptsLeft("d")})`;
  const [, queued] = await atomically(db, [
    db
      .update(webhookEndpoints)
      .set(takeBudget("resend", now))
      .where(
        sql`${webhookEndpoints.endpointId} IN (SELECT w.endpoint_id ${pairs})
          AND ${budgetRoom("resend", now)}`,
      ),
    // Only when every endpoint paid (`changes()` counts the rows the update before changed).
    db
      .insert(webhookDeliveries)
      .select(
        sql`SELECT e.event_id, w.endpoint_id, 'pending', 0, 0, ${at}, ${at}, NULL, NULL, NULL, NULL
          ${pairs} AND changes() = (SELECT count(*) ${pairs})`,
      )
      .onConflictDoUpdate({
        target: [webhookDeliveries.eventId, webhookDeliveries.endpointId],
        set: requeued(at),
      })
      .returning(DELIVERY_RETURNING),
    auditInsert(
      scope.partnerId,
      resend.actor,
      { action: "event.resent", environment: scope.environment, target: eventId },
      now,
      {
        guard: sql`changes() > 0`,
        details: sql`json_object('webhook_endpoint_ids',
          json((SELECT json_group_array(w.endpoint_id) ${pairs})))`,
      },
    ),
  ]);
  return withShard(deliveryRowsOf(queued?.results ?? []), resend.shard);
}
