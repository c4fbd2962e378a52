// The vocabulary of API versioning: a dated version is an ordered list of named changes, and a
// change is, preferably, a list of declarative instructions (see instructions.ts).
import type { Instruction } from "./instructions";

export type Environment = "sandbox" | "production";

/** Names of the response bodies a change can reshape (the canonical schemas), and `Error`. */
export type ResourceName =
  | "Statement"
  | "StatementList"
  | "Account"
  | "AccountList"
  | "Customer"
  | "CustomerList"
  | "ApiKey"
  | "Event"
  | "EventList"
  | "WebhookEndpoint"
  | "WebhookEndpointList"
  | "DeliveryAttemptList"
  | "EventResend"
  | "Error";

/** Names of the request bodies a change can reshape. */
export type RequestName =
  | "CustomerLinkRequest"
  | "CreateKeyRequest"
  | "CreateWebhookEndpointRequest"
  | "RollWebhookEndpointSecretRequest"
  | "ResendEventRequest";

/** What a transformer may know about the response besides its body. */
export interface ResponseContext {
  /** Request path, as the client sent it. */
  path: string;
  status: number;
  /** When the response is issued, RFC 3339. */
  timestamp: string;
}

// Bodies are plain JSON values; each transformer knows the shape of the resource it handles.
// biome-ignore lint/suspicious/noExplicitAny: transformers work on JSON of a known shape
export type Json = any;

/** Reshapes a body of the newer version into the body of the version just older. Pure. */
export type ResponseTransformer = (body: Json, ctx: ResponseContext) => Json;

/** Reshapes a request body sent in the older version into the newer version's shape. Pure. */
export type RequestTransformer = (body: Json) => Json;

/** A JSON Schema object (OpenAPI 3.1 dialect). */
export type JsonSchema = { [keyword: string]: Json };

/** The named schemas of an OpenAPI document (`components.schemas`). */
export type SchemaMap = Record<string, JsonSchema>;

/**
 * Turns the newer version's schemas into the older version's, in place. The bundle hands each
 * edit its own copy, so an edit never reaches another version's schemas.
 */
export type SchemaEdit = (schemas: SchemaMap) => void;

/**
 * One breaking change, owned by the version that introduced it, applied backwards (newer → older)
 * to serve clients pinned to an older version. The same value drives the response bodies, the
 * request bodies, the routes, the OpenAPI reference and the changelog.
 *
 * Say it with `instructions` whenever they can: each one yields both the reshaping of bodies and
 * the edit of the reference, so the two cannot drift. `response`, `request` and `schema` are the
 * escape hatch for what instructions cannot say; they run after the instructions.
 */
export interface VersionChange {
  /** Verb-first identifier, e.g. `replacePdfUrlWithPdfObject`. */
  name: string;
  /** Client-facing: what changed and why. Markdown. */
  description: string;
  /** Declarative: what the older version looked like (see instructions.ts). */
  instructions?: readonly Instruction[];
  /** Resources the imperative transformers below touch (instructions name their own). */
  resources?: readonly (ResourceName | RequestName)[];
  /** Imperative: per resource, from the newer shape to the older one. */
  response?: Partial<Record<ResourceName, ResponseTransformer>>;
  /** Imperative: per request body, from the older shape to the newer one. */
  request?: Partial<Record<RequestName, RequestTransformer>>;
  /** Imperative: the matching edit of the reference, newer schemas → older schemas. */
  schema?: SchemaEdit;
  /**
   * True for a change of behaviour that no body transform can express (new validation, a
   * different side effect). Code asks `bundle.isApplied(version, change)` instead of comparing
   * versions; only changes declaring this may be asked about.
   */
  sideEffects?: boolean;
}

/** When a version stops being recommended, and when it may stop being served. */
export interface Deprecation {
  /** The day (`YYYY-MM-DD`, UTC midnight) from which the version is deprecated. */
  date: string;
  /** The day after which the version may no longer be served (`YYYY-MM-DD`, UTC midnight). */
  sunset?: string;
}

export interface ApiVersion {
  /** A release date (`YYYY-MM-DD`) or `latest`. */
  id: string;
  /** Unreleased versions are offered in sandbox only. */
  released: boolean;
  /** Client-facing note for the changelog, e.g. why a version has no change here. Markdown. */
  summary?: string;
  /**
   * Set when partners should move off this version: its responses then carry `Deprecation`,
   * `Sunset` and `Link` headers, and the changelog and reference say so.
   */
  deprecated?: Deprecation;
  /** The changes between this version and the one just older. */
  changes: readonly VersionChange[];
}

/**
 * What the bundle reshapes from: the canonical schemas and which of them are bodies. Supplied by
 * src/openapi/schemas.ts, so that instructions are checked against the real schemas.
 */
export interface CanonicalModel {
  /** The canonical (newest) named schemas, as published. */
  schemas: SchemaMap;
  /** Response resources (schema names) other than errors. */
  resources: readonly string[];
  /** Request bodies (schema names). */
  requests: readonly string[];
  /** The error types, each with the named schema documenting its body. */
  errors: Readonly<Record<string, string>>;
  /** Every route, as `METHOD path` with Hono path patterns. */
  routes: readonly string[];
}
