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
  | "Error";

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

/**
 * One breaking change, owned by the version that introduced it. Applied backwards (newer → older)
 * to serve clients pinned to an older version.
 */
export interface VersionChange {
  /** Verb-first identifier, e.g. `replacePdfUrlWithPdfObject`. */
  name: string;
  /** Client-facing: what changed and why. */
  description: string;
  /** Resources whose shape this change touches. */
  resources: readonly ResourceName[];
  /** Transformers, per resource, from the newer shape to the older one. */
  response: Partial<Record<ResourceName, ResponseTransformer>>;
}

export interface ApiVersion {
  /** A release date (`YYYY-MM-DD`) or `latest`. */
  id: string;
  /** Unreleased versions are offered in sandbox only. */
  released: boolean;
  /** The changes between this version and the one just older. */
  changes: readonly VersionChange[];
}
