// Declarative change instructions: each says what the version just older looked like, and the
// bundle derives from it both the reshaping of bodies and the edit of the reference. The builders
// are typed by the model's vocabulary, so a misspelt schema, field, error type or route fails to
// compile:
//
//   schema("Statement").field("overdue_amount").had({ name: "amount_overdue" })
//   schema("Statement").field("pdf").didntExist
//   schema("Statement").field("pdf_url").existedAs({ schema: {...}, from: (s) => s.pdf?.url })
//   error("FORBIDDEN_ERROR").had({ type: "ACCESS_DENIED_ERROR" })
//   error("INVALID_REQUEST_ERROR").had({ schema: "InvalidRequestError", shape: {...}, from })
//   endpoint("POST", "/v2/keys").didntExist
import type {
  EndpointInstruction,
  ErrorInstruction,
  ErrorWas,
  FieldExisted,
  FieldInstruction,
  FieldWas,
} from "./types";

/** The names a model offers to instructions. */
export interface Vocabulary {
  /** Per named schema, the names of its fields. */
  schemas: { [schema: string]: string };
  /** The error types. */
  errors: string;
  /** The routes, as `METHOD path`. */
  routes: string;
}

/** A field the schema has at this point: it may have differed, or be new. */
export interface FieldThatExists {
  had(was: FieldWas): FieldInstruction;
  readonly didntExist: FieldInstruction;
}

/** A field the schema no longer has: the newer version removed it. */
export interface FieldThatWasRemoved<Field extends string> {
  existedAs(was: FieldExisted<Field>): FieldInstruction;
}

/** What a field offers: a field of the schema, a removed one, or either for an untyped model. */
type FieldNamed<F extends string, Field extends string> = string extends Field
  ? FieldThatExists & FieldThatWasRemoved<string>
  : [F] extends [Field]
    ? FieldThatExists
    : FieldThatWasRemoved<Field>;

export interface SchemaInstructions<Field extends string> {
  /**
   * A field by its name in the canonical schema (checked by the type checker); a name the schema
   * does not have can only be a field that a newer version removed.
   */
  field<F extends string>(field: F): FieldNamed<F, Field>;
  /**
   * A field by a name the canonical schema no longer has, renamed or removed by a newer version
   * than the one just newer: the bundle checks it at that point when it is built.
   */
  olderField(field: string): FieldThatExists & FieldThatWasRemoved<string>;
}

type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
/** The paths of the routes of method `M` (any path for an untyped vocabulary). */
type PathOf<Routes extends string, M extends string> = string extends Routes
  ? string
  : Routes extends `${M} ${infer P}`
    ? P
    : never;

export interface Instructions<V extends Vocabulary> {
  /** `schema("Statement").field("overdue_amount").had({ name: "amount_overdue" })` */
  schema<S extends keyof V["schemas"] & string>(name: S): SchemaInstructions<V["schemas"][S]>;
  /** `error("FORBIDDEN_ERROR").had({ type: "ACCESS_DENIED_ERROR" })` */
  error(...types: [V["errors"], ...V["errors"][]]): { had(was: ErrorWas): ErrorInstruction };
  /** `endpoint("POST", "/v2/keys").didntExist` */
  endpoint<M extends Method>(
    method: M,
    path: PathOf<V["routes"], M>,
  ): { readonly didntExist: EndpointInstruction; readonly existed: EndpointInstruction };
}

function fieldOf(schema: string, field: string): FieldThatExists & FieldThatWasRemoved<string> {
  return {
    had: (had) => ({ kind: "field", schema, field, was: { had } }),
    get didntExist(): FieldInstruction {
      return { kind: "field", schema, field, was: { didntExist: true } };
    },
    existedAs: (existedAs) => ({ kind: "field", schema, field, was: { existedAs } }),
  };
}

/** The instruction builders of a model, typed by its vocabulary. */
export function instructionsFor<V extends Vocabulary>(): Instructions<V> {
  return {
    schema: (name) => ({
      // FieldNamed<…> is one face of what fieldOf returns (both); which one is only a type.
      field: (field) => fieldOf(name, field) as never,
      olderField: (field) => fieldOf(name, field),
    }),
    error: (...types) => ({ had: (had) => ({ kind: "error", types, had }) }),
    endpoint: (method, path) => ({
      get didntExist(): EndpointInstruction {
        return { kind: "endpoint", method, path, was: "didntExist" };
      },
      get existed(): EndpointInstruction {
        return { kind: "endpoint", method, path, was: "existed" };
      },
    }),
  };
}
