// The routes of deliveries: an event's delivery attempts, re-sending an event, and recovering the
// events an endpoint missed.
import { keyActor } from "../app/actor";
import { readScope } from "../app/pipeline";
import { idPage, idPageQuery } from "../app/query";
import { route } from "../app/route";
import { retainedEvent } from "../events";
import {
  DeliveryAttemptList,
  EventResend,
  RecoverWebhookEndpointRequest,
  ResendEventRequest,
  WebhookEndpointRecovery,
} from "./api-schemas";
import { readAttemptPage, toDeliveryAttempt } from "./delivery-attempt";
import { recoverEndpoint } from "./recovery";
import { resendEventTo } from "./resend";

export const listDeliveryAttempts = route({
  method: "GET",
  path: "/v2/events/:event_id/delivery_attempts",
  summary: "List an event's delivery attempts",
  operationId: "listEventDeliveryAttempts",
  tag: "Events",
  errors: [{ status: 404, types: ["NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  query: idPageQuery,
  response: { status: 200, schema: DeliveryAttemptList },
  async handler(c, { query: { limit, after }, reply }) {
    const row = await retainedEvent(c, readScope(c), c.req.param("event_id"));
    const rows = await readAttemptPage(c.get("db"), row.eventId, after, limit);
    return reply(idPage(rows, limit, toDeliveryAttempt));
  },
});

export const resendEvent = route({
  method: "POST",
  path: "/v2/events/:event_id/resend",
  summary: "Resend an event",
  operationId: "resendEvent",
  tag: "Events",
  errors: [
    { status: 404, types: ["NOT_FOUND_ERROR"] },
    { status: 409, types: ["CONFLICT_ERROR"] },
  ],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  body: { schema: ResendEventRequest, required: false },
  response: { status: 202, schema: EventResend },
  async handler(c, { body, reply }) {
    const resent = await resendEventTo(c, {
      scope: readScope(c),
      eventId: c.req.param("event_id"),
      endpointId: body.webhook_endpoint_id ?? null,
      actor: keyActor(c),
    });
    // Stored after the fact by the idempotency layer: a crash in between would only queue the
    // event once more, which at-least-once delivery allows.
    return reply({ event_id: resent.eventId, webhook_endpoint_ids: resent.endpointIds });
  },
});

export const recoverWebhookEndpoint = route({
  method: "POST",
  path: "/v2/webhook_endpoints/:webhook_endpoint_id/recover",
  summary: "Recover a webhook endpoint's missed events",
  operationId: "recoverWebhookEndpointMissedEvents",
  tag: "Webhook endpoints",
  errors: [
    { status: 404, types: ["NOT_FOUND_ERROR"] },
    { status: 409, types: ["CONFLICT_ERROR"] },
  ],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  body: { schema: RecoverWebhookEndpointRequest, required: true },
  response: { status: 202, schema: WebhookEndpointRecovery },
  async handler(c, { body, reply }) {
    const outcome = await recoverEndpoint(c, {
      scope: readScope(c),
      endpointId: c.req.param("webhook_endpoint_id"),
      since: body.since,
      until: body.until,
      actor: keyActor(c),
    });
    // Stored after the fact by the idempotency layer, as a re-send's: a crash in between would
    // leave the events queued, and a retry would find them queued already and queue none again.
    return reply(outcome);
  },
});
