// /v2/webhook_endpoints: where a product's statement events are pushed, per environment.
import { Hono } from "hono";
import { keyActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { storeWithEffect } from "../app/idempotency";
import { respond, sendShaped, shape } from "../app/respond";
import { endpointNotFound, prepareEndpoint, prepareSecretRoll } from "../app/webhook-endpoints";
import { readScopeOf } from "../db/customer-queries";
import {
  deleteEndpoint,
  enableEndpoint,
  findEndpoint,
  readEndpointPage,
} from "../db/webhook-endpoints";
import { DEFAULT_PREVIOUS_SECRET_SECONDS, toWebhookEndpoint } from "../domain/webhook-endpoint";
import { idPage, parseIdPage } from "./list-params";
import { readRequest } from "./request-body";

const BASE = "/v2/webhook_endpoints";
const ONE = `${BASE}/:webhook_endpoint_id`;

export const webhookEndpointRoutes = new Hono<AppEnv>()
  .post(BASE, async (c) => {
    const body = await readRequest(c, "CreateWebhookEndpointRequest");
    const prepared = await prepareEndpoint(c, {
      scope: readScopeOf(c.get("caller"), c.get("merchantKey")),
      url: body.url,
      description: body.description ?? null,
      apiVersion: body.api_version ?? c.get("version"),
      actor: keyActor(c),
    });
    // The endpoint and its replayable response commit together: a retry never creates another.
    const shaped = shape(c, "WebhookEndpoint", prepared.endpoint, 201);
    await prepared.commit(await storeWithEffect(c, 201, shaped, prepared.stored));
    return sendShaped(c, shaped, 201);
  })

  .get(BASE, async (c) => {
    const { limit, after } = parseIdPage((name) => c.req.queries(name));
    const scope = readScopeOf(c.get("caller"), c.get("merchantKey"));
    const rows = await readEndpointPage(c.get("db"), scope, after, limit);
    const now = c.get("now")();
    return respond(
      c,
      "WebhookEndpointList",
      idPage(rows, limit, (row) => toWebhookEndpoint(row, now)),
    );
  })

  .get(ONE, async (c) => {
    const endpointId = c.req.param("webhook_endpoint_id");
    const scope = readScopeOf(c.get("caller"), c.get("merchantKey"));
    const row = await findEndpoint(c.get("db"), scope, endpointId);
    if (!row) throw endpointNotFound(endpointId);
    return respond(c, "WebhookEndpoint", toWebhookEndpoint(row, c.get("now")()));
  })

  .delete(ONE, async (c) => {
    const endpointId = c.req.param("webhook_endpoint_id");
    const scope = readScopeOf(c.get("caller"), c.get("merchantKey"));
    const change = { scope, endpointId, actor: keyActor(c), now: c.get("now")() };
    if (!(await deleteEndpoint(c.get("db"), change))) throw endpointNotFound(endpointId);
    return c.body(null, 204);
  })

  .post(`${ONE}/roll_secret`, async (c) => {
    const body = await readRequest(c, "RollWebhookEndpointSecretRequest", { allowEmpty: true });
    const prepared = await prepareSecretRoll(c, {
      scope: readScopeOf(c.get("caller"), c.get("merchantKey")),
      endpointId: c.req.param("webhook_endpoint_id"),
      keepForSeconds: body.previous_secret_expires_in ?? DEFAULT_PREVIOUS_SECRET_SECONDS,
      actor: keyActor(c),
    });
    // The response is known before the write (the endpoint as it will read, with the new
    // secret), so it is stored in the same batch as the roll: a retry never rolls twice.
    const shaped = shape(c, "WebhookEndpoint", prepared.endpoint);
    await prepared.commit(await storeWithEffect(c, 200, shaped, prepared.stored));
    return sendShaped(c, shaped, 200);
  })

  .post(`${ONE}/enable`, async (c) => {
    const endpointId = c.req.param("webhook_endpoint_id");
    const scope = readScopeOf(c.get("caller"), c.get("merchantKey"));
    const change = { scope, endpointId, actor: keyActor(c), now: c.get("now")() };
    const row = await enableEndpoint(c.get("db"), change);
    if (!row) throw endpointNotFound(endpointId);
    return respond(c, "WebhookEndpoint", toWebhookEndpoint(row, c.get("now")()));
  });
