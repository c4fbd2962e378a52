// Recovering what an endpoint missed (an outage of its receiver, a weekend disabled): every event
// of a window, of the types it takes, that it has not received, queued once each in the order
// they happened, through its delivery throttle; one recovery at a time per endpoint, a few an
// hour. For the API and the dashboard alike.
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { sendMessages } from "../app/queue-send";
import type { Actor } from "../domain/audit";
import { normaliseTimestamp } from "../domain/timestamp";
import { storedEventTypes } from "../domain/webhook-endpoint";
import { canonicalTypesFor, retainedSince } from "../events";
import {
  budgetSpent,
  budgetWait,
  deliveryConfig,
  type EndpointScope,
  endpointNotFound,
  findEndpoint,
} from "../webhook-endpoints";
import type { DeliveryRef } from "./event-writes";
import {
  type RecoveredDelivery,
  type RecoveryState,
  type RunningRecovery,
  readRecoveryState,
  recoverEvents,
} from "./recovery-store";
import { delayUntil, slotSecond } from "./throttle";

export interface RecoveryRequest {
  scope: EndpointScope;
  endpointId: string;
  /** RFC 3339, as sent. */
  since: string;
  until?: string | undefined;
  actor: Actor;
}

export interface RecoveryOutcome {
  webhook_endpoint_id: string;
  since: string;
  until: string;
  queued: number;
  has_more: boolean;
}

/** A field of the window as an instant; 400 naming it otherwise. */
function instant(value: string, field: string): string {
  const normalised = normaliseTimestamp(value);
  if (normalised === null) {
    throw invalidRequest([`${field} must be an RFC 3339 timestamp`], field);
  }
  return normalised;
}

/** 409 for a disabled endpoint: it gets nothing until it is enabled. */
export function disabledEndpoint(endpointId: string): ApiError {
  return new ApiError(
    "CONFLICT_ERROR",
    "This webhook endpoint is disabled: enable it " +
      `(POST /v2/webhook_endpoints/${endpointId}/enable), then recover its events.`,
    { param: "webhook_endpoint_id" },
  );
}

/** 409 while a recovery of the endpoint runs, naming it. */
function recoveryRunning(endpointId: string, running: RunningRecovery): ApiError {
  return new ApiError(
    "CONFLICT_ERROR",
    `A recovery of this webhook endpoint is running: the one started at ${running.startedAt} ` +
      `for events from ${running.since} until ${running.until}, with ${running.left} ` +
      `${running.left === 1 ? "delivery" : "deliveries"} still to make. An endpoint runs one ` +
      `recovery at a time: recover ${endpointId} again once it is done.`,
    { param: "webhook_endpoint_id" },
  );
}

/** The refusal a recovery of the endpoint meets at `now`, if any: 409 while one runs, else 429. */
function refusal(endpointId: string, state: RecoveryState | null, now: Date): ApiError | null {
  if (!state) return endpointNotFound(endpointId);
  if (state.running) return recoveryRunning(endpointId, state.running);
  const wait = budgetWait(state.budget, "recover", now);
  return wait > 0 ? budgetSpent(endpointId, "recover", wait) : null;
}

/**
 * Sends the recovered deliveries, in event order, each delayed to its throttle slot (those of one
 * second in one send, in order), once the next second begins (their slots start there), so that
 * each second's messages arrive as it begins. A send that fails is logged: the sweep re-sends
 * what is overdue.
 */
async function enqueueInOrder(
  queue: Queue,
  deliveries: readonly RecoveredDelivery[],
  requestId: string,
): Promise<void> {
  const [head] = deliveries;
  if (!head) return;
  const first = slotSecond(head.slot);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, first * 1000 - Date.now())));
  const now = new Date();
  // Runs of consecutive deliveries due after the same delay: one send each.
  const runs: { delay: number; bodies: DeliveryRef[] }[] = [];
  for (const { slot, createdAt: _, ...ref } of deliveries) {
    const delay = delayUntil(slotSecond(slot), now);
    const run = runs.at(-1);
    if (run?.delay === delay) run.bodies.push(ref);
    else runs.push({ delay, bodies: [ref] });
  }
  try {
    for (const { delay, bodies } of runs) await sendMessages(queue, bodies, delay);
  } catch (err) {
    console.error(
      JSON.stringify({ request_id: requestId, error: `recovery enqueue failed: ${String(err)}` }),
    );
  }
}

/**
 * Queues the endpoint's missed events of the window (see `recoverEvents`): 400 for a window
 * outside the events' 30 days or empty, 404 for an endpoint outside the scope, 409 while it is
 * disabled or another recovery of it runs, 429 once its hourly budget of recoveries is spent.
 */
export async function recoverEndpoint(
  c: Context<AppEnv>,
  request: RecoveryRequest,
): Promise<RecoveryOutcome> {
  const now = c.get("now")();
  const oldest = retainedSince(now);
  const since = instant(request.since, "since");
  if (since < oldest) {
    throw invalidRequest(
      [`since must be within the 30 days events are kept: at or after ${oldest}`],
      "since",
    );
  }
  // A window reaching past now ends now: no event is newer.
  const asked = request.until === undefined ? null : instant(request.until, "until");
  const until = asked === null || asked > now.toISOString() ? now.toISOString() : asked;
  if (until <= since) throw invalidRequest(["until must be later than since"], "until");

  const { scope, endpointId } = request;
  const db = c.get("db");
  const endpoint = await findEndpoint(db, scope, endpointId, now);
  if (!endpoint) throw endpointNotFound(endpointId);
  if (endpoint.status !== "enabled") throw disabledEndpoint(endpointId);
  const types =
    endpoint.enabledEvents === null
      ? null
      : canonicalTypesFor(
          c.get("bundle"),
          endpoint.apiVersion,
          storedEventTypes(endpoint.enabledEvents),
        );
  const refused = refusal(endpointId, await readRecoveryState(db, endpointId), now);
  if (refused) throw refused;
  const { started, deliveries, hasMore } = await recoverEvents(db, {
    scope,
    shard: c.get("shard"),
    endpointId,
    since,
    until,
    types,
    perSecond: deliveryConfig(c.env).maxPerSecond,
    actor: request.actor,
    now,
  });
  // Another request started a recovery, or took the last of the budget, in between.
  if (!started) {
    throw (
      refusal(endpointId, await readRecoveryState(db, endpointId), now) ??
      disabledEndpoint(endpointId)
    );
  }
  // Sent after the answer, as the next second begins (under a second from now).
  c.executionCtx.waitUntil(
    enqueueInOrder(c.env.WEBHOOK_DELIVERIES, deliveries, c.get("requestId")),
  );
  return {
    webhook_endpoint_id: endpointId,
    since,
    until,
    queued: deliveries.length,
    has_more: hasMore,
  };
}
