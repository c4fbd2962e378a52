// One OpenAPI 3.1 document per version: the canonical schemas, edited back through every newer
// change, and an operation for every /v2 route of the route list, from its declaration.
import type { Route, RouteError } from "../app/route";
import { changelogEntryPath } from "../app/version-headers";
import type { Environment } from "../domain/environment";
import {
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_KEY_RULE,
  MAX_IDEMPOTENCY_KEY_LENGTH,
} from "../domain/idempotency";
import type { VersionBundle } from "../versioning";
import { webhooksOf } from "../webhook-deliveries";
import { limitsSection } from "./limits";
import {
  isReference,
  type OpenApiDocument,
  type Operation,
  type ParameterObject,
  type Reference,
  type ResponseObject,
  type SecurityScheme,
} from "./openapi";
import { openApiPath, pathParameters } from "./operations";
import {
  errorResponses,
  type HeaderNames,
  headerComponents,
  json,
  ROUTE_ERROR_RESPONSES,
  ref,
  versionedHeaders,
} from "./responses";
import { scopeTable } from "./scopes";
import { SECTIONS } from "./sections";

export type { OpenApiDocument } from "./openapi";
export type { HeaderNames } from "./responses";

/** The response documenting an error a route declares: the one of exactly its types. */
function responseOf(route: Route, error: RouteError): string {
  const types = new Set(error.types);
  const found = Object.entries(ROUTE_ERROR_RESPONSES).find(
    ([, documented]) =>
      documented.length === types.size && documented.every((type) => types.has(type)),
  );
  if (!found) {
    throw new Error(
      `${route.method} ${route.path}: no error response documents ${[...types].join(", ")}`,
    );
  }
  return found[0];
}

function operationOf(route: Route, headers: HeaderNames, deprecated: boolean): Operation {
  const { success } = route;
  const parameters: (ParameterObject | Reference)[] = pathParameters(route.path).map((name) => ({
    name,
    in: "path",
    required: true,
    description: `The \`${name}\` of the ${name.replace(/_id$/, "").replace(/_/g, " ")}.`,
    schema: { type: "string" },
  }));
  if (route.query) parameters.push(...route.query.parameters);
  parameters.push({ $ref: "#/components/parameters/Version" });
  // Every write takes an Idempotency-Key.
  const idempotent = route.implemented && route.method !== "GET";
  if (idempotent) parameters.push({ $ref: "#/components/parameters/IdempotencyKey" });
  if (route.customerScoped) parameters.push({ $ref: "#/components/parameters/MerchantKey" });

  const responses: Record<string, ResponseObject | Reference> = {};
  if (success) {
    const documented: ResponseObject = {
      description: { 200: "Success.", 201: "Created.", 202: "Accepted.", 204: "Done." }[
        success.status
      ],
      headers: {
        ...versionedHeaders(headers, deprecated),
        ...(idempotent ? { "Idempotent-Replayed": { $ref: "#/components/headers/Replayed" } } : {}),
        "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
      },
    };
    if (success.schema) documented.content = json(ref(success.schema.name));
    responses[success.status] = documented;
  }
  const errors = (name: string): Reference => ({ $ref: `#/components/responses/${name}` });
  responses[400] = errors(route.implemented ? "InvalidRequest" : "BadRequest");
  responses[401] = errors("Unauthorized");
  if (route.scope) responses[403] = errors("Forbidden");
  for (const error of route.errors) responses[error.status] = errors(responseOf(route, error));
  if (idempotent) {
    // A route's own conflict and a key still in use share the status: one response names both.
    responses[409] = errors(
      responses[409] ? "ConflictOrIdempotencyKeyInUse" : "IdempotencyKeyInUse",
    );
    responses[422] = errors("IdempotencyKeyReused");
  }
  responses[429] = errors("RateLimited");
  responses[500] = errors("InternalError");
  // Every other answer of a route this service does not implement is its 501: `default` says so
  // (and a 501 is no success an operation could document).
  if (!route.implemented) responses.default = errors("NotImplemented");
  responses[503] = errors("ServiceUnavailable");

  const notes = [
    route.scope ? `Requires the \`${route.scope}\` scope.` : "Needs no scope beyond a valid key.",
    SECTIONS[route.tag]?.why ?? "",
  ].filter((note) => note !== "");
  if (!route.environments.includes("production")) {
    notes.push(
      "Sandbox keys only: a production key gets `404`, as for a route that does not exist.",
    );
  }
  if (!route.implemented) notes.push("Not available in this service: answers `501`.");
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: notes.join(" "),
    tags: [route.tag],
    "x-required-scope": route.scope,
    parameters,
    ...(route.body
      ? {
          requestBody: {
            required: route.body.required,
            content: json(ref(route.body.schema.name)),
          },
        }
      : {}),
    responses,
  };
}

