// The service's one error type. Anything in a request may throw an ApiError; one handler renders it
// (app/respond.ts), reshaped for the request's version like any other body.
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ERROR_TYPES } from "../canonical/schemas";
import { MAX_LIVE_KEYS } from "../domain/key-record";

/**
 * Every error type the service sends, as the newest version names it. The type is taken from the
 * list the reference documents (canonical/schemas.ts), so the two cannot differ.
 */
export type ErrorType = (typeof ERROR_TYPES)[number];

/** The HTTP status of an error type; the type checker refuses a new type until it has one here. */
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
    case "ORDER_NOT_FOUND_ERROR":
    case "ORDER_EVENT_NOT_FOUND_ERROR":
    case "TRANSACTION_INTENT_NOT_FOUND_ERROR":
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

/**
 * The error body as the newest version sends it: an `error` object with the type and a message,
 * and, when they apply, the parameter at fault and one line per problem found.
 */
export type ErrorBody = {
  error: { type: ErrorType; message: string; param?: string; details?: string[] };
};

export interface ApiErrorOptions {
  param?: string;
  details?: string[];
  headers?: Record<string, string>;
}

/**
 * An error to answer the request with, thrown anywhere a request runs. `app.onError` renders it,
 * and the version modules reshape it for the request's version like any other body.
 *
 * @example
 * if (!account) {
 *   throw new ApiError("ACCOUNT_NOT_FOUND_ERROR", "No such account", { param: "account_id" });
 * }
 */
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

/**
 * A 400 for input that fails validation, with one line of `details` per problem; the first line is
 * also the message.
 *
 * @example
 * throw invalidRequest(["limit must be at most 100"], "limit");
 */
export function invalidRequest(details: string[], param?: string): ApiError {
  return new ApiError("INVALID_REQUEST_ERROR", details[0] ?? "Invalid request", {
    details,
    ...(param === undefined ? {} : { param }),
  });
}

/** A 400 for a new key in an environment that already holds the most live keys it may. */
export function liveKeyLimitReached(advice = "revoke keys you no longer use."): ApiError {
  return invalidRequest([`An environment has at most ${MAX_LIVE_KEYS} live API keys; ${advice}`]);
}

/**
 * A 404 for a customer outside the caller's reach. It reads the same whether the customer never
 * existed or belongs to another partner, environment or product, so that it tells nothing of
 * another partner's data.
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

/** A 404 for an account that is not one of the customer's accounts. */
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
export function paymentMethodNotFound(): ApiError {
  // The id is not repeated back: a card number pasted where the id goes would be.
  return new ApiError(
    "PAYMENT_METHOD_NOT_FOUND_ERROR",
    "No such payment method for this key and product.",
    { param: "payment_method_id" },
  );
}

/**
 * A 404 for a statement that is not the account's to read. It reads the same whether the statement
 * never existed, belongs to another account or has been hidden.
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
 * A 503 for a write while the partner's data is being moved between databases. Nothing was done,
 * and the same request succeeds once the move is over, seconds to minutes later.
 */
export function partnerMoving(): ApiError {
  return new ApiError(
    "SERVICE_UNAVAILABLE_ERROR",
    "Your data is being moved for maintenance: writes are paused for a moment and nothing was " +
      `changed. Retry after ${MOVE_RETRY_AFTER_SECONDS} seconds; reads are served meanwhile.`,
    { headers: { "Retry-After": String(MOVE_RETRY_AFTER_SECONDS) } },
  );
}

/** A 404 for a route that does not exist, the same as for one the request's version lacks. */
export function routeNotFound(method: string, path: string): ApiError {
  return new ApiError("NOT_FOUND_ERROR", `No route ${method} ${path}.`);
}
