// The vocabulary of API versioning: a dated version is an ordered list of named changes.
export type Environment = "sandbox" | "production";

/** Names of the response bodies a change can reshape (the canonical schemas). */
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
 * Turns the newer version's schemas into the older version's, in place. The document generator
 * hands each edit its own copy, so an edit never reaches another version's document.
 */
export type SchemaEdit = (schemas: SchemaMap) => void;

/**
 * One breaking change, owned by the version that introduced it. Applied backwards (newer → older)
 * to serve clients pinned to an older version; the same value drives the response bodies, the
 * OpenAPI reference and the changelog.
 */
export interface VersionChange {
  /** Verb-first identifier, e.g. `replacePdfUrlWithPdfObject`. */
  name: string;
  /** Client-facing: what changed and why. */
  description: string;
  /** Resources whose shape or behaviour this change touches. */
  resources: readonly (ResourceName | RequestName)[];
  /** Transformers, per resource, from the newer shape to the older one. */
  response: Partial<Record<ResourceName, ResponseTransformer>>;
  /** Transformers, per request body, from the older shape to the newer one (the canonical). */
  request?: Partial<Record<RequestName, RequestTransformer>>;
  /** The matching edit of the reference: newer schemas → older schemas. */
  schema?: SchemaEdit;
  /**
   * True for a change of behaviour that no body transform can express (new validation, a
   * different side effect). Code asks `bundle.isApplied(version, change)` instead of comparing
   * versions; only changes declaring this may be asked about.
   */
  sideEffects?: boolean;
}

export interface ApiVersion {
  /** A release date (`YYYY-MM-DD`) or `latest`. */
  id: string;
  /** Unreleased versions are offered in sandbox only. */
  released: boolean;
  /** Client-facing note for the changelog, e.g. why a version has no change here. */
  summary?: string;
  /** The changes between this version and the one just older. */
  changes: readonly VersionChange[];
}
