// /v2/webhook_endpoints: creating, listing, changing, rolling the secret of, enabling and deleting
// the caller's product's endpoints (recovering one's missed events is
// src/webhook-deliveries/routes.ts).
import { keyActor } from "../app/actor";
import { storeWithEffect } from "../app/idempotency";
import { readScope } from "../app/pipeline";
import { idPage, idPageQuery } from "../app/query";
import { route } from "../app/route";
import { DEFAULT_PREVIOUS_SECRET_SECONDS, toWebhookEndpoint } from "../domain/webhook-endpoint";
import {
  CreateWebhookEndpointRequest,
  RollWebhookEndpointSecretRequest,
  UpdateWebhookEndpointRequest,
  WebhookEndpoint,
  WebhookEndpointList,
} from "./api-schemas";
import { findEndpoint, readEndpointPage } from "./endpoint-reads";
import { deleteEndpoint } from "./endpoint-store";
import {
  enableWithinBudget,
  endpointNotFound,
  prepareEndpoint,
  prepareSecretRoll,
  prepareUpdate,
  readContext,
} from "./endpoints";

export const createWebhookEndpoint = route({
  method: "POST",
  path: "/v2/webhook_endpoints",
  summary: "Create a webhook endpoint",
  operationId: "createWebhookEndpoint",
  tag: "Webhook endpoints",
  errors: [],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  body: { schema: CreateWebhookEndpointRequest, required: true },
  response: { status: 201, schema: WebhookEndpoint },
  async handler(c, { body, reply }) {
    const prepared = await prepareEndpoint(c, {
      scope: readScope(c),
      url: body.url,
      description: body.description ?? null,
      apiVersion: body.api_version ?? c.get("version"),
      enabledEvents: body.enabled_events,
      actor: keyActor(c),
    });
    // The endpoint and its replayable response commit together: a retry never creates another.
    const answer = reply(prepared.endpoint);
    await prepared.commit(await storeWithEffect(c, answer, prepared.stored));
    return answer;
  },
});

export const listWebhookEndpoints = route({
  method: "GET",
  path: "/v2/webhook_endpoints",
  summary: "List webhook endpoints",
  operationId: "listWebhookEndpoints",
  tag: "Webhook endpoints",
  errors: [],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  query: idPageQuery,
  response: { status: 200, schema: WebhookEndpointList },
  async handler(c, { query: { limit, after }, reply }) {
    const ctx = readContext(c);
    const rows = await readEndpointPage(c.get("db"), readScope(c), after, limit, ctx.now);
    return reply(idPage(rows, limit, (row) => toWebhookEndpoint(row, ctx)));
  },
});

export const retrieveWebhookEndpoint = route({
  method: "GET",
  path: "/v2/webhook_endpoints/:webhook_endpoint_id",
  summary: "Retrieve a webhook endpoint",
  operationId: "retrieveWebhookEndpoint",
  tag: "Webhook endpoints",
  errors: [{ status: 404, types: ["NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  response: { status: 200, schema: WebhookEndpoint },
  async handler(c, { reply }) {
    const endpointId = c.req.param("webhook_endpoint_id");
    const ctx = readContext(c);
    const row = await findEndpoint(c.get("db"), readScope(c), endpointId, ctx.now);
    if (!row) throw endpointNotFound(endpointId);
    return reply(toWebhookEndpoint(row, ctx));
  },
});

export const updateWebhookEndpoint = route({
  method: "POST",
  path: "/v2/webhook_endpoints/:webhook_endpoint_id",
  summary: "Update a webhook endpoint",
  operationId: "updateWebhookEndpoint",
  tag: "Webhook endpoints",
  errors: [{ status: 404, types: ["NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  body: { schema: UpdateWebhookEndpointRequest, required: false },
  response: { status: 200, schema: WebhookEndpoint },
  async handler(c, { body, reply }) {
    // Only the fields sent change (Stripe's partial update); its API version stays pinned.
    const prepared = await prepareUpdate(c, {
      scope: readScope(c),
      endpointId: c.req.param("webhook_endpoint_id"),
      url: body.url,
      description: body.description,
      enabledEvents: body.enabled_events,
      actor: keyActor(c),
    });
    const answer = reply(prepared.endpoint);
    await prepared.commit(await storeWithEffect(c, answer, prepared.stored));
    return answer;
  },
});

export const deleteWebhookEndpoint = route({
  method: "DELETE",
  path: "/v2/webhook_endpoints/:webhook_endpoint_id",
  summary: "Delete a webhook endpoint",
  operationId: "deleteWebhookEndpoint",
  tag: "Webhook endpoints",
  errors: [{ status: 404, types: ["NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  response: { status: 204 },
  async handler(c, { reply }) {
    const endpointId = c.req.param("webhook_endpoint_id");
    const change = { scope: readScope(c), endpointId, actor: keyActor(c), now: c.get("now")() };
    if (!(await deleteEndpoint(c.get("db"), change))) throw endpointNotFound(endpointId);
    return reply();
  },
});

export const rollWebhookEndpointSecret = route({
  method: "POST",
  path: "/v2/webhook_endpoints/:webhook_endpoint_id/roll_secret",
  summary: "Roll a webhook endpoint's secret",
  operationId: "rollWebhookEndpointSecret",
  tag: "Webhook endpoints",
  errors: [{ status: 404, types: ["NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  body: { schema: RollWebhookEndpointSecretRequest, required: false },
  response: { status: 200, schema: WebhookEndpoint },
  async handler(c, { body, reply }) {
    const prepared = await prepareSecretRoll(c, {
      scope: readScope(c),
      endpointId: c.req.param("webhook_endpoint_id"),
      keepForSeconds: body.previous_secret_expires_in ?? DEFAULT_PREVIOUS_SECRET_SECONDS,
      actor: keyActor(c),
    });
    // The response is known before the write (the endpoint as it will read, with the new
    // secret), so it is stored in the same batch as the roll: a retry never rolls twice.
    const answer = reply(prepared.endpoint);
    await prepared.commit(await storeWithEffect(c, answer, prepared.stored));
    return answer;
  },
});

export const enableWebhookEndpoint = route({
  method: "POST",
  path: "/v2/webhook_endpoints/:webhook_endpoint_id/enable",
  summary: "Enable a webhook endpoint",
  operationId: "enableWebhookEndpoint",
  tag: "Webhook endpoints",
  errors: [{ status: 404, types: ["NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  response: { status: 200, schema: WebhookEndpoint },
  async handler(c, { reply }) {
    const endpointId = c.req.param("webhook_endpoint_id");
    const change = { scope: readScope(c), endpointId, actor: keyActor(c), now: c.get("now")() };
    const row = await enableWithinBudget(c, change);
    return reply(toWebhookEndpoint(row, readContext(c)));
  },
});
