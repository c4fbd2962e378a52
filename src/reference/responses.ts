// The reference's shared parts for one version: response headers (the version, the request id
// and, for a deprecated version, its deprecation headers) and the error responses, each naming
// the schema that documents its error types in that version.
import type { ErrorType } from "../app/errors";
import type { JsonSchema, VersionBundle } from "../versioning";
import type { Content, HeaderObject, Reference, ResponseObject } from "./openapi";

/** The wire names of the brand-carrying headers. */
export interface HeaderNames {
  version: string;
  merchantKey: string;
}

export const ref = (name: string): Reference => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: JsonSchema): Content => ({ "application/json": { schema } });

/** Headers every response after version resolution carries, as references. */
export function versionedHeaders(
  headers: HeaderNames,
  deprecated: boolean,
): Record<string, Reference> {
  const out: Record<string, Reference> = {
    [headers.version]: { $ref: "#/components/headers/Version" },
    "x-request-id": { $ref: "#/components/headers/RequestId" },
  };
  if (deprecated) {
    out.Deprecation = { $ref: "#/components/headers/Deprecation" };
    out.Sunset = { $ref: "#/components/headers/Sunset" };
    out.Link = { $ref: "#/components/headers/Link" };
  }
  return out;
}

/** The header components of a version's reference. */
export function headerComponents(
  version: string,
  deprecated: boolean,
): Record<string, HeaderObject> {
  const out: Record<string, HeaderObject> = {
    Version: {
      description: "The API version that shaped this response.",
      schema: { type: "string", const: version },
    },
    RequestId: {
      description: "Identifies the request in the service's logs.",
      schema: { type: "string" },
    },
    Replayed: {
      description: "`true` when this is the stored response of an earlier request.",
      schema: { type: "string", const: "true" },
    },
    RetryAfter: {
      description: "Seconds to wait before retrying.",
      schema: { type: "string", pattern: "^[0-9]+$" },
    },
    RateLimitPolicy: {
      description:
        "The quotas that apply, as the IETF RateLimit header fields draft writes them: " +
        '`"api-key";q=1000;w=10, "partner";q=5000;w=10` is 1000 requests per 10-second ' +
        "window for each API key, and 5000 for all the keys of your partner in the environment.",
      schema: { type: "string" },
    },
    RateLimit: {
      description:
        'What is left of the quota: `"api-key";r=0;t=10` says none, for up to 10 seconds.',
      schema: { type: "string" },
    },
  };
  if (deprecated) {
    out.Deprecation = {
      description: "RFC 9745: since when this version is deprecated, as `@` and Unix seconds.",
      schema: { type: "string", pattern: "^@-?[0-9]+$" },
    };
    out.Sunset = {
      description: "RFC 8594: after when this version may no longer be served (an HTTP-date).",
      schema: { type: "string" },
    };
    out.Link = {
      description:
        'The changelog entry of this version, as `rel="deprecation"` and `rel="sunset"`.',
      schema: { type: "string" },
    };
  }
  return out;
}

/**
 * The error responses a route may declare as its own (`errors` of its declaration), by the error
 * types each documents: a route's declared error is documented by the one of exactly its types.
 */
export const ROUTE_ERROR_RESPONSES = {
  CustomerNotFound: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"],
  StatementNotFound: [
    "CUSTOMER_NOT_FOUND_ERROR",
    "ACCOUNT_NOT_FOUND_ERROR",
    "STATEMENT_NOT_FOUND_ERROR",
  ],
  NotFound: ["NOT_FOUND_ERROR"],
  PaymentMethodNotFound: ["PAYMENT_METHOD_NOT_FOUND_ERROR"],
} as const satisfies Record<string, readonly ErrorType[]>;

/** The schema of errors of `types` in a version: one reference, or the alternatives. */
function errorSchema(
  schemaOf: Readonly<Record<string, string>>,
  types: readonly ErrorType[],
): JsonSchema {
  const names = [...new Set(types.map((type) => schemaOf[type] ?? "ApiError"))];
  const [only, ...others] = names;
  return only !== undefined && others.length === 0 ? ref(only) : { anyOf: names.map(ref) };
}

