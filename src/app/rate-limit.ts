// Rate limits over the Workers Rate Limiting binding, and the 429 that reports them with
// Retry-After and the IETF RateLimit-Policy / RateLimit fields.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Bindings } from "./context";
import { ApiError } from "./errors";
import { policyField, RATE_LIMITS, type RatePolicy } from "./rate-policies";

/**
 * The 429 of a policy. The binding does not say when its window ends, so the wait announced is
 * the whole period: an upper bound, never too early.
 */
export function rateLimited(policy: RatePolicy): ApiError {
  const wait = String(policy.period);
  return new ApiError(
    "RATE_LIMITED_ERROR",
    `Too many requests: the limit is ${policy.limit} per ${policy.period} seconds. ` +
      `Retry after ${wait} seconds.`,
    {
      headers: {
        "Retry-After": wait,
        "RateLimit-Policy": policyField(policy),
        RateLimit: `"${policy.name}";r=0;t=${wait}`,
      },
    },
  );
}

/**
 * Counts one request against `policy` for `key`; false once over the limit. A limiter that fails
 * lets the request through: a rate limit protects the service and must not take it down.
 */
export async function withinLimit(
  env: Bindings,
  policy: RatePolicy,
  key: string,
): Promise<boolean> {
  try {
    const { success } = await env[policy.binding].limit({ key });
    return success;
  } catch (err) {
    console.error(JSON.stringify({ rate_limiter: policy.binding, error: String(err) }));
    return true;
  }
}

/** The client's address as Cloudflare reports it (never a client-set header in production). */
export function clientIp(c: Context<AppEnv>): string {
  return c.req.header("cf-connecting-ip") ?? "unknown";
}

/** Limits every request of a surface per client IP. */
export function limitPerClientIp(policy: RatePolicy): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!(await withinLimit(c.env, policy, clientIp(c)))) throw rateLimited(policy);
    await next();
  };
}

/**
 * Records a failed authentication and returns the error to answer: `failure` itself, or a 429
 * while the client is over the failed-authentication limit. Only failures are refused: a valid
 * credential from the same address is never checked against this limit, so one misconfigured job
 * behind a shared address (a NAT, a CI runner, localhost) does not take the working traffic down.
 */
export async function failedAuthentication(
  c: Context<AppEnv>,
  failure: ApiError,
): Promise<ApiError> {
  const policy = RATE_LIMITS.authFailure;
  return (await withinLimit(c.env, policy, clientIp(c))) ? failure : rateLimited(policy);
}

/**
 * The partner (and environment) of each key this isolate has authenticated: a key's partner never
 * changes, so it lets the partner's count start alongside the key lookup. Bounded; the oldest
 * entries go first.
 */
const partnerOfKey = new Map<string, string>();
const MAX_REMEMBERED_KEYS = 10_000;

function rememberPartner(keyHash: string, partner: string): void {
  if (partnerOfKey.has(keyHash)) return;
  const oldest = partnerOfKey.keys().next();
  if (partnerOfKey.size >= MAX_REMEMBERED_KEYS && !oldest.done) partnerOfKey.delete(oldest.value);
  partnerOfKey.set(keyHash, partner);
}

/**
 * Starts counting a `/v2` request against its key's limit and its partner's, before the key is
 * looked up; call the answer with the key's partner (`partner:environment`) once known. It
 * resolves to the policy the request is over, or null. For a key seen before, both counts run
 * alongside the lookup; for a new one the partner's starts just after it.
 */
export function startApiLimits(
  env: Bindings,
  keyHash: string,
): (partner: string) => Promise<RatePolicy | null> {
  const key = withinLimit(env, RATE_LIMITS.partnerKey, keyHash);
  const remembered = partnerOfKey.get(keyHash);
  const early =
    remembered === undefined ? undefined : withinLimit(env, RATE_LIMITS.partner, remembered);
  return async (partner) => {
    rememberPartner(keyHash, partner);
    const ofPartner =
      early && remembered === partner ? early : withinLimit(env, RATE_LIMITS.partner, partner);
    const [keyOk, partnerOk] = await Promise.all([key, ofPartner]);
    if (!keyOk) return RATE_LIMITS.partnerKey;
    return partnerOk ? null : RATE_LIMITS.partner;
  };
}
