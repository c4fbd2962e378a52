// Headers every response carries, set in one place: no MIME sniffing anywhere, and no caching of
// anything a credential unlocked.
import type { Context } from "hono";
import type { AppEnv } from "./context";

/**
 * Surfaces whose JSON is unlocked by a credential (an API key, the operator token, a signed link):
 * it may hold a key's plaintext or a page of one-hour links, so no cache may keep it.
 */
const CREDENTIALED = /^\/(v2|operator|files)\//;

/** Sets them on the response the request answered (request-context.ts calls it last). */
export function setSecurityHeaders(c: Context<AppEnv>): void {
  try {
    c.res.headers.set("X-Content-Type-Options", "nosniff");
  } catch {
    // A response passed through from a binding (static assets, a fetch) has immutable headers.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("X-Content-Type-Options", "nosniff");
  }
  const type = c.res.headers.get("content-type") ?? "";
  if (CREDENTIALED.test(c.req.path) && type.startsWith("application/json")) {
    c.res.headers.set("Cache-Control", "no-store");
  }
}
