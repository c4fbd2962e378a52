// What the features declare their /v2 bodies with: a named schema (zod), what it is to the API,
// the pieces bodies share, the error envelopes, and how named schemas become the reference's
// components. Each feature declares its own schemas in its folder (`api-schemas.ts`) and lists
// them; src/api-model.ts collects every feature's list into the canonical model.
import * as z from "zod";
import type { SchemaMap } from "../versioning";

/**
 * What a named schema is to the API: a response body (a resource the version modules reshape),
 * a request body (closed, brought forward by the version modules), or a component other schemas
 * refer to (an item of a list, an error envelope).
 */
export type SchemaKind = "resource" | "request" | "component";

/** A named schema of the canonical model: what routes declare their bodies with, by reference. */
export interface SchemaRef<
  Name extends string = string,
  Schema extends z.ZodType = z.ZodType,
  Kind extends SchemaKind = SchemaKind,
> {
  /** Its name in the reference (`#/components/schemas/{name}`) and in version modules. */
  readonly name: Name;
  readonly schema: Schema;
  readonly kind: Kind;
}

const named =
  <Kind extends SchemaKind>(kind: Kind) =>
  <const Name extends string, Schema extends z.ZodType>(
    name: Name,
    schema: Schema,
  ): SchemaRef<Name, Schema, Kind> => ({ name, schema, kind });

/** A response body: what a route answers with, and what version changes reshape. */
export const resource = named("resource");

/**
 * A request body: the one schema its route validates with and the reference publishes. Request
 * bodies are closed (`z.strictObject`): a field the version does not have is refused, not ignored.
 */
export const requestBody = named("request");

/** A schema other schemas refer to by name, such as the item of a list. */
export const component = named("component");

/** The canonical body of a schema: what a handler builds, or what a request body reads as. */
export type BodyOf<Ref extends SchemaRef> = z.output<Ref["schema"]>;

/** A response body's schema, by reference. */
export type ResponseRef = SchemaRef<string, z.ZodType, "resource">;

/** A request body's schema, by reference. */
export type RequestRef = SchemaRef<string, z.ZodType, "request">;

/** An RFC 3339 timestamp of a response body. */
export const timestamp = (description: string) =>
  z.string().meta({ format: "date-time", description: `${description} (RFC 3339).` });

/** An amount in the smallest currency unit, omitted when there is none. */
export const amount = (description: string) => z.int().optional().describe(description);

export const currency = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .optional()
  .describe("ISO 4217 currency code.");

/** The `{data, has_more}` page of the lists paged by id. */
export const listOf = (item: z.ZodType) =>
  z.object({
    data: z.array(item),
    has_more: z.boolean().describe("True when another page exists; page on with the last id."),
  });

/** The page of the lists paged by an opaque token: statements, line items, events. */
export const tokenPageOf = (item: z.ZodType, description: string) =>
  z.object({
    data: z.array(item).describe(description),
    has_more: z.boolean().describe("True when another page exists."),
    next_page_token: z
      .string()
      .optional()
      .describe("Opaque cursor for the next page, sent back as `starting_after`; only with more."),
  });

/** Every error type the service emits, canonical names; `ErrorType` (app/errors.ts) is read from it. */
export const ERROR_TYPES = [
  "UNAUTHORIZED_ERROR",
  "BAD_REQUEST_ERROR",
  "INVALID_REQUEST_ERROR",
  "FORBIDDEN_ERROR",
  "NOT_FOUND_ERROR",
  "CUSTOMER_NOT_FOUND_ERROR",
  "ACCOUNT_NOT_FOUND_ERROR",
  "STATEMENT_NOT_FOUND_ERROR",
  "PAYMENT_METHOD_NOT_FOUND_ERROR",
  "CONFLICT_ERROR",
  "IDEMPOTENCY_KEY_IN_USE_ERROR",
  "IDEMPOTENCY_KEY_REUSED_ERROR",
  "PRECONDITION_FAILED_ERROR",
  "PAYLOAD_TOO_LARGE_ERROR",
  "UNSUPPORTED_MEDIA_TYPE_ERROR",
  "RANGE_NOT_SATISFIABLE_ERROR",
  "RATE_LIMITED_ERROR",
  "NOT_IMPLEMENTED_ERROR",
  "SERVICE_UNAVAILABLE_ERROR",
  "INTERNAL_ERROR",
] as const;

