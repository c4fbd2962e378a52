// One error type for the whole service, rendered by one handler (see app/respond.ts).
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ERROR_TYPES } from "../canonical/schemas";
import { MAX_LIVE_KEYS } from "../domain/key-record";

/**
 * Every error type the service emits, in its canonical (newest) form: the list the reference
 * documents (canonical/schemas.ts), so the two cannot differ.
 */
export type ErrorType = (typeof ERROR_TYPES)[number];

/** Maps an error type to its HTTP status; exhaustive, so a new type cannot ship without one. */
export function statusOf(type: ErrorType): ContentfulStatusCode {
  switch (type) {
    case "UNAUTHORIZED_ERROR":
      return 401;
    case "BAD_REQUEST_ERROR":
    case "INVALID_REQUEST_ERROR":
      return 400;
    case "FORBIDDEN_ERROR":
      return 403;
    case "NOT_FOUND_ERROR":
    case "CUSTOMER_NOT_FOUND_ERROR":
    case "ACCOUNT_NOT_FOUND_ERROR":
    case "STATEMENT_NOT_FOUND_ERROR":
    case "PAYMENT_METHOD_NOT_FOUND_ERROR":
      return 404;
    case "CONFLICT_ERROR":
    case "IDEMPOTENCY_KEY_IN_USE_ERROR":
      return 409;
    case "IDEMPOTENCY_KEY_REUSED_ERROR":
      return 422;
    case "PRECONDITION_FAILED_ERROR":
      return 412;
    case "PAYLOAD_TOO_LARGE_ERROR":
      return 413;
    case "UNSUPPORTED_MEDIA_TYPE_ERROR":
      return 415;
    case "RANGE_NOT_SATISFIABLE_ERROR":
      return 416;
    case "RATE_LIMITED_ERROR":
      return 429;
    case "INTERNAL_ERROR":
      return 500;
    case "NOT_IMPLEMENTED_ERROR":
      return 501;
    case "SERVICE_UNAVAILABLE_ERROR":
      return 503;
  }
}

/** The canonical error body: `{"error":{"type","message","param"?,"details"?}}`. */
export type ErrorBody = {
  error: { type: ErrorType; message: string; param?: string; details?: string[] };
};

export interface ApiErrorOptions {
  param?: string;
  details?: string[];
  headers?: Record<string, string>;
}

/** Thrown anywhere in a request; `app.onError` renders it through the version modules. */
export class ApiError extends Error {
  readonly type: ErrorType;
  readonly status: ContentfulStatusCode;
  readonly param: string | undefined;
  readonly details: string[] | undefined;
  readonly headers: Record<string, string>;

  constructor(type: ErrorType, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = "ApiError";
    this.type = type;
    this.status = statusOf(type);
    this.param = options.param;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    const error: ErrorBody["error"] = { type: this.type, message: this.message };
    if (this.param !== undefined) error.param = this.param;
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }
}

/** A 400 for request input that fails validation; `details` lists each problem. */
export function invalidRequest(details: string[], param?: string): ApiError {
  return new ApiError("INVALID_REQUEST_ERROR", details[0] ?? "Invalid request", {
    details,
    ...(param === undefined ? {} : { param }),
  });
}

/** 400 for a key the partner's environment has no room for (`MAX_LIVE_KEYS`). */
export function liveKeyLimitReached(advice = "revoke keys you no longer use."): ApiError {
  return invalidRequest([`An environment has at most ${MAX_LIVE_KEYS} live API keys; ${advice}`]);
}

/**
 * 404 for a customer outside the caller's reach: the same bytes whether it never existed or
 * belongs to another partner, environment or product.
 */
export function customerNotFound(customerId: string): ApiError {
  return new ApiError(
    "CUSTOMER_NOT_FOUND_ERROR",
    `No such customer: ${JSON.stringify(customerId)}`,
    {
      param: "customer_id",
    },
  );
}

/** 404 for an account that is not one of the customer's accounts. */
export function accountNotFound(accountId: string): ApiError {
  return new ApiError(
    "ACCOUNT_NOT_FOUND_ERROR",
    `No such account for this customer: ${JSON.stringify(accountId)}`,
    { param: "account_id" },
  );
}

/**
 * 404 for a payment method outside the caller's reach: the same bytes whether it never existed or
 * belongs to another partner, environment or product.
 */
export function paymentMethodNotFound(paymentMethodId: string): ApiError {
  return new ApiError(
    "PAYMENT_METHOD_NOT_FOUND_ERROR",
    `No such payment method: ${JSON.stringify(paymentMethodId.slice(0, 128))}`,
    { param: "payment_method_id" },
  );
}

/**
 * 404 for a statement that is not the account's to read: the same bytes whether it never existed,
 * belongs to another account, or has been hidden.
 */
export function statementNotFound(statementId: string): ApiError {
  return new ApiError(
    "STATEMENT_NOT_FOUND_ERROR",
    `No such statement for this account: ${JSON.stringify(statementId.slice(0, 128))}`,
    { param: "statement_id" },
  );
}

/** How long a client waits before retrying a write refused while its partner is being moved. */
const MOVE_RETRY_AFTER_SECONDS = 10;

/**
 * 503 for a write while the partner's data is being moved between databases: nothing was done,
 * and the same request succeeds once the move has switched over (seconds to minutes).
 */
export function partnerMoving(): ApiError {
  return new ApiError(
    "SERVICE_UNAVAILABLE_ERROR",
    "Your data is being moved for maintenance: writes are paused for a moment and nothing was " +
      `changed. Retry after ${MOVE_RETRY_AFTER_SECONDS} seconds; reads are served meanwhile.`,
    { headers: { "Retry-After": String(MOVE_RETRY_AFTER_SECONDS) } },
  );
}

/** 404 for a route that does not exist, or not in the request's version: the same bytes. */
export function routeNotFound(method: string, path: string): ApiError {
  return new ApiError("NOT_FOUND_ERROR", `No route ${method} ${path}.`);
}
