// Outermost middleware: the app's bundle and usage counters, request id, per-request dependencies;
// then, once the answer is final (an error's rendered included), the record of a partner API
// request for the request log, the security headers, and one JSON log line per request.
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { newQueryStats } from "../db/client";
import { openShards } from "../db/shards";
import { isRequestId } from "../domain/request-log";
import { signerFor } from "../domain/signing";
import type { VersionBundle } from "../versioning";
import type { AppEnv } from "./context";
import { versionHeader } from "./headers";
import { setSecurityHeaders } from "./security-headers";
import type { VersionUsage } from "./version-usage";

/**
 * The request's origin (`https://host[:port]`), cut from its URL, which the runtime serialises with
 * the scheme and host in lower case and no default port: what `new URL(url).origin` says,
 * without parsing the URL again.
 */
export function requestOrigin(c: Context<AppEnv>): string {
  const url = c.req.url;
  const start = url.indexOf("//") + 2;
  const end = url.indexOf("/", start);
  const origin = end === -1 ? url : url.slice(0, end);
  // Credentials in the URL (the runtime never puts any there) are not part of an origin.
  return origin.includes("@", start) ? new URL(url).origin : origin;
}

/**
 * The path and query (`?…`, or "" without one) of a request URL as `new URL(url)` reads them,
 * cut from the URL the runtime serialised instead of parsing it again.
 */
export function pathAndQuery(url: string): { pathname: string; search: string } {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1 || url.includes("#")) {
    const { pathname, search } = new URL(url);
    return { pathname, search };
  }
  const query = url.indexOf("?", start);
  if (query === -1) return { pathname: url.slice(start), search: "" };
  // An empty query (a bare `?`) has no search, as the URL standard reads it.
  const search = query === url.length - 1 ? "" : url.slice(query);
  return { pathname: url.slice(start, query), search };
}

/** The route pattern that answered, for logs (never the raw path, which may carry ids). */
export function routeOf(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  const handlers = matchedRoutes(c).filter((r) => r.method !== "ALL" && r.path !== "/*");
  return handlers.at(-1)?.path ?? "(unmatched)";
}

/**
 * Records a request once its response is built (the request log): called before the request is
 * handled, it answers what to call with the response (and the milliseconds since the request
 * began), or null when this request is not recorded.
 */
export type RequestRecorder = (
  c: Context<AppEnv>,
) => ((response: Response, route: string, elapsedMs: number) => void) | null;

/**
 * The middleware of an app serving `bundle`, counting its requests in `versionUsage`, and handing
 * each response to `record`, which keeps those of partner API requests (their key authenticated).
 */
export function requestContext(
  bundle: VersionBundle,
  versionUsage: VersionUsage,
  record?: RequestRecorder,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    c.set("bundle", bundle);
    c.set("versionUsage", versionUsage);
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && isRequestId(incoming) ? incoming : crypto.randomUUID();
    const stats = newQueryStats();
    c.set("requestId", requestId);
    // Nothing is opened yet: the pipeline opens the partner's shard once it knows it.
    c.set("shards", openShards(c.env, stats));
    c.set("queryStats", stats);
    c.set("signer", signerFor(c.env.SIGNING_SECRET ?? "", c.env.SIGNING_SECRET_PREVIOUS));
    c.set("now", () => new Date());
    const recorded = record ? record(c) : null;

    await next();

    const route = routeOf(c);
    const elapsedMs = performance.now() - started;
    recorded?.(c.res, route, elapsedMs);
    setSecurityHeaders(c);
    c.res.headers.set("x-request-id", requestId);
    console.log(
      JSON.stringify({
        request_id: requestId,
        method: c.req.method,
        route,
        status: c.res.status,
        version: c.res.headers.get(versionHeader(c.env)) ?? undefined,
        key_id: c.get("caller")?.keyId,
        shard: c.get("shard"),
        duration_ms: Math.round(elapsedMs * 100) / 100,
        d1_queries: stats.roundTrips,
        d1_rows_read: stats.rowsRead,
        d1_rows_written: stats.rowsWritten,
        d1_longest_ms: Math.round(stats.longestMs * 100) / 100,
        d1_sql_ms: Math.round(stats.sqlMs * 1000) / 1000,
        d1_replica_trips: stats.replicaTrips,
        d1_bookmark: stats.bookmark ?? undefined,
        d1_deferred_writes: stats.deferredWrites,
      }),
    );
  };
}
