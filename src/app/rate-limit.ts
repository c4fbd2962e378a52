// Rate limits over the Workers Rate Limiting binding, and the 429 that reports them with
// Retry-After and the IETF RateLimit-Policy / RateLimit fields.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Bindings } from "./context";
import { ApiError } from "./errors";

export type LimiterBinding =
  | "PARTNER_KEY_RATE_LIMITER"
  | "AUTH_FAILURE_RATE_LIMITER"
  | "PDF_LINK_RATE_LIMITER"
  | "OPERATOR_RATE_LIMITER";

/** One limit: its binding, the policy name clients see, and the numbers of wrangler.toml. */
export interface RatePolicy {
  binding: LimiterBinding;
  /** The policy item's name in `RateLimit-Policy` and `RateLimit`. */
  name: string;
  limit: number;
  /** Seconds; the binding offers 10 or 60. */
  period: 10 | 60;
}

/**
 * The configured limits. The binding reports only success or failure, so the headers are derived
 * from these numbers; they must equal `[[ratelimits]]` in wrangler.toml (a test compares them).
 */
export const RATE_LIMITS = {
  partnerKey: { binding: "PARTNER_KEY_RATE_LIMITER", name: "api-key", limit: 1000, period: 10 },
  authFailure: {
    binding: "AUTH_FAILURE_RATE_LIMITER",
    name: "failed-authentication",
    limit: 20,
    period: 60,
  },
  pdfLink: { binding: "PDF_LINK_RATE_LIMITER", name: "pdf-link", limit: 300, period: 60 },
  operator: { binding: "OPERATOR_RATE_LIMITER", name: "operator", limit: 600, period: 60 },
} as const satisfies Record<string, RatePolicy>;

/** `"api-key";q=1000;w=10`: the policy as draft-ietf-httpapi-ratelimit-headers writes it. */
export function policyField(policy: RatePolicy): string {
  return `"${policy.name}";q=${policy.limit};w=${policy.period}`;
}

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
 * Clients over the failed-authentication limit, until when (epoch ms). Counting failures after the
 * fact would still answer the next guess; remembering the block lets this isolate refuse further
 * attempts before any credential is checked. Bounded, so hostile traffic cannot grow it.
 */
const blockedClients = new Map<string, number>();
const MAX_BLOCKED_CLIENTS = 10_000;

function block(ip: string, until: number, now: number): void {
  if (blockedClients.size >= MAX_BLOCKED_CLIENTS) {
    for (const [client, expiry] of blockedClients) if (expiry <= now) blockedClients.delete(client);
    // Still full: forget the oldest entries (Map keeps insertion order).
    for (const client of blockedClients.keys()) {
      if (blockedClients.size < MAX_BLOCKED_CLIENTS) break;
      blockedClients.delete(client);
    }
  }
  blockedClients.delete(ip);
  blockedClients.set(ip, until);
}

/** 429 before any credential is checked when this client recently exceeded the failure limit. */
export function refuseBlockedClient(c: Context<AppEnv>): void {
  const ip = clientIp(c);
  const until = blockedClients.get(ip);
  if (until === undefined) return;
  if (until > Date.now()) throw rateLimited(RATE_LIMITS.authFailure);
  blockedClients.delete(ip);
}

/**
 * Records a failed authentication and returns the error to answer: `failure` itself, or a 429
 * once the client has failed too often (and is then refused for a period, whatever it sends).
 */
export async function failedAuthentication(
  c: Context<AppEnv>,
  failure: ApiError,
): Promise<ApiError> {
  const policy = RATE_LIMITS.authFailure;
  const ip = clientIp(c);
  if (await withinLimit(c.env, policy, ip)) return failure;
  const now = Date.now();
  block(ip, now + policy.period * 1000, now);
  return rateLimited(policy);
}