/** The error responses of a version's reference, by component name. */
export function errorResponses(
  bundle: VersionBundle,
  version: string,
  headers: HeaderNames,
): Record<string, ResponseObject> {
  const schemaOf = bundle.errorSchemasOf(version);
  const deprecated = bundle.versionOf(version)?.deprecated !== undefined;
  const error = (
    description: string,
    types: readonly ErrorType[],
    extra: Record<string, Reference> = {},
  ): ResponseObject => ({
    description,
    headers: { ...versionedHeaders(headers, deprecated), ...extra },
    content: json(errorSchema(schemaOf, types)),
  });
  return {
    BadRequest: error(
      `An unsupported \`${headers.version}\` (sent without the version header), or a ` +
        `\`${headers.merchantKey}\` that names none of your products.`,
      ["BAD_REQUEST_ERROR"],
    ),
    InvalidRequest: error(
      "Invalid input (`INVALID_REQUEST_ERROR`); or, as `BAD_REQUEST_ERROR`, an unsupported " +
        `\`${headers.version}\` (sent without the version header) or a ` +
        `\`${headers.merchantKey}\` that names none of your products.`,
      ["INVALID_REQUEST_ERROR", "BAD_REQUEST_ERROR"],
    ),
    Unauthorized: {
      description: "Missing, malformed, unknown or revoked API key. No version header.",
      headers: {
        "WWW-Authenticate": {
          description: "The schemes the API accepts: Basic and Bearer.",
          schema: { type: "string" },
        },
        "x-request-id": { $ref: "#/components/headers/RequestId" },
      },
      // Sent before any version is chosen: always the canonical envelope.
      content: json(ref("ApiError")),
    },
    Forbidden: error("The key lacks the required scope: type `FORBIDDEN_ERROR`.", [
      "FORBIDDEN_ERROR",
    ]),
    CustomerNotFound: error(
      "No such customer for this key and product, or the account is not the customer's.",
      ROUTE_ERROR_RESPONSES.CustomerNotFound,
    ),
    StatementNotFound: error(
      "No such customer for this key and product, the account is not the customer's, or the " +
        "statement is not the account's (or has been hidden): `param` names the id.",
      ROUTE_ERROR_RESPONSES.StatementNotFound,
    ),
    PaymentMethodNotFound: error(
      "No such payment method for this key and product: type `PAYMENT_METHOD_NOT_FOUND_ERROR`, " +
        "`param` names the id.",
      ROUTE_ERROR_RESPONSES.PaymentMethodNotFound,
    ),
    NotImplemented: error("`501`: not available in this service, type `NOT_IMPLEMENTED_ERROR`.", [
      "NOT_IMPLEMENTED_ERROR",
    ]),
    NotFound: error(
      "No such object for this key and product: type `NOT_FOUND_ERROR`, `param` names the id.",
      ROUTE_ERROR_RESPONSES.NotFound,
    ),
    IdempotencyKeyInUse: error(
      "A request with this `Idempotency-Key` is still running: type " +
        "`IDEMPOTENCY_KEY_IN_USE_ERROR`; retry after the delay.",
      ["IDEMPOTENCY_KEY_IN_USE_ERROR"],
      { "Retry-After": { $ref: "#/components/headers/RetryAfter" } },
    ),
    IdempotencyKeyReused: error(
      "This `Idempotency-Key` was used with another request in the last 24 hours: type " +
        "`IDEMPOTENCY_KEY_REUSED_ERROR`; use a new key for a new request.",
      ["IDEMPOTENCY_KEY_REUSED_ERROR"],
    ),
    InternalError: error("An unexpected failure: type `INTERNAL_ERROR`.", ["INTERNAL_ERROR"]),
    RateLimited: error(
      "Too many requests: type `RATE_LIMITED_ERROR`. Each API key has its own limit, and all " +
        "the keys of your partner in an environment share one (see `RateLimit-Policy`); an " +
        "address that fails authentication too often has its further failures answered so for " +
        `a while (that answer carries no \`${headers.version}\`), while valid keys from it ` +
        "are served. Wait `Retry-After` seconds before retrying.",
      ["RATE_LIMITED_ERROR"],
      {
        "Retry-After": { $ref: "#/components/headers/RetryAfter" },
        "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
        RateLimit: { $ref: "#/components/headers/RateLimit" },
      },
    ),
    ServiceUnavailable: error(
      "Storage is briefly unavailable: type `SERVICE_UNAVAILABLE_ERROR`; retry after the delay.",
      ["SERVICE_UNAVAILABLE_ERROR"],
      { "Retry-After": { $ref: "#/components/headers/RetryAfter" } },
    ),
  };
}
