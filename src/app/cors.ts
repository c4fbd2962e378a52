// CORS for /v2: preflights are answered without a key; the version and request id are exposed.
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
      allowHeaders: ["Authorization", "Content-Type", versionHeader(env), merchantKeyHeader(env)],
      exposeHeaders: [
        versionHeader(env),
        "x-request-id",
        // So that a browser client can pace itself and back off.
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