/** The ApiError envelope, narrowed to some error types. */
const envelope = (types: readonly [string, ...string[]], description: string) =>
  z
    .object({
      error: z.object({
        type: z.enum(types),
        message: z.string(),
        param: z.string().optional().describe("The parameter or header at fault."),
        details: z.array(z.string()).optional().describe("Each problem found, for validation."),
      }),
    })
    .describe(description);

export const ApiError = component(
  "ApiError",
  envelope(ERROR_TYPES, "Every error, in one envelope."),
);
export const InvalidRequestError = component(
  "InvalidRequestError",
  envelope(
    ["INVALID_REQUEST_ERROR"],
    "A request that failed validation; `details` lists each problem.",
  ),
);
export const CustomerNotFoundError = component(
  "CustomerNotFoundError",
  envelope(
    ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"],
    "The customer, or the customer's account, does not exist for this key.",
  ),
);
export const StatementNotFoundError = component(
  "StatementNotFoundError",
  envelope(
    ["STATEMENT_NOT_FOUND_ERROR"],
    "The statement is not one of the account's, or has been hidden.",
  ),
);

export const PaymentMethodNotFoundError = component(
  "PaymentMethodNotFoundError",
  envelope(
    ["PAYMENT_METHOD_NOT_FOUND_ERROR"],
    "The payment method is not one of this key's partner, environment and product.",
  ),
);

/** The error envelopes, each narrower than ApiError, which documents every error type. */
export const errorSchemas = [
  ApiError,
  InvalidRequestError,
  CustomerNotFoundError,
  StatementNotFoundError,
  PaymentMethodNotFoundError,
];

/** The envelope documenting each error type in the canonical version: its narrowest. */
export function errorSchemaOf(type: (typeof ERROR_TYPES)[number]): string {
  switch (type) {
    case "INVALID_REQUEST_ERROR":
      return InvalidRequestError.name;
    case "CUSTOMER_NOT_FOUND_ERROR":
    case "ACCOUNT_NOT_FOUND_ERROR":
      return CustomerNotFoundError.name;
    case "STATEMENT_NOT_FOUND_ERROR":
      return StatementNotFoundError.name;
    case "PAYMENT_METHOD_NOT_FOUND_ERROR":
      return PaymentMethodNotFoundError.name;
    default:
      return ApiError.name;
  }
}

/**
 * Orders named schemas as the reference lists them: responses and components first, then the
 * request bodies, each in the order given. Throws when two share a name.
 */
export function inReferenceOrder<Ref extends SchemaRef>(refs: readonly Ref[]): Ref[] {
  const names = new Set<string>();
  for (const { name } of refs) {
    if (names.has(name)) throw new Error(`two schemas are named ${name}`);
    names.add(name);
  }
  return [
    ...refs.filter((ref) => ref.kind !== "request"),
    ...refs.filter((ref) => ref.kind === "request"),
  ];
}

/**
 * The schemas `used` (by routes) that `listed` lacks, as `Name (kind)`: each would be missing from
 * the reference's components.
 */
export function unlistedSchemas(
  listed: readonly SchemaRef[],
  used: readonly (SchemaRef | undefined)[],
): string[] {
  const known = new Set<SchemaRef>(listed);
  return used.flatMap((ref) => (ref && !known.has(ref) ? [`${ref.name} (${ref.kind})`] : []));
}

/**
 * Shapes zod's output for publication: response objects stay open (a new response field is not a
 * breaking change) while request bodies stay closed, and integers say int64 rather than spelling
 * out the safe-integer bounds.
 */
function publishable(value: unknown, closed: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => publishable(item, closed));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$schema" || key === "$id") continue;
    if (key === "additionalProperties" && child === false && !closed) continue;
    if ((key === "minimum" || key === "maximum") && Math.abs(Number(child)) === MAX_SAFE) continue;
    out[key] = publishable(child, closed);
  }
  if (out.type === "integer" && out.minimum === undefined) out.format = "int64";
  return out;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Named schemas as OpenAPI 3.1 components, in the order given: a schema that holds another
 * named one refers to it (`$ref`) rather than repeating it.
 */
export function componentsOf(refs: readonly SchemaRef[]): SchemaMap {
  const registry = z.registry<{ id: string }>();
  for (const { name, schema } of refs) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` });
  const requests = new Set(refs.filter((ref) => ref.kind === "request").map((ref) => ref.name));
  // zod's output is JSON Schema objects; SchemaMap is their type in the versioning engine.
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [
      name,
      publishable(schema, requests.has(name)),
    ]),
  ) as SchemaMap;
}
