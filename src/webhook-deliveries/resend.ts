// Re-sending a retained event to its webhook endpoints: for the API and the dashboard alike (the
// same checks, the same budget, the same audit row).
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import type { ReadScope } from "../db/customers";
import type { Actor } from "../domain/audit";
import { enabledEventsOf } from "../domain/webhook-endpoint";
import { retainedEvent, takesEvent, typeSeenIn } from "../events";
import {
  budgetSpent,
  budgetWait,
  endpointNotFound,
  findEndpoint,
  MAX_DELIVERY_ATTEMPTS,
} from "../webhook-endpoints";
import { enqueueDeliveries } from "./delivery-queue";
import { type Resend, type ResendTarget, resendEvent, resendTargets } from "./delivery-store";

export interface ResendRequest {
  scope: ReadScope;
  eventId: string;
  /** One endpoint of the scope, which must be enabled; null for every enabled one. */
  endpointId: string | null;
  actor: Actor;
}

/** 409 for an event that has had all its attempts to the endpoint. */
function attemptsSpent(eventId: string, endpointId: string): ApiError {
  return new ApiError(
    "CONFLICT_ERROR",
    `Event ${eventId} has had its ${MAX_DELIVERY_ATTEMPTS} delivery attempts to webhook ` +
      `endpoint ${endpointId}: it is not sent to it again. Read it from GET /v2/events/${eventId}.`,
    { param: "webhook_endpoint_id" },
  );
}

/** 429 for the target whose re-send budget frees up last, when any has none left at `now`. */
function overBudget(targets: readonly ResendTarget[], now: Date): ApiError | null {
  let worst: { endpointId: string; wait: number } | null = null;
  for (const target of targets) {
    const wait = budgetWait(target, "resend", now);
    if (wait > (worst?.wait ?? 0)) worst = { endpointId: target.endpointId, wait };
  }
  return worst ? budgetSpent(worst.endpointId, "resend", worst.wait) : null;
}

/**
 * Queues a retained event again to the endpoint (or to every enabled endpoint) that takes its
 * type, each paying one re-send of its hourly budget; answers the endpoints it is queued for (not
 * those its delivery has had all its attempts to). 404 for an event or endpoint outside the
 * scope, 400 for a disabled endpoint or one that does not take it, 409 when the one endpoint
 * named has had all its attempts, 429 while an endpoint it goes to has no re-send left.
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
  const resend: Resend = {
    scope,
    shard: c.get("shard"),
    eventId: event.eventId,
    endpointId,
    actor: request.actor,
    now: c.get("now")(),
  };
  const targets = await resendTargets(db, resend);
  if (endpointId !== null && targets.some((t) => t.exhausted)) {
    throw attemptsSpent(event.eventId, endpointId);
  }
  const payers = targets.filter((t) => !t.exhausted);
  const refused = overBudget(payers, resend.now);
  if (refused) throw refused;
  const deliveries = await resendEvent(db, resend);
  // Another request took the last of a budget in between: refused as it would have been.
  if (deliveries.length === 0 && payers.length > 0) {
    throw (
      overBudget(await resendTargets(db, resend), resend.now) ??
      budgetSpent(payers[0]?.endpointId ?? "", "resend", 1)
    );
  }
  await enqueueDeliveries(c.env.WEBHOOK_DELIVERIES, deliveries, c.get("requestId"));
  return { eventId: event.eventId, endpointIds: deliveries.map((d) => d.endpoint_id) };
}
