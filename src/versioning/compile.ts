// Compiles a bundle's changes, newest first, against the canonical model: per version, the steps
// that reshape responses back to it and requests forward from it, its schemas, its error schemas
// and its routes. Each step is built from the schemas as the next newer version has them, so a
// step only ever sees bodies in exactly that shape: no transformer needs to guard against a body
// that a newer change reshaped already. Mistakes (a field that is not there, a route not in the
// model) throw here, when the bundle is built, never while serving.
import { fieldEdit } from "./field-edit";
import { type BodyPath, isJsonObject, locate, updateAt } from "./reshape";
import type {
  ApiVersion,
  CanonicalModel,
  ErrorInstruction,
  FieldInstruction,
  Instruction,
  JsonObject,
  JsonSchema,
  JsonValue,
  RequestTransformer,
  ResponseContext,
  ResponseTransformer,
  SchemaMap,
  VersionChange,
} from "./types";

/** An error body on its way back, with its type as the current step names it. */
export interface ErrorState {
  /** Undefined for a body that is not an error envelope. */
  type: string | undefined;
  body: JsonValue;
}
export type ErrorStep = (state: ErrorState, ctx: ResponseContext) => void;

/** Everything the bundle serves, per version id. */
export interface Compiled {
  responses: Map<string, Map<string, ResponseTransformer[]>>;
  errors: Map<string, ErrorStep[]>;
  requests: Map<string, Map<string, RequestTransformer[]>>;
  schemas: Map<string, SchemaMap>;
  /** Per version: canonical error type → the schema documenting it there. */
  errorSchemas: Map<string, Record<string, string>>;
  /** Per version: routes (`METHOD path`) of the model that do not exist there. */
  absentRoutes: Map<string, Set<string>>;
  /** Per change: the schemas, errors and routes it touches, for the changelog. */
  touched: Map<VersionChange, string[]>;
}

/** The schema of `error.type` in an ApiError-style envelope schema, if it is one. */
function envelopeType(schema: JsonSchema | undefined): JsonSchema | undefined {
  return schema?.properties?.error?.properties?.type;
}

/** The type enum of an ApiError-style envelope schema, if it is one. */
function envelopeTypes(schema: JsonSchema | undefined): string[] | undefined {
  const types = envelopeType(schema)?.enum;
  return types?.every((type): type is string => typeof type === "string") ? types : undefined;
}

/** Sets the type enum of an envelope schema (one `envelopeTypes` found). */
function setEnvelopeTypes(schema: JsonSchema, types: string[]): void {
  const type = envelopeType(schema);
  if (type) type.enum = types;
}

/** A route the newest instruction about it says was removed does not exist in the canonical. */
function canonicalRoutes(versions: readonly ApiVersion[], model: CanonicalModel): Set<string> {
  const routes = new Set(model.routes);
  const decided = new Set<string>();
  for (const version of versions) {
    for (const change of version.changes) {
      for (const instruction of change.instructions ?? []) {
        if (instruction.kind !== "endpoint") continue;
        const key = `${instruction.method} ${instruction.path}`;
        if (decided.has(key)) continue;
        decided.add(key);
        if (instruction.was === "existed") routes.delete(key);
      }
    }
  }
  return routes;
}

/** The walk from the canonical model back to the oldest version. */
class Compiler {
  readonly schemas: SchemaMap;
  /** Canonical error type → its current name and documenting schema. */
  readonly errorState: Map<string, { name: string; schema: string }>;
  readonly routes: Set<string>;
  readonly responseSteps = new Map<string, ResponseTransformer[]>();
  readonly errorSteps: ErrorStep[] = [];
  /** In response order; a request chain runs them backwards. */
  readonly requestSteps: { root: string; fn: RequestTransformer }[] = [];
  readonly touched = new Map<VersionChange, string[]>();

