// /v2/webhook_endpoints: where a product's statement events are pushed, per environment.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { storeWithEffect } from "../app/idempotency";
import { respond, sendShaped, shape } from "../app/respond";
import { readScopeOf } from "../db/customer-queries";
import {
  countEndpoints,
  deleteEndpoint,
  enableEndpoint,
  findEndpoint,
  insertEndpoint,
  readEndpointPage,
  rollSecretWrite,
} from "../db/webhook-endpoints";
import {
  DEFAULT_PREVIOUS_SECRET_SECONDS,
  generateEndpointId,
  MAX_ENDPOINTS,
  toWebhookEndpoint,
} from "../domain/webhook-endpoint";
import { generateWebhookSecret } from "../domain/webhook-signature";
import { webhookUrlProblem } from "../domain/webhook-url";
import { idPage, parseIdPage } from "./list-params";
import { readRequest } from "./request-body";

const BASE = "/v2/webhook_endpoints";
const ONE = `${BASE}/:webhook_endpoint_id`;

/** 404 for an endpoint outside the caller's partner, environment and product, or none at all. */
export function endpointNotFound(endpointId: string): ApiError {
  return new ApiError(
    "NOT_FOUND_ERROR",
    `No such webhook endpoint: ${JSON.stringify(endpointId.slice(0, 64))}`,
    { param: "webhook_endpoint_id" },
  );
}

export const webhookEndpointRoutes = new Hono<AppEnv>()
  .post(BASE, async (c) => {
    const body = await readRequest(c, "CreateWebhookEndpointRequest");
    const problem = webhookUrlProblem(body.url, {
      allowLoopback: c.env.WEBHOOK_ALLOW_LOOPBACK === "true",
    });
    if (problem) throw invalidRequest([problem], "url");
    const caller = c.get("caller");
    const apiVersion = body.api_version ?? c.get("version");
    const bundle = c.get("bundle");
    if (!bundle.isSupported(apiVersion, caller.environment)) {
      throw invalidRequest(
        [
          `api_version ${JSON.stringify(apiVersion.slice(0, 64))} is not offered to this key; ` +
            `supported: ${bundle.supported(caller.environment).join(", ")}`,
        ],
        "api_version",
      );
    }
    const scope = readScopeOf(caller, c.get("merchantKey"));
    const db = c.get("db");
    if ((await countEndpoints(db, scope)) >= MAX_ENDPOINTS) {
      throw invalidRequest(
        [`A product has at most ${MAX_ENDPOINTS} webhook endpoints per environment.`],
        "url",
      );
    }
    const now = c.get("now")();
    const row = {
      endpointId: generateEndpointId(),
      ...scope,
      environment: caller.environment,
      url: body.url,
      description: body.description ?? null,
      apiVersion,
      apiOrigin: new URL(c.req.url).origin,
      secret: generateWebhookSecret(),
      previousSecret: null,
      previousSecretExpiresAt: null,
      status: "enabled" as const,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      createdAt: now.toISOString(),
    };
    const shaped = shape(c, "WebhookEndpoint", toWebhookEndpoint(row, now, row.secret), 201);
    await db.batch([insertEndpoint(db, row), ...(await storeWithEffect(c, 201, shaped))]);
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
    if (!(await deleteEndpoint(c.get("db"), scope, endpointId))) {
      throw endpointNotFound(endpointId);
    }
    return c.body(null, 204);
  })

  .post(`${ONE}/roll_secret`, async (c) => {
    const endpointId = c.req.param("webhook_endpoint_id");
    const body = await readRequest(c, "RollWebhookEndpointSecretRequest", { allowEmpty: true });
    const scope = readScopeOf(c.get("caller"), c.get("merchantKey"));
    const db = c.get("db");
    const current = await findEndpoint(db, scope, endpointId);
    if (!current) throw endpointNotFound(endpointId);
    const now = c.get("now")();
    const keepFor = body.previous_secret_expires_in ?? DEFAULT_PREVIOUS_SECRET_SECONDS;
    const previousExpiresAt = new Date(now.getTime() + keepFor * 1000).toISOString();
    const secret = generateWebhookSecret();
    const roll = rollSecretWrite(db, scope, endpointId, secret, previousExpiresAt);
    // The response is known before the write (the endpoint as it will read, with the new
    // secret), so it is stored in the same batch as the roll: a retry never rolls twice.
    const rolled = { ...current, previousSecretExpiresAt: previousExpiresAt };
    const shaped = shape(c, "WebhookEndpoint", toWebhookEndpoint(rolled, now, secret));
    const [updated] = await db.batch([roll, ...(await storeWithEffect(c, 200, shaped))]);
    if (updated.length === 0) throw endpointNotFound(endpointId);
    return sendShaped(c, shaped, 200);
  })

  .post(`${ONE}/enable`, async (c) => {
    const endpointId = c.req.param("webhook_endpoint_id");
    const scope = readScopeOf(c.get("caller"), c.get("merchantKey"));
    const row = await enableEndpoint(c.get("db"), scope, endpointId);
    if (!row) throw endpointNotFound(endpointId);
    return respond(c, "WebhookEndpoint", toWebhookEndpoint(row, c.get("now")()));
  });
