// The delivery outbox seen from the partner routes: the attempts of an event, and re-sending it.
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "./client";
import type { DeliveryRef } from "./event-writes";
import type { ReadScope } from "./queries";
import { webhookAttempts, webhookDeliveries } from "./schema";

export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** Up to `limit + 1` attempts to deliver an event, oldest first (ids sort by time), after `after`. */
export function readAttemptPage(
  db: Database,
  eventId: string,
  after: string | null,
  limit: number,
): Promise<AttemptRow[]> {
  const ofEvent = eq(webhookAttempts.eventId, eventId);
  return db
    .select()
    .from(webhookAttempts)
    .where(after ? and(ofEvent, gt(webhookAttempts.attemptId, after)) : ofEvent)
    .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.attemptId))
    .limit(limit + 1);
}

/**
 * Starts a new delivery cycle of the event (of the scope) to one enabled endpoint, or to all of
 * them: a fresh retry window from `now`, and a new generation so that messages of the previous
 * cycle attempt nothing. Answers the deliveries to enqueue.
 */
export async function resendEvent(
  db: Database,
  scope: ReadScope,
  eventId: string,
  endpointId: string | null,
  now: Date,
): Promise<DeliveryRef[]> {
  const at = now.toISOString();
  const oneEndpoint = endpointId === null ? sql`` : sql`AND w.endpoint_id = ${endpointId}`;
  return db
    .insert(webhookDeliveries)
    .select(
      sql`SELECT e.event_id, w.endpoint_id, 'pending', 0, 0, ${at}, ${at}, NULL, NULL
          FROM events e JOIN webhook_endpoints w
            ON w.partner_id = e.partner_id AND w.environment = e.environment
           AND w.merchant_key = e.merchant_key AND w.status = 'enabled' ${oneEndpoint}
          WHERE e.event_id = ${eventId} AND e.partner_id = ${scope.partnerId}
            AND e.environment = ${scope.environment} AND e.merchant_key = ${scope.merchantKey}`,
    )
    .onConflictDoUpdate({
      target: [webhookDeliveries.eventId, webhookDeliveries.endpointId],
      set: {
        status: "pending",
        generation: sql`${webhookDeliveries.generation} + 1`,
        attempts: 0,
        cycleStartedAt: at,
        nextAttemptAt: at,
        leaseUntil: null,
        completedAt: null,
      },
    })
    .returning({
      event_id: webhookDeliveries.eventId,
      endpoint_id: webhookDeliveries.endpointId,
      generation: webhookDeliveries.generation,
    });
}