  constructor(
    versions: readonly ApiVersion[],
    readonly model: CanonicalModel,
  ) {
    this.schemas = structuredClone(model.schemas);
    this.errorState = new Map(
      Object.entries(model.errors).map(([type, schema]) => [type, { name: type, schema }]),
    );
    this.routes = canonicalRoutes(versions, model);
  }

  /** Records what serving `version` needs: the changes compiled so far, all newer than it. */
  snapshot(version: string, into: Compiled): void {
    const requests = new Map<string, RequestTransformer[]>();
    for (const { root, fn } of [...this.requestSteps].reverse()) {
      requests.set(root, [...(requests.get(root) ?? []), fn]);
    }
    into.responses.set(
      version,
      new Map([...this.responseSteps].map(([root, fns]) => [root, [...fns]])),
    );
    into.errors.set(version, [...this.errorSteps]);
    into.requests.set(version, requests);
    into.schemas.set(version, structuredClone(this.schemas));
    into.errorSchemas.set(
      version,
      Object.fromEntries([...this.errorState].map(([type, e]) => [type, e.schema])),
    );
    into.absentRoutes.set(
      version,
      new Set(this.model.routes.filter((route) => !this.routes.has(route))),
    );
  }

  compileChange(change: VersionChange, where: string): void {
    const touched = new Set<string>(change.resources ?? []);
    for (const instruction of change.instructions ?? []) {
      this.compileInstruction(instruction, `${where}: ${describe(instruction)}`, touched);
    }
    for (const [name, fn] of Object.entries(change.response ?? {})) {
      if (!fn) continue;
      touched.add(name);
      if (name === "Error") {
        this.errorSteps.push((state, ctx) => {
          state.body = fn(state.body, ctx);
        });
      } else this.pushResponse(name, fn);
    }
    for (const [root, fn] of Object.entries(change.request ?? {})) {
      if (!fn) continue;
      touched.add(root);
      this.requestSteps.push({ root, fn });
    }
    change.schema?.(this.schemas);
    this.touched.set(change, [...touched]);
  }

  private pushResponse(root: string, fn: ResponseTransformer): void {
    this.responseSteps.set(root, [...(this.responseSteps.get(root) ?? []), fn]);
  }

  private compileInstruction(instruction: Instruction, where: string, touched: Set<string>) {
    if (instruction.kind === "field") this.compileField(instruction, where, touched);
    else if (instruction.kind === "error") this.compileError(instruction, where, touched);
    else {
      const key = `${instruction.method} ${instruction.path}`;
      if (!this.model.routes.includes(key)) throw new Error(`${where}: no such route in the model`);
      const exists = this.routes.has(key);
      if (instruction.was === "didntExist") {
        if (!exists) throw new Error(`${where}: the route does not exist at this point`);
        this.routes.delete(key);
      } else {
        if (exists) throw new Error(`${where}: the route exists at this point`);
        this.routes.add(key);
      }
      touched.add(key);
    }
  }

  /** Where a schema sits: in which responses, error bodies and request bodies, and at what paths. */
  private locations(target: string) {
    const at = (root: string) => [root, locate(this.schemas, root, target)] as const;
    const found = (entry: readonly [string, BodyPath[]]) => entry[1].length > 0;
    const errorRoots = [...new Set([...this.errorState.values()].map((e) => e.schema))];
    return {
      responses: this.model.resources.map(at).filter(found),
      errors: errorRoots.map(at).filter(found),
      requests: this.model.requests.map(at).filter(found),
    };
  }

