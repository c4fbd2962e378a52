// CORS for /v2: preflights are answered without a key; a browser may send an Idempotency-Key and
// read the version (and its deprecation), the request id, the replay marker and Retry-After.
//
// The headers go into the request context's prepared headers (`c.header` before the handler), so
// the one response a handler builds carries them. hono/cors sets them on `c.res` before the
// handler instead, which makes Hono create a placeholder response and then copy it into a second
// one when the handler answers: two extra responses per request, for the same headers.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { merchantKeyHeader, versionHeader } from "./headers";

/** `*` (the default) or the comma-separated list's origins. */
function allowedOrigins(setting: string | undefined): "*" | string[] {
  const origins = (setting ?? "*").split(",").map((o) => o.trim());
  return origins.includes("*") ? "*" : origins;
}

const METHODS = ["GET", "POST", "PUT", "DELETE", "OPTIONS"].join(",");
/** Preflights may be cached this long (seconds). */
const MAX_AGE = "600";

function corsMiddleware(env: AppEnv["Bindings"]): MiddlewareHandler<AppEnv> {
  const origins = allowedOrigins(env.CORS_ALLOWED_ORIGINS);
  const allowHeaders = [
    "Authorization",
    "Content-Type",
    versionHeader(env),
    merchantKeyHeader(env),
    "Idempotency-Key",
  ].join(",");
  // A browser client may read the version and whether it is deprecated (RFC 9745, 8594),
  // whether a response is replayed, and pace itself and back off.
  const exposeHeaders = [
    versionHeader(env),
    "x-request-id",
    "Idempotent-Replayed",
    "Deprecation",
    "Sunset",
    "Link",
    "Retry-After",
    "RateLimit-Policy",
    "RateLimit",
  ].join(",");
  return async (c, next) => {
    const origin = c.req.header("origin") ?? "";
    const allowed = origins === "*" ? "*" : origins.includes(origin) ? origin : null;
    if (allowed) c.header("Access-Control-Allow-Origin", allowed);
    c.header("Access-Control-Expose-Headers", exposeHeaders);
    // With a list, the answer depends on the Origin header: caches must key on it.
    if (origins !== "*") c.header("Vary", "Origin", { append: true });
    if (c.req.method === "OPTIONS") {
      c.header("Access-Control-Max-Age", MAX_AGE);
      c.header("Access-Control-Allow-Methods", METHODS);
      c.header("Access-Control-Allow-Headers", allowHeaders);
      c.header("Vary", "Access-Control-Request-Headers", { append: true });
      return new Response(null, { headers: c.res.headers, status: 204, statusText: "No Content" });
    }
    await next();
  };
}

const corsByConfig = new Map<string, MiddlewareHandler<AppEnv>>();

/** The CORS middleware of a configuration, built once per isolate. */
export function corsFor(env: AppEnv["Bindings"]): MiddlewareHandler<AppEnv> {
  const key = `${env.BRAND}|${env.CORS_ALLOWED_ORIGINS}`;
  let handler = corsByConfig.get(key);
  if (!handler) {
    handler = corsMiddleware(env);
    corsByConfig.set(key, handler);
  }
  return handler;
}