function describeVersion(
  bundle: VersionBundle,
  version: string,
  headers: HeaderNames,
  environment: Environment,
  routes: readonly Route[],
): string {
  const entry = bundle.versionOf(version);
  const other = environment === "sandbox" ? "production" : "sandbox";
  const lines = [
    `API version \`${version}\`${entry?.released ? "" : " (unreleased, sandbox keys only)"}. ` +
      `Send \`${headers.version}: ${version}\` to use it for one request, or save it as your ` +
      "default for an environment. Every response after authentication names its version in " +
      `\`${headers.version}\`.`,
    "",
    `This reference is for ${environment} keys` +
      (environment === "sandbox" ? ", with the sandbox's simulations" : "") +
      (bundle.isSupported(version, other)
        ? `; [${other} keys' reference](/docs?version=${version}&environment=${other}).`
        : "."),
  ];
  const deprecated = entry?.deprecated;
  if (deprecated) {
    lines.push(
      "",
      `> **Deprecated** since ${deprecated.date}` +
        (deprecated.sunset ? `; it may stop being served after **${deprecated.sunset}**` : "") +
        `. Responses carry \`Deprecation\`${deprecated.sunset ? ", `Sunset`" : ""} and \`Link\` ` +
        `headers; [move to a newer version](${changelogEntryPath(version)}).`,
    );
  }
  if (entry?.summary) lines.push("", entry.summary);
  if (entry && entry.changes.length > 0) {
    lines.push("", "Changes in this version:", "");
    for (const change of entry.changes) lines.push(`- **${change.name}**: ${change.description}`);
  }
  lines.push("", "The full changelog is at [/docs/changelog](/docs/changelog).");
  lines.push("", ...scopeTable(routes), "", ...limitsSection(environment));
  return lines.join("\n");
}

/** The names of every schema and response a part of the document references. */
function referenced(node: unknown, kind: "schemas" | "responses", into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) referenced(item, kind, into);
  else if (typeof node === "object" && node !== null) {
    const $ref = isReference(node) ? node.$ref : "";
    const name = new RegExp(`^#/components/${kind}/(.+)$`).exec($ref)?.[1];
    if (name !== undefined) into.add(name);
    for (const child of Object.values(node)) referenced(child, kind, into);
  }
  return into;
}

/** Keeps the components some operation uses, directly or through other components. */
function withoutUnused<T>(
  all: Record<string, T>,
  roots: Set<string>,
  kind: "schemas" | "responses",
) {
  const kept = new Set<string>();
  const queue = [...roots];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (kept.has(name) || !(name in all)) continue;
    kept.add(name);
    queue.push(...referenced(all[name], kind, new Set()));
  }
  return Object.fromEntries(Object.entries(all).filter(([name]) => kept.has(name)));
}

/** How a key authenticates: HTTP Basic with the key as the username, or as a bearer token. */
const SECURITY_SCHEMES: Record<string, SecurityScheme> = {
  basicAuth: {
    type: "http",
    scheme: "basic",
    description: "The API key as the username, with an empty password.",
  },
  bearerAuth: { type: "http", scheme: "bearer", description: "The API key as the token." },
};

/** The request headers a version's operations refer to, named with this deployment's header names. */
function parameterComponents(
  bundle: VersionBundle,
  version: string,
  headers: HeaderNames,
): Record<string, ParameterObject> {
  return {
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
    IdempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "Makes the request safe to retry: the same key with the same request (method, path, " +
        "version, product and body) within 24 hours answers the first response again, " +
        "marked `Idempotent-Replayed: true`, without doing anything twice. Keys belong to " +
        "the API key that sends them: the same key from another API key runs as a request " +
        "of its own. Use a new random one (a UUID) per request. A key is " +
        `${IDEMPOTENCY_KEY_RULE}; any other answers \`400\`.`,
      schema: {
        type: "string",
        minLength: 1,
        maxLength: MAX_IDEMPOTENCY_KEY_LENGTH,
        pattern: IDEMPOTENCY_KEY_PATTERN,
      },
    },
    MerchantKey: {
      name: headers.merchantKey,
      in: "header",
      required: false,
      description:
        "The product to read, as supplied at onboarding. Required when you have several.",
      schema: { type: "string" },
    },
  };
}

/**
 * Builds the reference of one version of the bundle for the keys of one environment (the routes
 * they may call). Throws for a version it does not hold.
 */
export function buildOpenApiDocument(
  bundle: VersionBundle,
  routes: readonly Route[],
  version: string,
  headers: HeaderNames,
  environment: Environment,
): OpenApiDocument {
  const entry = bundle.versionOf(version);
  if (!entry) throw new Error(`unknown version ${version}`);
  const deprecated = entry.deprecated !== undefined;
  const paths: Record<string, Record<string, Operation>> = {};
  const documented: Route[] = [];
  for (const route of routes) {
    if (!route.environments.includes(environment)) continue;
    if (!bundle.routeExists(version, route.method, route.path)) continue;
    documented.push(route);
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route, headers, deprecated);
  }
  const used = new Set(
    Object.values(paths).flatMap((ops) => Object.values(ops).map((o) => o.tags[0])),
  );
  // A version that lacks some routes lacks their schemas and responses too.
  const responses = withoutUnused(
    errorResponses(bundle, version, headers),
    referenced(paths, "responses", new Set()),
    "responses",
  );
  const versionSchemas = bundle.schemasOf(version);
  const webhooks = webhooksOf(bundle, version);
  const schemas = withoutUnused(
    versionSchemas,
    referenced([paths, webhooks, responses], "schemas", new Set()),
    "schemas",
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "Card Account Statements API",
      version,
      description: describeVersion(bundle, version, headers, environment, documented),
      license: {
        name: "Proprietary: for partners under contract",
        identifier: "LicenseRef-Partner",
      },
    },
    servers: [{ url: "/", description: "This service (the host serving this document)." }],
    tags: Object.entries(SECTIONS)
      .filter(([tag]) => used.has(tag))
      .map(([name, { description }]) => ({
        name,
        description,
      })),
    security: [{ basicAuth: [] }, { bearerAuth: [] }],
    paths,
    webhooks,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      parameters: parameterComponents(bundle, version, headers),
      headers: headerComponents(version, deprecated),
      responses,
      schemas,
    },
  };
}
