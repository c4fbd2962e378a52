// One OpenAPI 3.1 document per version: the canonical schemas, edited back through every newer
// change, and an operation for every /v2 route of the route table.
import type { Json, JsonSchema, SchemaMap, VersionBundle } from "../../versions";
import { ROUTES, type RouteSpec } from "../app/route-table";
import {
  openApiPath,
  operationIdOf,
  pathParameters,
  type Served,
  servedOf,
  TAGS,
  tagOf,
} from "./operations";
import { canonicalSchemas } from "./schemas";

/** The wire names of the brand-carrying headers. */
export interface HeaderNames {
  version: string;
  merchantKey: string;
}

export type OpenApiDocument = Record<string, Json>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ "application/json": { schema } });

/** The schemas of `version`: the canonical ones edited back by each newer change, newest first. */
export function schemasOf(bundle: VersionBundle, version: string): SchemaMap {
  const schemas = structuredClone(canonicalSchemas());
  for (const change of bundle.changesNewerThan(version)) change.schema?.(schemas);
  return schemas;
}

function errorResponses(headers: HeaderNames): Record<string, Json> {
  const versioned = { $ref: "#/components/headers/Version" };
  const requestId = { $ref: "#/components/headers/RequestId" };
  const error = (description: string, schema: JsonSchema, extra: Record<string, Json> = {}) => ({
    description,
    headers: { [headers.version]: versioned, "x-request-id": requestId, ...extra },
    content: json(schema),
  });
  return {
    BadRequest: error(
      `An unsupported \`${headers.version}\` (sent without the version header), or a ` +
        `\`${headers.merchantKey}\` that names none of your products.`,
      ref("ApiError"),
    ),
    InvalidRequest: error(
      "Invalid input (InvalidRequestError); or, as an ApiError, an unsupported " +
        `\`${headers.version}\` (sent without the version header) or a ` +
        `\`${headers.merchantKey}\` that names none of your products.`,
      { anyOf: [ref("InvalidRequestError"), ref("ApiError")] },
    ),
    Unauthorized: {
      description: "Missing, malformed, unknown or revoked API key. No version header.",
      headers: {
        "WWW-Authenticate": { schema: { type: "string" } },
        "x-request-id": requestId,
      },
      content: json(ref("ApiError")),
    },
    Forbidden: error("The key lacks the required scope: type `FORBIDDEN_ERROR`.", ref("ApiError")),
    CustomerNotFound: error(
      "No such customer for this key and product, or the account is not the customer's.",
      ref("CustomerNotFoundError"),
    ),
    NotImplemented: error(
      "Not available in this service: type `NOT_IMPLEMENTED_ERROR`.",
      ref("ApiError"),
    ),
    InternalError: error("An unexpected failure: type `INTERNAL_ERROR`.", ref("ApiError")),
    RateLimited: error(
      "Too many requests: type `RATE_LIMITED_ERROR`. Each API key has its own limit (see " +
        "`RateLimit-Policy`); an address that fails authentication too often is refused for a " +
        `while, whatever key it sends (that answer carries no \`${headers.version}\`). Wait ` +
        "`Retry-After` seconds before retrying.",
      ref("ApiError"),
      {
        "Retry-After": { $ref: "#/components/headers/RetryAfter" },
        "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
        RateLimit: { $ref: "#/components/headers/RateLimit" },
      },
    ),
    ServiceUnavailable: error(
      "Storage is briefly unavailable: type `SERVICE_UNAVAILABLE_ERROR`; retry after the delay.",
      ref("ApiError"),
      { "Retry-After": { $ref: "#/components/headers/RetryAfter" } },
    ),
  };
}

function pageParameters(page: NonNullable<Served["page"]>): Json[] {
  return [
    {
      name: "limit",
      in: "query",
      required: false,
      description: "Maximum number of objects returned.",
      schema: { type: "integer", minimum: 1, maximum: 100, default: 10 },
    },
    {
      name: "starting_after",
      in: "query",
      required: false,
      description:
        page === "token"
          ? "The `next_page_token` of the previous page: an opaque cursor, not a statement id."
          : "The id of the last object of the previous page.",
      schema: { type: "string" },
    },
  ];
}

