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
  ALL_EVENTS,
  type EndpointFields,
  generateEndpointId,
  MAX_ENDPOINTS,
  toWebhookEndpoint,
  type WebhookEndpoint,
} from "../domain/webhook-endpoint";
import { normaliseWebhookUrl } from "../domain/webhook-url";
import { eventTypesOf, storedFilter, unknownEventTypes } from "../events";
import { deliveryConfig } from "./delivery-config";
import { budgetSpent } from "./endpoint-budget";
import { findEndpoint } from "./endpoint-reads";
import {
  type EndpointChange,
  type EndpointUpdate,
  enableEndpoint,
  endpointInScope,
  endpointInsert,
  rollEndpointSecret,
  updateEndpoint,
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

/**
 * Enables the endpoint (see `enableEndpoint`): 404 outside the scope, 429 once its hourly budget
 * of enables is spent. Answers the endpoint as it now reads.
 */
export async function enableWithinBudget(
  c: Context<AppEnv>,
  change: EndpointChange,
): Promise<EndpointFields> {
  const outcome = await enableEndpoint(c.get("db"), change);
  if (outcome.kind === "not_found") throw endpointNotFound(change.endpointId);
  if (outcome.kind === "budget_spent") {
    throw budgetSpent(change.endpointId, "enable", outcome.wait);
  }
  return outcome.endpoint;
}

/** How an endpoint's reads are shaped at this request's moment. */
export function readContext(c: Context<AppEnv>) {
  return {
    now: c.get("now")(),
    disableAfterSeconds: deliveryConfig(c.env).disableAfterSeconds,
  };
}

/**
 * The types an endpoint of `version` is asked to take: null for every type (absent, or `["*"]`),
 * else the list without repeats; 400 naming each type that version does not have.
 */
export function enabledEventsOf(
  c: Context<AppEnv>,
  version: string,
  requested: readonly string[] | undefined,
): string[] | null {
  if (requested === undefined) return null;
  if (requested.includes(ALL_EVENTS)) {
    if (requested.every((type) => type === ALL_EVENTS)) return null;
    throw invalidRequest(
      ['enabled_events: "*" stands for every type; send it alone, or list the types'],
      "enabled_events",
    );
  }
  const bundle = c.get("bundle");
  const unknown = unknownEventTypes(bundle, version, requested);
  if (unknown.length > 0) {
    const known = eventTypesOf(bundle, version).map((entry) => entry.type);
    throw invalidRequest(
      unknown.map(
        (type) =>
          `enabled_events: ${JSON.stringify(type.slice(0, 64))} is not an event type of API ` +
          `version ${version}; its types are ${known.join(", ")}`,
      ),
      "enabled_events",
    );
  }
  return [...new Set(requested)];
}

/** The URL as stored (its normalised form); 400 for one the webhook URL rules refuse. */
function checkUrl(c: Context<AppEnv>, url: string): string {
  const checked = normaliseWebhookUrl(url, {
    allowLoopback: c.env.WEBHOOK_ALLOW_LOOPBACK === "true",
  });
  if (checked.problem !== undefined) throw invalidRequest([checked.problem], "url");
  return checked.url;
}

export interface NewEndpoint {
  scope: EndpointScope;
  url: string;
  description: string | null;
  apiVersion: string;
  /** The event types it takes, as `apiVersion` names them; absent: every type. */
  enabledEvents?: readonly string[] | undefined;
  actor: Actor;
}

/** A new endpoint with a new secret; 400 for a URL, version or count the rules refuse. */
export async function prepareEndpoint(
  c: Context<AppEnv>,
  input: NewEndpoint,
): Promise<PreparedChange> {
  const { scope, apiVersion } = input;
  const url = checkUrl(c, input.url);
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
  const filter = storedFilter(
    bundle,
    apiVersion,
    enabledEventsOf(c, apiVersion, input.enabledEvents),
  );
  const db = c.get("db");
  const ctx = readContext(c);
  const { now } = ctx;
  const endpointId = generateEndpointId();
  const secret = generateWebhookSecret();
  const sealed = await secretSealerOf(c.env).seal(secret, endpointId);
  const row = {
    endpointId,
    ...scope,
    url,
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
    failureStreak: 0,
    healthNotice: 0,
    ...filter,
    throttleSecond: null,
    throttleUsed: 0,
    admittedSecond: null,
    admittedCount: 0,
    budgetSince: null,
    budgetRecoveries: 0,
    budgetResends: 0,
    budgetEnables: 0,
    recoveryStartedAt: null,
    recoverySince: null,
    recoveryUntil: null,
    createdAt: now.toISOString(),
  };
  return {
    endpoint: toWebhookEndpoint({ ...row, recent: { attempts: 0, succeeded: 0 } }, ctx, secret),
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
  const ctx = readContext(c);
  const { now } = ctx;
  const current = await findEndpoint(db, scope, endpointId, now);
  if (!current) throw endpointNotFound(endpointId);
  const previousExpiresAt = new Date(now.getTime() + input.keepForSeconds * 1000).toISOString();
  const secret = generateWebhookSecret();
  const sealed = await secretSealerOf(c.env).seal(secret, endpointId);
  const rolled = { ...current, previousSecretExpiresAt: previousExpiresAt };
  return {
    endpoint: toWebhookEndpoint(rolled, ctx, secret),
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

export interface EndpointChanges {
  scope: EndpointScope;
  endpointId: string;
  url?: string | undefined;
  /** An empty string removes it. */
  description?: string | undefined;
  enabledEvents?: readonly string[] | undefined;
  actor: Actor;
}

/**
 * The endpoint with the fields given changed (a URL by the URL rules, event types of its own
 * version); 404 when it is not in the scope. Fields not given keep their values.
 */
export async function prepareUpdate(
  c: Context<AppEnv>,
  input: EndpointChanges,
): Promise<PreparedChange> {
  const { scope, endpointId } = input;
  const db = c.get("db");
  const ctx = readContext(c);
  const current = await findEndpoint(db, scope, endpointId, ctx.now);
  if (!current) throw endpointNotFound(endpointId);
  const update: EndpointUpdate = {};
  if (input.url !== undefined) {
    update.url = checkUrl(c, input.url);
  }
  if (input.description !== undefined) {
    update.description = input.description === "" ? null : input.description;
  }
  if (input.enabledEvents !== undefined) {
    const version = current.apiVersion;
    update.filter = storedFilter(
      c.get("bundle"),
      version,
      enabledEventsOf(c, version, input.enabledEvents),
    );
  }
  const updated = {
    ...current,
    ...(update.url === undefined ? {} : { url: update.url }),
    ...(update.description === undefined ? {} : { description: update.description }),
    ...(update.filter === undefined ? {} : { enabledEvents: update.filter.enabledEvents }),
  };
  return {
    endpoint: toWebhookEndpoint(updated, ctx),
    stored: endpointInScope(scope, endpointId),
    commit: async (alongside = []) => {
      const change = { scope, endpointId, actor: input.actor, now: ctx.now, update };
      if (!(await updateEndpoint(db, change, alongside))) throw endpointNotFound(endpointId);
    },
  };
}
