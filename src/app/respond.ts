// Rendering: canonical bodies go through the version chain of the request's version, then out;
// and the one renderer of errors.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isLeaseLost } from "../db/idempotency";
import { ShardsUnavailableError } from "../db/shards";
import { isPartnerMoving, isStorageOutage } from "../db/storage";
import type { JsonValue } from "../versioning";
import type { AppEnv } from "./context";
import { ApiError, partnerMoving } from "./errors";
import { keyInUse } from "./idempotency";

/** What the version modules make of a canonical body, for the request's version. */
export function shape(
  c: Context<AppEnv>,
  /** The response body's schema name, or `Error`. */
  resource: string,
  body: JsonValue,
  status: ContentfulStatusCode = 200,
): JsonValue {
  const version = c.get("version");
  if (!version) return body;
  return c.get("bundle").transform(version, resource, body, responseContext(c, status));
}

/** What a transformer may know of the response being built. */
function responseContext(c: Context<AppEnv>, status: number) {
  return { path: c.req.path, status, timestamp: c.get("now")().toISOString() };
}

/**
 * What any thrown error answers: an ApiError as it is, a storage outage as 503 with Retry-After,
 * anything else as 500 without internals. Outages and unexpected errors are logged here.
 */
export function toApiError(err: Error, c: Context<AppEnv>): ApiError {
  let apiError: ApiError;
  if (err instanceof ApiError) {
    apiError = err;
  } else if (isLeaseLost(err)) {
    apiError = keyInUse(
      "A retry of this request took its Idempotency-Key over while it ran, and nothing was done " +
        "here; retry to get that request's response.",
    );
  } else if (isPartnerMoving(err)) {
    apiError = partnerMoving();
  } else if (err instanceof ShardsUnavailableError) {
    // Only the operator's reads across partners fan out: they answer whole or not at all.
    apiError = new ApiError(
      "SERVICE_UNAVAILABLE_ERROR",
      `Shard ${err.shards.join(", ")} could not be read, so the answer would be incomplete; ` +
        `retry shortly (request ${c.get("requestId")}).`,
      { headers: { "Retry-After": "1" }, details: err.shards.map((s) => `shard ${s}`) },
    );
  } else if (isStorageOutage(err)) {
    apiError = new ApiError(
      "SERVICE_UNAVAILABLE_ERROR",
      `Storage is temporarily unavailable; retry shortly (request ${c.get("requestId")}).`,
      { headers: { "Retry-After": "1" } },
    );
  } else {
    apiError = new ApiError(
      "INTERNAL_ERROR",
      `An unexpected error occurred (request ${c.get("requestId")}).`,
    );
  }
  if (apiError.status === 500 || apiError.status === 503) {
    console.error(JSON.stringify({ request_id: c.get("requestId"), error: String(err) }));
  }
  return apiError;
}

/** The single error renderer (`app.onError`): the error's body in the request's version. */
export function renderError(err: Error, c: Context<AppEnv>): Response {
  const apiError = toApiError(err, c);
  c.set("apiError", apiError);
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  return c.json(shape(c, "Error", apiError.toBody(), apiError.status), apiError.status);
}
