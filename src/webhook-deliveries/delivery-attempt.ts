// One attempt to deliver an event to an endpoint, as partners read it, and an event's attempts a
// page at a time.
import { and, asc, eq, gt } from "drizzle-orm";
import type { Database } from "../db/client";
import type { EventType } from "../domain/event";
import { webhookAttempts } from "../webhook-endpoints/schema";

export type AttemptStatus = "succeeded" | "failed" | "timed_out";

export interface DeliveryAttempt {
  attempt_id: string;
  event_id: string;
  webhook_endpoint_id: string;
  attempted_at: string;
  duration_ms: number;
  status: AttemptStatus;
  response_status?: number;
  error?: string;
}

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

export function toDeliveryAttempt(row: {
  attemptId: string;
  eventId: string;
  endpointId: string;
  attemptedAt: string;
  durationMs: number;
  status: AttemptStatus;
  responseStatus: number | null;
  error: string | null;
}): DeliveryAttempt {
  const out: DeliveryAttempt = {
    attempt_id: row.attemptId,
    event_id: row.eventId,
    webhook_endpoint_id: row.endpointId,
    attempted_at: row.attemptedAt,
    duration_ms: row.durationMs,
    status: row.status,
  };
  if (row.responseStatus !== null) out.response_status = row.responseStatus;
  if (row.error !== null) out.error = row.error;
  return out;
}

/** An attempt in an endpoint's delivery history, with the type of the event it carried. */
export interface EndpointAttempt {
  attemptId: string;
  eventId: string;
  /** Null once the event is purged (its attempts go with it, so only in between). */
  eventType: EventType | null;
  attemptedAt: string;
  durationMs: number;
  status: AttemptStatus;
  responseStatus: number | null;
  error: string | null;
}