function operationOf(route: RouteSpec, headers: HeaderNames): Json {
  const served = route.implemented ? servedOf(route) : undefined;
  const parameters: Json[] = pathParameters(route.path).map((name) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (served?.page) parameters.push(...pageParameters(served.page));
  parameters.push({ $ref: "#/components/parameters/Version" });
  if (route.customerScoped) parameters.push({ $ref: "#/components/parameters/MerchantKey" });

  const responses: Record<string, Json> = {};
  if (served) {
    responses[served.status] = {
      description: served.status === 201 ? "Created." : "Success.",
      headers: {
        [headers.version]: { $ref: "#/components/headers/Version" },
        "x-request-id": { $ref: "#/components/headers/RequestId" },
        "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
      },
      content: json(ref(served.schema)),
    };
  }
  const errors = (name: string) => ({ $ref: `#/components/responses/${name}` });
  responses[400] = errors(route.implemented ? "InvalidRequest" : "BadRequest");
  responses[401] = errors("Unauthorized");
  if (route.scope) responses[403] = errors("Forbidden");
  if (route.implemented && route.path.includes(":customer_id")) {
    responses[404] = errors("CustomerNotFound");
  }
  responses[429] = errors("RateLimited");
  responses[500] = errors("InternalError");
  if (!route.implemented) responses[501] = errors("NotImplemented");
  responses[503] = errors("ServiceUnavailable");

  const notes = [
    route.scope ? `Requires the \`${route.scope}\` scope.` : "Needs no scope beyond a valid key.",
  ];
  if (!route.implemented) notes.push("Not available in this service: answers `501`.");
  const operation: Json = {
    operationId: operationIdOf(route),
    summary: route.summary,
    description: notes.join(" "),
    tags: [tagOf(route.path)],
    "x-required-scope": route.scope,
    parameters,
  };
  if (served?.body) {
    operation.requestBody = {
      required: served.body.required,
      content: json(ref(served.body.schema)),
    };
  }
  operation.responses = responses;
  return operation;
}

function describeVersion(bundle: VersionBundle, version: string, headers: HeaderNames): string {
  const entry = bundle.versions.find((v) => v.id === version);
  const lines = [
    `API version \`${version}\`${entry?.released ? "" : " (unreleased, sandbox keys only)"}. ` +
      `Send \`${headers.version}: ${version}\` to use it for one request, or save it as your ` +
      "default for an environment. Every response after authentication names its version in " +
      `\`${headers.version}\`.`,
  ];
  if (entry?.summary) lines.push("", entry.summary);
  if (entry && entry.changes.length > 0) {
    lines.push("", "Changes in this version:");
    for (const change of entry.changes) lines.push(`- **${change.name}**: ${change.description}`);
  }
  lines.push("", "The full changelog is at `/changelog`.");
  return lines.join("\n");
}

/** Builds the reference of one version of the bundle. Throws for a version it does not hold. */
export function buildOpenApiDocument(
  bundle: VersionBundle,
  version: string,
  headers: HeaderNames,
): OpenApiDocument {
  if (!bundle.versions.some((v) => v.id === version)) throw new Error(`unknown version ${version}`);
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of ROUTES) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route, headers);
  }
  const used = new Set(
    Object.values(paths).flatMap((ops) => Object.values(ops).map((o) => o.tags[0])),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "Card Account Statements API",
      version,
      description: describeVersion(bundle, version, headers),
    },
    tags: TAGS.filter(([, tag]) => used.has(tag)).map(([, name, description]) => ({
      name,
      description,
    })),
    security: [{ basicAuth: [] }, { bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        basicAuth: {
          type: "http",
          scheme: "basic",
          description: "The API key as the username, with an empty password.",
        },
        bearerAuth: { type: "http", scheme: "bearer", description: "The API key as the token." },
      },
      parameters: {
        Version: {
          name: headers.version,
          in: "header",
          required: false,
          description:
            "The API version for this request; without it, the version saved for your key's " +
            "environment. `latest` is for sandbox keys only.",
          schema: { type: "string", enum: bundle.versions.map((v) => v.id) },
          example: version,
        },
        MerchantKey: {
          name: headers.merchantKey,
          in: "header",
          required: false,
          description:
            "The product to read, as supplied at onboarding. Required when you have several.",
          schema: { type: "string" },
        },
      },
      headers: {
        Version: {
          description: "The API version that shaped this response.",
          schema: { type: "string", const: version },
        },
        RequestId: {
          description: "Identifies the request in the service's logs.",
          schema: { type: "string" },
        },
        RetryAfter: {
          description: "Seconds to wait before retrying.",
          schema: { type: "string", pattern: "^[0-9]+$" },
        },
        RateLimitPolicy: {
          description:
            "The quota that applies, as the IETF RateLimit header fields draft writes it: " +
            '`"api-key";q=1000;w=10` is 1000 requests per 10-second window for each API key.',
          schema: { type: "string" },
        },
        RateLimit: {
          description:
            'What is left of the quota: `"api-key";r=0;t=10` says none, for up to 10 seconds.',
          schema: { type: "string" },
        },
      },
      responses: errorResponses(headers),
      schemas: schemasOf(bundle, version),
    },
  };
}