  private compileField(instruction: FieldInstruction, where: string, touched: Set<string>) {
    const target = this.schemas[instruction.schema];
    if (!target?.properties) throw new Error(`${where}: no object schema of that name here`);
    const where_ = this.locations(instruction.schema);
    const inRequests = where_.requests.length > 0;
    const { older, newer } = fieldEdit(target, instruction, where, inRequests);
    touched.add(instruction.schema);
    if (!older || !newer) return;
    const edit = older;
    const upgrade = newer;
    const along =
      (paths: BodyPath[], fn: (object: JsonObject) => JsonObject) => (body: JsonValue) =>
        paths.reduce((out, path) => updateAt(out, path, fn), body);
    for (const [root, paths] of where_.responses) {
      touched.add(root);
      this.pushResponse(root, along(paths, edit));
    }
    for (const [root, paths] of where_.errors) {
      touched.add("Error");
      const types = new Set(
        [...this.errorState.values()].filter((e) => e.schema === root).map((e) => e.name),
      );
      const reshape = along(paths, edit);
      this.errorSteps.push((state) => {
        if (state.type !== undefined && types.has(state.type)) state.body = reshape(state.body);
      });
    }
    for (const [root, paths] of where_.requests) {
      touched.add(root);
      this.requestSteps.push({ root, fn: along(paths, upgrade) });
    }
  }

  private compileError(instruction: ErrorInstruction, where: string, touched: Set<string>) {
    const entries = instruction.types.map((name) => {
      const entry = [...this.errorState.values()].find((e) => e.name === name);
      if (!entry) throw new Error(`${where}: no error type ${name} here`);
      return entry;
    });
    const { had } = instruction;
    touched.add("Error");
    if (had.type !== undefined) {
      const [entry, ...others] = entries;
      if (!entry || others.length > 0) throw new Error(`${where}: rename one type at a time`);
      const name = entry.name;
      const older = had.type;
      if (!envelopeTypes(this.schemas[entry.schema])?.includes(name)) {
        throw new Error(
          `${where}: ${name} is not in an error envelope here; use the imperative form`,
        );
      }
      for (const schema of Object.values(this.schemas)) {
        const types = envelopeTypes(schema);
        if (types?.includes(name)) {
          setEnvelopeTypes(
            schema,
            types.map((t) => (t === name ? older : t)),
          );
        }
      }
      entry.name = older;
      this.errorSteps.push((state) => {
        const { body } = state;
        if (state.type !== name || !isJsonObject(body) || !isJsonObject(body.error)) return;
        state.body = { ...body, error: { ...body.error, type: older } };
        state.type = older;
      });
    }
    if (had.schema !== undefined || had.shape !== undefined || had.from !== undefined) {
      const { schema: name, shape, from } = had;
      if (!name || !shape || !from)
        throw new Error(`${where}: a shape change needs schema, shape and from`);
      const moved = new Set(entries.map((e) => e.name));
      this.schemas[name] = structuredClone(shape);
      for (const entry of entries) entry.schema = name;
      for (const [schemaName, schema] of Object.entries(this.schemas)) {
        const types = envelopeTypes(schema);
        if (schemaName === name || !types) continue;
        const kept = types.filter((t) => !moved.has(t));
        if (kept.length > 0) setEnvelopeTypes(schema, kept);
        else delete this.schemas[schemaName];
      }
      this.errorSteps.push((state, ctx) => {
        if (state.type !== undefined && moved.has(state.type)) state.body = from(state.body, ctx);
      });
    } else if (had.type === undefined) {
      throw new Error(`${where}: say the older type, or the older schema, shape and from`);
    }
  }
}

function describe(instruction: Instruction): string {
  if (instruction.kind === "field") return `${instruction.schema}.${instruction.field}`;
  if (instruction.kind === "error") return `error ${instruction.types.join(", ")}`;
  return `endpoint ${instruction.method} ${instruction.path}`;
}

/** Compiles every version of the bundle; throws on the first instruction that does not apply. */
export function compile(versions: readonly ApiVersion[], model: CanonicalModel): Compiled {
  const compiler = new Compiler(versions, model);
  const compiled: Compiled = {
    responses: new Map(),
    errors: new Map(),
    requests: new Map(),
    schemas: new Map(),
    errorSchemas: new Map(),
    absentRoutes: new Map(),
    touched: compiler.touched,
  };
  for (const version of versions) {
    compiler.snapshot(version.id, compiled);
    for (const change of version.changes) {
      compiler.compileChange(change, `change ${change.name} (version ${version.id})`);
    }
  }
  return compiled;
}
