// CORS for /v2: preflights are answered without a key; a browser may send an Idempotency-Key and
// read the version (and its deprecation), the request id, the replay marker and Retry-After.
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "./context";
import { merchantKeyHeader, versionHeader } from "./headers";

/** `*` (the default) or a comma-separated list of origins. */
function allowedOrigins(setting: string | undefined): string | string[] {
  const origins = (setting ?? "*").split(",").map((o) => o.trim());
  return origins.includes("*") ? "*" : origins;
}

const corsByConfig = new Map<string, MiddlewareHandler>();

/** The CORS middleware of a configuration, built once per isolate. */
export function corsFor(env: AppEnv["Bindings"]): MiddlewareHandler {
  const key = `${env.BRAND}|${env.CORS_ALLOWED_ORIGINS}`;
  let handler = corsByConfig.get(key);
  if (!handler) {
    handler = cors({
      origin: allowedOrigins(env.CORS_ALLOWED_ORIGINS),
      allowMethods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
      allowHeaders: [
        "Authorization",
        "Content-Type",
        versionHeader(env),
        merchantKeyHeader(env),
        "Idempotency-Key",
      ],
      // A browser client may read the version and whether it is deprecated (RFC 9745, 8594),
      // whether a response is replayed, and pace itself and back off.
      exposeHeaders: [
        versionHeader(env),
        "x-request-id",
        "Idempotent-Replayed",
        "Deprecation",
        "Sunset",
        "Link",
        "Retry-After",
        "RateLimit-Policy",
        "RateLimit",
      ],
      maxAge: 600,
    });
    corsByConfig.set(key, handler);
  }
  return handler;
}
