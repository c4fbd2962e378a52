// The /v2 request pipeline's steps. Each is a plain function of the request's context that throws
// the ApiError it answers; `partnerRoute` (app/route.ts) runs them, and is the one place their
// order is written.
import type { Context } from "hono";
import { readScopeOf } from "../db/customers";
import { findCaller } from "../db/key-lookup";
import { shardBinding } from "../db/shards";
import { hashApiKey, parseApiKey } from "../domain/api-keys";
import type { Environment } from "../domain/environment";
import type { Scope } from "../domain/scopes";
import type { AppEnv } from "./context";
import { ApiError, partnerMoving, routeNotFound } from "./errors";
import { merchantKeyHeader, versionHeader } from "./headers";
import { recordKeyUse } from "./key-use";
import { usePartnerDatabase } from "./partner-database";
import { failedAuthentication, rateLimited, startApiLimits } from "./rate-limit";
import { API_POLICIES } from "./rate-policies";
import { markVersion } from "./version-headers";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** 401, the same for every cause: missing, malformed, unknown, revoked or expired key. */
export const unauthorized = () =>
  new ApiError(
    "UNAUTHORIZED_ERROR",
    "Missing or invalid API key. Send it as the HTTP Basic username or as a Bearer token.",
    {
      headers: {
        "WWW-Authenticate": 'Basic realm="api", charset="UTF-8", Bearer realm="api"',
      },
    },
  );

/** The API key of an `Authorization` header (Basic username or Bearer token), if any. */
function keyFromAuthorization(header: string | undefined): string | null {
  const match = /^([A-Za-z]+) +([^ ]+) *$/.exec(header ?? "");
  if (!match) return null;
  const [, scheme = "", credentials = ""] = match;
  if (scheme.toLowerCase() === "bearer") return credentials;
  if (scheme.toLowerCase() !== "basic") return null;
  let decoded: string;
  try {
    decoded = atob(credentials);
  } catch {
    return null;
  }
  // The key is the username; a password, if any, is ignored.
  const colon = decoded.indexOf(":");
  return colon === -1 ? decoded : decoded.slice(0, colon);
}

/**
 * 401 for every failure cause alike; a key with a bad checksum never reaches storage. A client
 * address that fails too often gets 429 for its failures instead, while a valid key from it is
 * served as any other. The key's and its partner's rate limits are counted alongside the lookup
 * and enforced once the version is known (`enforceRateLimits`), so that a 429 speaks the
 * request's version.
 */
export async function authenticate(c: Context<AppEnv>): Promise<void> {
  const key = keyFromAuthorization(c.req.header("authorization"));
  const claim = key === null ? null : parseApiKey(key);
  if (key === null || claim === null) throw await failedAuthentication(c, unauthorized());
  const keyHash = await hashApiKey(key);
  const limits = startApiLimits(c.env, keyHash);
  const now = c.get("now")();
  // The key's shard code picks the database; the unchanged lookup runs there.
  const found = await findCaller(c.get("shards"), claim.shard, keyHash, now, c.get("readAhead"));
  if (!found || found.caller.environment !== claim.environment) {
    throw await failedAuthentication(c, unauthorized());
  }
  const { caller, readAhead } = found;
  usePartnerDatabase(c, found.db, caller.shard);
  c.set("caller", caller);
  c.get("onAuthenticated")?.();
  c.set("overLimit", limits(`${caller.partnerId}:${caller.environment}`));
  recordKeyUse(c, caller, now);
  if (c.get("readAhead")) c.set("readAheadResults", readAhead);
}

/**
 * 503 with Retry-After, in the request's version, for a write while the partner is being moved to
 * another shard (its data is frozen until the move switches over); reads are served throughout.
 */
export function pauseWritesWhileMoving(c: Context<AppEnv>): void {
  if (c.get("caller").moving && !SAFE_METHODS.has(c.req.method)) throw partnerMoving();
}

/**
 * 429 in the request's version once the key, or its partner, is over its limit; the policies on
 * every answer.
 */
export async function enforceRateLimits(c: Context<AppEnv>): Promise<void> {
  const over = await c.get("overLimit");
  if (over) throw rateLimited(over);
  c.header("RateLimit-Policy", API_POLICIES);
}

/**
 * The header's version, else the partner's saved one; from here on every response names it (and,
 * for a deprecated version, says so), and the request counts towards the version's usage.
 */
export function resolveVersion(c: Context<AppEnv>): void {
  const caller = c.get("caller");
  const bundle = c.get("bundle");
  const header = versionHeader(c.env);
  const requested = c.req.header(header);
  const version = requested ?? caller.savedVersion;
  if (!bundle.isSupported(version, caller.environment)) {
    const shown = JSON.stringify(version.slice(0, 64));
    const supported = bundle.supported(caller.environment).join(", ");
    throw new ApiError(
      "BAD_REQUEST_ERROR",
      `Unsupported ${header} value ${shown}. Supported versions: ${supported}.`,
      { param: header },
    );
  }
  c.set("version", version);
  markVersion(c, version);
  c.get("versionUsage").record(
    {
      version,
      partnerId: caller.partnerId,
      environment: caller.environment,
      shard: caller.shard,
      now: c.get("now")(),
    },
    {
      shard: (code) => shardBinding(c.env, code),
      waitUntil: (write) => c.executionCtx.waitUntil(write),
    },
  );
}

/**
 * 404, exactly as for an unknown route, when the request's version does not have the route, or
 * the key's environment may not call it.
 */
export function requireRouteInVersion(
  c: Context<AppEnv>,
  route: { method: string; path: string; environments: readonly Environment[] },
): void {
  if (
    !route.environments.includes(c.get("caller").environment) ||
    !c.get("bundle").routeExists(c.get("version"), route.method, route.path)
  ) {
    throw routeNotFound(c.req.method, c.req.path);
  }
}

/** 403 unless the key carries `scope`. */
export function requireScope(c: Context<AppEnv>, scope: Scope): void {
  if (!c.get("caller").scopes.includes(scope)) {
    throw new ApiError("FORBIDDEN_ERROR", "forbidden");
  }
}

/** Picks the product a customer-scoped request reads, by the merchant-key header rules. */
export function resolveProduct(c: Context<AppEnv>): void {
  const { merchantKeys } = c.get("caller");
  const header = merchantKeyHeader(c.env);
  const sent = c.req.header(header);
  let merchantKey: string;
  if (sent !== undefined) {
    if (!merchantKeys.includes(sent)) {
      throw new ApiError(
        "BAD_REQUEST_ERROR",
        `The ${header} header does not name one of your products.`,
        {
          param: header,
        },
      );
    }
    merchantKey = sent;
  } else if (merchantKeys.length > 1) {
    throw new ApiError(
      "BAD_REQUEST_ERROR",
      `You have several products: send the ${header} header to choose one.`,
      { param: header },
    );
  } else {
    // No product at all means no customers either: every read is simply not found.
    merchantKey = merchantKeys[0] ?? "";
  }
  c.set("merchantKey", merchantKey);
}

/** Where a customer-scoped request reads: the caller's partner and environment, its product. */
export function readScope(c: Context<AppEnv>) {
  return readScopeOf(c.get("caller"), c.get("merchantKey"));
}
