// The vocabulary of API versioning: a dated version is an ordered list of named changes, and a
// change is, preferably, a list of declarative instructions (see instructions.ts). Nothing here
// knows the application: resource, request and schema names are the model's, passed in.

/** What a transformer may know about the response besides its body. */
export interface ResponseContext {
  /** Request path, as the client sent it. */
  path: string;
  status: number;
  /** When the response is issued, RFC 3339. */
  timestamp: string;
}

/** A JSON value, as bodies hold it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object. A member whose value is `undefined` is left out when serialised. */
export interface JsonObject {
  [key: string]: JsonValue | undefined;
}

/** Reshapes a body of the newer version into the body of the version just older. Pure. */
export type ResponseTransformer = (body: JsonValue, ctx: ResponseContext) => JsonValue;

/** Reshapes a request body sent in the older version into the newer version's shape. Pure. */
export type RequestTransformer = (body: JsonValue) => JsonValue;

/**
 * A JSON Schema object (OpenAPI 3.1 dialect): the keywords the engine reads are typed, any
 * other keyword is carried as it is.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: JsonValue[];
  const?: JsonValue;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  [keyword: string]: unknown;
}

/** The named schemas of an OpenAPI document (`components.schemas`). */
export type SchemaMap = Record<string, JsonSchema>;

/**
 * Turns the newer version's schemas into the older version's, in place. The bundle hands each
 * edit its own copy, so an edit never reaches another version's schemas.
 */
export type SchemaEdit = (schemas: SchemaMap) => void;

/** How a field looked in the older version; every key is optional, at least one is needed. */
export interface FieldWas {
  /** The field's older name. The field keeps its position. */
  name?: string;
  /** The field's older JSON Schema: a change of type or format. Needs `toOlder`. */
  schema?: JsonSchema;
  /** Converts a newer value to the older type (responses). */
  toOlder?: (value: JsonValue | undefined) => JsonValue | undefined;
  /**
   * Converts an older value to the newer type (requests). Required when the schema is a request
   * body; it must not throw: a value it cannot convert goes through as it is, and validation of
   * the canonical request then reports it.
   */
  toNewer?: (value: JsonValue | undefined) => JsonValue | undefined;
  /** The field's older description (the reference only). */
  description?: string;
  /** Whether the field was required (the reference only). */
  required?: boolean;
}

/** A field that the newer version removed. */
export interface FieldExisted<Field extends string = string> {
  /** Its JSON Schema in the older version. */
  schema: JsonSchema;
  /** Required in the older version (default false). */
  required?: boolean;
  /** The field it followed in the older version; without it, it comes last. */
  after?: Field;
  /**
   * Its value in a response, from the object as the next newer version shows it; `undefined`
   * omits it. In a request body, an older client's value is dropped: the newer version has no
   * such field.
   */
  from: (object: JsonObject) => JsonValue | undefined;
}

export interface FieldInstruction {
  kind: "field";
  schema: string;
  field: string;
  /** `had`: the field differed; `didntExist`: it is new; `existedAs`: it was removed. */
  was: { had: FieldWas } | { didntExist: true } | { existedAs: FieldExisted };
}

/** How errors of some types looked in the older version. */
export interface ErrorWas {
  /** The older error type, for a single type that was renamed. Inside the envelope only. */
  type?: string;
  /**
   * The older body, for errors whose shape changed: `schema` names the schema documenting them
   * (created or replaced), `shape` is its JSON Schema, and `from` builds the older body from the
   * body as the next newer version shows it.
   */
  schema?: string;
  shape?: JsonSchema;
  from?: (body: JsonValue, ctx: ResponseContext) => JsonValue;
}

export interface ErrorInstruction {
  kind: "error";
  types: readonly string[];
  had: ErrorWas;
}

export interface EndpointInstruction {
  kind: "endpoint";
  method: string;
  /** The route's path pattern, exactly as the model lists it. */
  path: string;
  /** `didntExist`: the route is new in this version; `existed`: this version removed it. */
  was: "didntExist" | "existed";
}

export type Instruction = FieldInstruction | ErrorInstruction | EndpointInstruction;

/**
 * One breaking change, owned by the version that introduced it, applied backwards (newer → older)
 * to serve clients pinned to an older version. The same value drives the response bodies, the
 * request bodies, the routes, the OpenAPI reference and the changelog. `Resource` and `Request`
 * are the model's names of response and request bodies.
 *
 * Say it with `instructions` whenever they can: each one yields both the reshaping of bodies and
 * the edit of the reference, so the two cannot drift. `response`, `request` and `schema` are the
 * escape hatch for what instructions cannot say; they run after the instructions.
 */
export interface VersionChange<Resource extends string = string, Request extends string = string> {
  /** Verb-first identifier, e.g. `replacePdfUrlWithPdfObject`. */
  name: string;
  /** Client-facing: what changed and why. Markdown. */
  description: string;
  /** Declarative: what the older version looked like (see instructions.ts). */
  instructions?: readonly Instruction[];
  /** Resources the imperative transformers below touch (instructions name their own). */
  resources?: readonly (Resource | Request)[];
  /** Imperative: per resource, from the newer shape to the older one. */
  response?: Partial<Record<Resource, ResponseTransformer>>;
  /** Imperative: per request body, from the older shape to the newer one. */
  request?: Partial<Record<Request, RequestTransformer>>;
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

export interface ApiVersion<Change extends VersionChange = VersionChange> {
  /** A release date (`YYYY-MM-DD`) or `latest`. */
  id: string;
  /** Unreleased versions are offered only where the bundle previews them. */
  released: boolean;
  /** Client-facing note for the changelog, e.g. why a version has no change here. Markdown. */
  summary?: string;
  /**
   * Set when partners should move off this version: its responses then carry `Deprecation`,
   * `Sunset` and `Link` headers, and the changelog and reference say so.
   */
  deprecated?: Deprecation;
  /** The changes between this version and the one just older. */
  changes: readonly Change[];
}

/**
 * What the bundle reshapes from, supplied by the application: its canonical schemas and which of
 * them are bodies, so that instructions are checked against the real schemas.
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
  /** Every route, as `METHOD path` with the router's path patterns. */
  routes: readonly string[];
}
