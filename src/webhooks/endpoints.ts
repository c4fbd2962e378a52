// Creating a webhook endpoint and rolling its secret, for the API and the dashboard alike: the
// same rules (URL policy, versions offered, the per-product limit), the same secrets (stored
// sealed), the same writes with their audit row. Each is prepared first, answering the endpoint as it will read,
// then committed, so that the API can store its idempotent response in the same batch.
import type { SQL } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv, Bindings } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { atomically, type Query } from "../db/batch";
import type { ReadScope } from "../db/customers";
import type { Actor } from "../domain/audit";
import type { Environment } from "../domain/environment";
import {
  generateEndpointId,
  MAX_ENDPOINTS,
  toWebhookEndpoint,
  type WebhookEndpoint,
} from "../domain/webhook-endpoint";
import { webhookUrlProblem } from "../domain/webhook-url";
import {
  endpointInScope,
  endpointInsert,
  findEndpoint,
  rollEndpointSecret,
} from "./endpoint-store";
import { createSecretSealer, type SecretSealer } from "./secret-sealing";
import { generateWebhookSecret } from "./webhook-signature";

/** The partner, environment and product an endpoint belongs to. */
export type EndpointScope = ReadScope & { environment: Environment };

/** A change worked out but not yet stored: the endpoint as it will read, and the write. */
export interface PreparedChange {
  endpoint: WebhookEndpoint;
  /** SQL true once the change is stored: what is stored alongside it is gated on it. */
  stored: SQL;
  /** Stores the change, with `alongside` in the same atomic batch. */
  commit(alongside?: Query[]): Promise<void>;
}

/** What seals and opens endpoint secrets: the deployment's SIGNING_SECRET (and previous one). */
export function secretSealerOf(env: Bindings): SecretSealer {
  return createSecretSealer(env.SIGNING_SECRET ?? "", env.SIGNING_SECRET_PREVIOUS);
}

function tooManyEndpoints(): ApiError {
  return invalidRequest(
    [`A product has at most ${MAX_ENDPOINTS} webhook endpoints per environment.`],
    "url",
  );
}

/** 404 for an endpoint outside the caller's partner, environment and product, or none at all. */
export function endpointNotFound(endpointId: string): ApiError {
  return new ApiError(
    "NOT_FOUND_ERROR",
    `No such webhook endpoint: ${JSON.stringify(endpointId.slice(0, 64))}`,
    { param: "webhook_endpoint_id" },
  );
}

export interface NewEndpoint {
  scope: EndpointScope;
  url: string;
  description: string | null;
  apiVersion: string;
  actor: Actor;
}

/** A new endpoint with a new secret; 400 for a URL, version or count the rules refuse. */
export async function prepareEndpoint(
  c: Context<AppEnv>,
  input: NewEndpoint,
): Promise<PreparedChange> {
  const { scope, apiVersion } = input;
  const problem = webhookUrlProblem(input.url, {
    allowLoopback: c.env.WEBHOOK_ALLOW_LOOPBACK === "true",
  });
  if (problem) throw invalidRequest([problem], "url");
  const bundle = c.get("bundle");
  if (!bundle.isSupported(apiVersion, scope.environment)) {
    throw invalidRequest(
      [
        `api_version ${JSON.stringify(apiVersion.slice(0, 64))} is not offered in ` +
          `${scope.environment}; supported: ${bundle.supported(scope.environment).join(", ")}`,
      ],
      "api_version",
    );
  }
  const db = c.get("db");
  const now = c.get("now")();
  const endpointId = generateEndpointId();
  const secret = generateWebhookSecret();
  const sealed = await secretSealerOf(c.env).seal(secret, endpointId);
  const row = {
    endpointId,
    ...scope,
    url: input.url,
    description: input.description,
    apiVersion,
    apiOrigin: new URL(c.req.url).origin,
    secret: sealed.sealed,
    secretKeyId: sealed.keyId,
    previousSecret: null,
    previousSecretKeyId: null,
    previousSecretExpiresAt: null,
    status: "enabled" as const,
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
    createdAt: now.toISOString(),
  };
  return {
    endpoint: toWebhookEndpoint(row, now, secret),
    stored: endpointInScope(scope, endpointId),
    commit: async (alongside = []) => {
      // The product's limit is a condition of the insert itself: racing creations cannot pass it.
      const [inserted] = await atomically(db, [
        ...endpointInsert(row, input.actor, now),
        ...alongside,
      ]);
      if (inserted?.meta.changes !== 1) throw tooManyEndpoints();
    },
  };
}

export interface SecretRoll {
  scope: EndpointScope;
  endpointId: string;
  /** Seconds the replaced secret keeps signing beside the new one. */
  keepForSeconds: number;
  actor: Actor;
}

/** A new secret for the endpoint; 404 when it is not in the scope. */
export async function prepareSecretRoll(
  c: Context<AppEnv>,
  input: SecretRoll,
): Promise<PreparedChange> {
  const { scope, endpointId } = input;
  const db = c.get("db");
  const current = await findEndpoint(db, scope, endpointId);
  if (!current) throw endpointNotFound(endpointId);
  const now = c.get("now")();
  const previousExpiresAt = new Date(now.getTime() + input.keepForSeconds * 1000).toISOString();
  const secret = generateWebhookSecret();
  const sealed = await secretSealerOf(c.env).seal(secret, endpointId);
  const rolled = { ...current, previousSecretExpiresAt: previousExpiresAt };
  return {
    endpoint: toWebhookEndpoint(rolled, now, secret),
    stored: endpointInScope(scope, endpointId),
    commit: async (alongside = []) => {
      const change = {
        scope,
        endpointId,
        actor: input.actor,
        now,
        secret: sealed,
        previousExpiresAt,
      };
      if (!(await rollEndpointSecret(db, change, alongside))) throw endpointNotFound(endpointId);
    },
  };
}
