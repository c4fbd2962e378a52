// Re-sending a retained event to its webhook endpoints: for the API and the dashboard alike (the
// same checks, the same delivery cycle, the same audit row).
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { invalidRequest } from "../app/errors";
import type { ReadScope } from "../db/customers";
import type { Actor } from "../domain/audit";
import { enabledEventsOf } from "../domain/webhook-endpoint";
import { retainedEvent, takesEvent, typeSeenIn } from "../events";
import { endpointNotFound, findEndpoint } from "../webhook-endpoints";
import { enqueueDeliveries } from "./delivery-queue";
import { resendEvent } from "./delivery-store";

export interface ResendRequest {
  scope: ReadScope;
  eventId: string;
  /** One endpoint of the scope, which must be enabled; null for every enabled one. */
  endpointId: string | null;
  actor: Actor;
}

/**
 * Starts a new delivery cycle of a retained event to the endpoint (or to every enabled endpoint)
 * that takes its type, and queues it; answers the endpoints it is queued for. 404 for an event
 * or endpoint outside the scope, 400 for a disabled endpoint or one that does not take it.
 */
export async function resendEventTo(
  c: Context<AppEnv>,
  request: ResendRequest,
): Promise<{ eventId: string; endpointIds: string[] }> {
  const { scope, endpointId } = request;
  const event = await retainedEvent(c, scope, request.eventId);
  const db = c.get("db");
  if (endpointId !== null) {
    const endpoint = await findEndpoint(db, scope, endpointId, c.get("now")());
    if (!endpoint) throw endpointNotFound(endpointId);
    if (endpoint.status !== "enabled") {
      throw invalidRequest(
        ["This webhook endpoint is disabled: enable it before re-sending events to it."],
        "webhook_endpoint_id",
      );
    }
    // Matched as the endpoint's version shows the event, as its deliveries are.
    const shown = typeSeenIn(c.get("bundle"), endpoint.apiVersion, event.type);
    if (!takesEvent(endpoint.enabledEvents, shown)) {
      throw invalidRequest(
        [
          `This webhook endpoint does not take ${shown} events (its enabled_events are ` +
            `${enabledEventsOf(endpoint.enabledEvents).join(", ")}).`,
        ],
        "webhook_endpoint_id",
      );
    }
  }
  const deliveries = await resendEvent(db, {
    scope,
    shard: c.get("shard"),
    eventId: event.eventId,
    endpointId,
    actor: request.actor,
    now: c.get("now")(),
  });
  await enqueueDeliveries(c.env.WEBHOOK_DELIVERIES, deliveries, c.get("requestId"));
  return { eventId: event.eventId, endpointIds: deliveries.map((d) => d.endpoint_id) };
}
