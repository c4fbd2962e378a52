// The delivery outbox seen from partners (the API and the dashboard): the attempts of an
// endpoint, and re-sending an event (an event's attempts: delivery-attempt.ts).
import { and, desc, eq, lt, sql } from "drizzle-orm";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import type { Actor } from "../domain/audit";
import { events } from "../events/schema";
import { webhookAttempts, webhookDeliveries } from "../webhook-endpoints/schema";
import type { EndpointAttempt } from "./delivery-attempt";
import {
  DELIVERY_RETURNING,
  type DeliveryRef,
  deliveryRowsOf,
  newDeliveryCycle,
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

/**
 * Starts a new delivery cycle of the event (of the scope) to one enabled endpoint, or to all of
 * them: a fresh retry window from `now`, and a new generation so that messages of the previous
 * cycle attempt nothing. One batch with its audit row (written only when something is queued).
 * Answers the deliveries to enqueue.
 */
export async function resendEvent(db: Database, resend: Resend): Promise<DeliveryRef[]> {
  const { scope, eventId, endpointId, now } = resend;
  const at = now.toISOString();
  const oneEndpoint = endpointId === null ? sql`` : sql`AND w.endpoint_id = ${endpointId}`;
  // The (event, endpoint) pairs to deliver: the event's enabled endpoints in its scope that
  // take its type.
  const pairs = sql`FROM events e JOIN webhook_endpoints w
      ON w.partner_id = e.partner_id AND w.environment = e.environment
     AND w.merchant_key = e.merchant_key AND w.status = 'enabled' ${oneEndpoint}
     AND ${takesType(sql`w`, sql`e.type`)}
    WHERE e.event_id = ${eventId} AND e.partner_id = ${scope.partnerId}
      AND e.environment = ${scope.environment} AND e.merchant_key = ${scope.merchantKey}`;
  const [, queued] = await atomically(db, [
    auditInsert(
      scope.partnerId,
      resend.actor,
      { action: "event.resent", environment: scope.environment, target: eventId },
      now,
      {
        guard: sql`EXISTS (SELECT 1 ${pairs})`,
        details: sql`json_object('webhook_endpoint_ids',
          json((SELECT json_group_array(w.endpoint_id) ${pairs})))`,
      },
    ),
    db
      .insert(webhookDeliveries)
      .select(
        sql`SELECT e.event_id, w.endpoint_id, 'pending', 0, 0, ${at}, ${at}, NULL, NULL, NULL
          ${pairs}`,
      )
      .onConflictDoUpdate({
        target: [webhookDeliveries.eventId, webhookDeliveries.endpointId],
        set: newDeliveryCycle(at),
      })
      .returning(DELIVERY_RETURNING),
  ]);
  return withShard(deliveryRowsOf(queued?.results ?? []), resend.shard);
}
