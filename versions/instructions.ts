// Declarative change instructions: each says what the version just older looked like, and the
// bundle derives from it both the reshaping of bodies and the edit of the reference.
//
//   schema("Statement").field("overdue_amount").had({ name: "amount_overdue" })
//   schema("Statement").field("pdf").didntExist
//   schema("Statement").field("pdf_url").existedAs({ schema: {...}, from: (s) => s.pdf?.url })
//   error("FORBIDDEN_ERROR").had({ type: "ACCESS_DENIED_ERROR" })
//   error("INVALID_REQUEST_ERROR").had({ schema: "InvalidRequestError", shape: {...}, from })
//   endpoint("POST", "/v2/keys").didntExist
import type { Json, JsonSchema, ResponseContext } from "./types";

/** How a field looked in the older version; every key is optional, at least one is needed. */
export interface FieldWas {
  /** The field's older name. The field keeps its position. */
  name?: string;
  /** The field's older JSON Schema: a change of type or format. Needs `toOlder`. */
  schema?: JsonSchema;
  /** Converts a newer value to the older type (responses). */
  toOlder?: (value: Json) => Json;
  /**
   * Converts an older value to the newer type (requests). Required when the schema is a request
   * body; it must not throw: a value it cannot convert goes through as it is, and validation of
   * the canonical request then reports it.
   */
  toNewer?: (value: Json) => Json;
  /** The field's older description (the reference only). */
  description?: string;
  /** Whether the field was required (the reference only). */
  required?: boolean;
}

/** A field that the newer version removed. */
export interface FieldExisted {
  /** Its JSON Schema in the older version. */
  schema: JsonSchema;
  /** Required in the older version (default false). */
  required?: boolean;
  /** The field it followed in the older version; without it, it comes last. */
  after?: string;
  /**
   * Its value in a response, from the object as the next newer version shows it; `undefined`
   * omits it. In a request body, an older client's value is dropped: the newer version has no
   * such field.
   */
  from: (object: Json) => Json;
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
  from?: (body: Json, ctx: ResponseContext) => Json;
}

export interface ErrorInstruction {
  kind: "error";
  types: readonly string[];
  had: ErrorWas;
}

export interface EndpointInstruction {
  kind: "endpoint";
  method: string;
  /** The Hono path pattern, exactly as in the route table. */
  path: string;
  /** `didntExist`: the route is new in this version; `existed`: this version removed it. */
  was: "didntExist" | "existed";
}

export type Instruction = FieldInstruction | ErrorInstruction | EndpointInstruction;

/** Instructions about one field of a named schema. */
export interface FieldInstructions {
  had(was: FieldWas): FieldInstruction;
  readonly didntExist: FieldInstruction;
  existedAs(was: FieldExisted): FieldInstruction;
}

/** `schema("Statement").field("overdue_amount").had({ name: "amount_overdue" })` */
export function schema(name: string): { field(field: string): FieldInstructions } {
  return {
    field: (field) => ({
      had: (had) => ({ kind: "field", schema: name, field, was: { had } }),
      get didntExist(): FieldInstruction {
        return { kind: "field", schema: name, field, was: { didntExist: true } };
      },
      existedAs: (existedAs) => ({ kind: "field", schema: name, field, was: { existedAs } }),
    }),
  };
}

/** `error("FORBIDDEN_ERROR").had({ type: "ACCESS_DENIED_ERROR" })` */
export function error(...types: [string, ...string[]]): { had(was: ErrorWas): ErrorInstruction } {
  return { had: (had) => ({ kind: "error", types, had }) };
}

/** `endpoint("POST", "/v2/keys").didntExist` */
export function endpoint(
  method: string,
  path: string,
): { readonly didntExist: EndpointInstruction; readonly existed: EndpointInstruction } {
  return {
    get didntExist(): EndpointInstruction {
      return { kind: "endpoint", method, path, was: "didntExist" };
    },
    get existed(): EndpointInstruction {
      return { kind: "endpoint", method, path, was: "existed" };
    },
  };
}
