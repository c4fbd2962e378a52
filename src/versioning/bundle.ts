// A bundle of API versions, newest first, checked and compiled against a canonical model: bodies
// reshaped per version, requests brought forward, and per version its reference, errors and routes.
import { checkBundle } from "./check";
import { compile } from "./compile";
import { isJsonObject } from "./reshape";
import type {
  ApiVersion,
  CanonicalModel,
  JsonValue,
  ResponseContext,
  SchemaMap,
  VersionChange,
} from "./types";

/** A bundle checked for its invariants, with each version's chains precomputed. */
export interface VersionBundle {
  /** Newest first. */
  versions: readonly ApiVersion[];
  /** The newest released version: the default saved version of a new partner. */
  newestReleased: string;
  /** Versions a client in `environment` may choose, newest first. */
  supported(environment: string): readonly string[];
  isSupported(version: string, environment: string): boolean;
  /** The version's entry; undefined for a version the bundle does not hold. */
  versionOf(version: string): ApiVersion | undefined;
  /** Reshapes a canonical body into the shape of `version`. Never mutates `body`. */
  transform(version: string, resource: string, body: JsonValue, ctx: ResponseContext): JsonValue;
  /**
   * Reshapes a request body sent in `version` into the canonical shape handlers read. Throws
   * `UnknownRequestField` for a field that `version` does not have.
   */
  upgradeRequest(version: string, request: string, body: JsonValue): JsonValue;
  /**
   * Whether a client on `version` gets the behaviour `change` introduced: the one way code may
   * branch on a version. Throws for a change that is not in the bundle or not `sideEffects`.
   */
  isApplied(version: string, change: VersionChange): boolean;
  /** The changes newer than `version`, newest first: what is undone to serve it. */
  changesNewerThan(version: string): readonly VersionChange[];
  /** The named schemas of `version`'s reference (a fresh copy). */
  schemasOf(version: string): SchemaMap;
  /** Per canonical error type, the schema documenting its body in `version`. */
  errorSchemasOf(version: string): Readonly<Record<string, string>>;
  /** False for a route of the model that `version` does not have (added later, or removed). */
  routeExists(version: string, method: string, path: string): boolean;
  /** What a change touches: schemas, resources, `Error`, routes (for the changelog). */
  touchedBy(change: VersionChange): readonly string[];
}

export interface BundleOptions {
  /** The environment whose clients may also choose unreleased versions (a sandbox). */
  previewIn: string;
}

/**
 * Builds a bundle: checks it, then compiles per version what it serves. Every environment is
 * offered the released versions; `previewIn` is offered the unreleased ones too.
 */
export function createBundle(
  versions: readonly ApiVersion[],
  model: CanonicalModel,
  options: BundleOptions,
): VersionBundle {
  checkBundle(versions);
  const compiled = compile(versions, model);
  const newerChanges = new Map<string, VersionChange[]>();
  versions.forEach((version, index) => {
    newerChanges.set(
      version.id,
      versions.slice(0, index).flatMap((v) => v.changes),
    );
  });
  // A change is applied for its own version and every newer one (smaller index: newer).
  const rank = new Map(versions.map((v, index) => [v.id, index]));
  const rankOfChange = new Map<VersionChange, number>();
  versions.forEach((v, index) => {
    for (const change of v.changes) rankOfChange.set(change, index);
  });
  const byId = new Map(versions.map((v) => [v.id, v]));
  const released = versions.filter((v) => v.released).map((v) => v.id);
  const [newestReleased] = released;
  // checkBundle refused a bundle whose oldest version is not released.
  if (newestReleased === undefined) throw new Error("the bundle needs a released version");
  const all = versions.map((v) => v.id);
  const known = (version: string) => {
    if (!byId.has(version)) throw new Error(`unknown version ${version}`);
    return version;
  };

  return {
    versions,
    newestReleased,
    supported: (environment) => (environment === options.previewIn ? all : released),
    isSupported: (version, environment) =>
      (environment === options.previewIn ? all : released).includes(version),
    versionOf: (version) => byId.get(version),
    transform(version, resource, body, ctx) {
      if (resource === "Error") {
        const steps = compiled.errors.get(version);
        if (!steps || steps.length === 0) return body;
        const error = isJsonObject(body) ? body.error : undefined;
        const type = isJsonObject(error) && typeof error.type === "string" ? error.type : undefined;
        const state = { type, body };
        for (const step of steps) step(state, ctx);
        return state.body;
      }
      const fns = compiled.responses.get(version)?.get(resource);
      if (!fns) return body;
      let out = body;
      for (const fn of fns) out = fn(out, ctx);
      return out;
    },
    upgradeRequest(version, request, body) {
      const fns = compiled.requests.get(version)?.get(request);
      if (!fns) return body;
      let out = body;
      for (const fn of fns) out = fn(out);
      return out;
    },
    isApplied(version, change) {
      const changeRank = rankOfChange.get(change);
      if (changeRank === undefined || !change.sideEffects) {
        throw new Error(`change ${change.name} is not a side-effect change of this bundle`);
      }
      const versionRank = rank.get(version);
      if (versionRank === undefined) throw new Error(`unknown version ${version}`);
      return versionRank <= changeRank;
    },
    changesNewerThan: (version) => newerChanges.get(version) ?? [],
    schemasOf: (version) => structuredClone(compiled.schemas.get(known(version)) ?? {}),
    errorSchemasOf: (version) => compiled.errorSchemas.get(known(version)) ?? {},
    routeExists: (version, method, path) =>
      !compiled.absentRoutes.get(version)?.has(`${method} ${path}`),
    touchedBy: (change) => compiled.touched.get(change) ?? [],
  };
}
