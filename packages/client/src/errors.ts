// One error class per documented error shape and meaning, built from any error response: the
// ApiError envelope, and the older flat InvalidRequestError and CustomerNotFoundError shapes.

/** Every error the API answers; `type` is the API's error type. */
export class CardStatementsError extends Error {
  readonly status: number;
  readonly type: string;
  readonly param: string | undefined;
  /** The service's `x-request-id`: quote it when reporting a problem. */
  readonly requestId: string | null;
  /** The body as the API sent it. */
  readonly body: unknown;

  constructor(
    message: string,
    fields: {
      status: number;
      type: string;
      param?: string;
      requestId: string | null;
      body: unknown;
    },
  ) {
    super(message);
    this.name = new.target.name;
    this.status = fields.status;
    this.type = fields.type;
    this.param = fields.param;
    this.requestId = fields.requestId;
    this.body = fields.body;
  }
}

/** 400: the request failed validation; `details` lists each problem. */
export class InvalidRequestError extends CardStatementsError {
  readonly details: string[] = [];
}
/** 400: a bad version or merchant-key header (`BAD_REQUEST_ERROR`). */
export class BadRequestError extends CardStatementsError {}
/** 401: missing, malformed, unknown or revoked API key. */
export class AuthenticationError extends CardStatementsError {}
/** 403: the key lacks the scope the route needs. */
export class PermissionError extends CardStatementsError {}
/** 404: no such customer, or the account is not the customer's. */
export class CustomerNotFoundError extends CardStatementsError {}
/** 404: no such object (event, webhook endpoint) or route. */
export class NotFoundError extends CardStatementsError {}
/** 409 or 422: the Idempotency-Key is in use, or was used for another request. */
export class IdempotencyError extends CardStatementsError {}
/** 429: too many requests; retried automatically, this is what is left after the retries. */
export class RateLimitError extends CardStatementsError {}
/** 503: storage briefly unavailable; retried automatically, as for 429. */
export class ServiceUnavailableError extends CardStatementsError {}
/** Any other error status (500, 501, 409, 413, 415…). */
export class ApiError extends CardStatementsError {}

type Fields = { type: string; message: string; param?: string; details?: string[] };

/** The error's fields, whichever documented shape the body has. */
function fieldsOf(status: number, body: unknown): Fields {
  if (typeof body === "object" && body !== null) {
    const b = body as Record<string, unknown>;
    const envelope = b.error;
    if (typeof envelope === "object" && envelope !== null) {
      const e = envelope as Record<string, unknown>;
      return {
        type: String(e.type ?? "UNKNOWN_ERROR"),
        message: String(e.message ?? `HTTP ${status}`),
        ...(typeof e.param === "string" ? { param: e.param } : {}),
        ...(Array.isArray(e.details) ? { details: e.details.map(String) } : {}),
      };
    }
    // The older InvalidRequestError: {path, details, error: "Bad Request", status, timestamp}.
    if (Array.isArray(b.details) && typeof b.error === "string") {
      const details = b.details.map(String);
      return { type: "INVALID_REQUEST_ERROR", message: details[0] ?? b.error, details };
    }
    // The older CustomerNotFoundError: {type, message, param?}.
    if (typeof b.type === "string" && typeof b.message === "string") {
      return {
        type: b.type,
        message: b.message,
        ...(typeof b.param === "string" ? { param: b.param } : {}),
      };
    }
  }
  return { type: "UNKNOWN_ERROR", message: `HTTP ${status}` };
}

/** The typed error of an error response. */
export function errorFromResponse(
  status: number,
  body: unknown,
  requestId: string | null,
): CardStatementsError {
  const f = fieldsOf(status, body);
  const init = {
    status,
    type: f.type,
    requestId,
    body,
    ...(f.param === undefined ? {} : { param: f.param }),
  };
  if (f.type === "INVALID_REQUEST_ERROR") {
    const error = new InvalidRequestError(f.message, init);
    error.details.push(...(f.details ?? [f.message]));
    return error;
  }
  if (f.type === "CUSTOMER_NOT_FOUND_ERROR" || f.type === "ACCOUNT_NOT_FOUND_ERROR") {
    return new CustomerNotFoundError(f.message, init);
  }
  if (f.type.startsWith("IDEMPOTENCY_KEY_")) return new IdempotencyError(f.message, init);
  switch (status) {
    case 400:
      return new BadRequestError(f.message, init);
    case 401:
      return new AuthenticationError(f.message, init);
    case 403:
      return new PermissionError(f.message, init);
    case 404:
      return new NotFoundError(f.message, init);
    case 429:
      return new RateLimitError(f.message, init);
    case 503:
      return new ServiceUnavailableError(f.message, init);
    default:
      return new ApiError(f.message, init);
  }
}
