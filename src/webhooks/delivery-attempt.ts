// One attempt to deliver an event to an endpoint, as partners read it.
import type { EventType } from "../domain/event";

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
