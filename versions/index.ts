// The ordered bundle of API versions, newest first, and the transform chains built from it.
import { v2025_05_05 } from "./2025-05-05";
import { v2026_10_13 } from "./2026-10-13";
import { latest } from "./latest";
import type {
  ApiVersion,
  Environment,
  Json,
  RequestName,
  RequestTransformer,
  ResourceName,
  ResponseContext,
  ResponseTransformer,
  VersionChange,
} from "./types";

export type * from "./types";

/** Newest first. Adding a version: one new module, one line here. */
export const VERSIONS: readonly ApiVersion[] = [latest, v2026_10_13, v2025_05_05];

/** A bundle checked for its invariants, with each version's transform chain precomputed. */
export interface VersionBundle {
  /** Newest first. */
  versions: readonly ApiVersion[];
  /** The newest released version: the default saved version of a new partner. */
  newestReleased: string;
  /** Versions a key of the environment may choose, newest first. */
  supported(environment: Environment): readonly string[];
  isSupported(version: string, environment: Environment): boolean;
  /** Reshapes a canonical body into the shape of `version`. */
  transform(version: string, resource: ResourceName, body: Json, ctx: ResponseContext): Json;
  /** Reshapes a request body sent in `version` into the canonical shape handlers read. */
  upgradeRequest(version: string, request: RequestName, body: Json): Json;
  /**
   * Whether a client on `version` gets the behaviour `change` introduced: the one way code may
   * branch on a version. Throws for a change that is not in the bundle or not `sideEffects`.
   */
  isApplied(version: string, change: VersionChange): boolean;
  /** The changes newer than `version`, newest first: what is undone to serve it. */
  changesNewerThan(version: string): readonly VersionChange[];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const VERB_FIRST = /^[a-z]+[A-Z][A-Za-z0-9]*$/;

/** True for `YYYY-MM-DD` naming a day that exists. */
function isCalendarDate(id: string): boolean {
  const match = DATE.exec(id);
  if (!match) return false;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return day.toISOString().slice(0, 10) === id;
}

function checkChange(version: ApiVersion, change: VersionChange): void {
  const where = `change ${change.name} (version ${version.id})`;
  if (!VERB_FIRST.test(change.name)) throw new Error(`${where}: the name must be verb-first`);
  if (change.description.trim() === "") throw new Error(`${where} needs a description`);
  const touched = [...Object.keys(change.response), ...Object.keys(change.request ?? {})];
  for (const resource of touched) {
    if (!(change.resources as readonly string[]).includes(resource)) {
      throw new Error(`${where} transforms ${resource} but does not list it in its resources`);
    }
  }
}

/** Throws if the bundle breaks an invariant; called at start-up and in tests. */
export function checkBundle(versions: readonly ApiVersion[]): void {
  const ids = new Set<string>();
  const changeNames = new Set<string>();
  const changes = new Set<VersionChange>();
  for (const v of versions) {
    if (ids.has(v.id)) throw new Error(`version ${v.id} is listed twice`);
    ids.add(v.id);
    if (v.id === "latest" ? v.released : !isCalendarDate(v.id) || !v.released) {
      throw new Error(`version ${v.id}: only dated versions are released, and latest is not`);
    }
    for (const change of v.changes) {
      if (changeNames.has(change.name) || changes.has(change)) {
        throw new Error(`change ${change.name} is in two versions`);
      }
      changeNames.add(change.name);
      changes.add(change);
      checkChange(v, change);
    }
  }
  if (versions.findIndex((v) => v.id === "latest") > 0) throw new Error("latest must come first");
  const dated = versions.filter((v) => v.id !== "latest");
  for (let i = 1; i < dated.length; i++) {
    if ((dated[i - 1]?.id ?? "") <= (dated[i]?.id ?? "")) {
      throw new Error("dated versions must be unique and ordered newest first");
    }
  }
  const oldest = versions[versions.length - 1];
  if (!oldest || oldest.id === "latest") throw new Error("the bundle needs a released version");
  if (oldest.changes.length > 0) throw new Error(`the oldest version ${oldest.id} has changes`);
}

/** Per version, the functions to run in order, grouped by the body they reshape. */
type Chains<Name extends string, Fn> = Map<string, Map<Name, Fn[]>>;

function addTo<Name extends string, Fn>(chain: Map<Name, Fn[]>, name: Name, fn: Fn): void {
  const list = chain.get(name) ?? [];
  list.push(fn);
  chain.set(name, list);
}

/** Builds a bundle: checks it, then precomputes per version the transformers to apply in order. */
export function createBundle(versions: readonly ApiVersion[]): VersionBundle {
  checkBundle(versions);
  const responseChains: Chains<ResourceName, ResponseTransformer> = new Map();
  const requestChains: Chains<RequestName, RequestTransformer> = new Map();
  const newerChanges = new Map<string, VersionChange[]>();
  // A response to version V has every newer change undone, newest change first; a request sent
  // in V is brought forward through the same changes, oldest first.
  versions.forEach((version, index) => {
    const newer = versions.slice(0, index).flatMap((v) => v.changes);
    const responses = new Map<ResourceName, ResponseTransformer[]>();
    const requests = new Map<RequestName, RequestTransformer[]>();
    for (const change of newer) {
      for (const [name, fn] of Object.entries(change.response)) {
        addTo(responses, name as ResourceName, fn);
      }
    }
    for (const change of [...newer].reverse()) {
      for (const [name, fn] of Object.entries(change.request ?? {})) {
        addTo(requests, name as RequestName, fn);
      }
    }
    responseChains.set(version.id, responses);
    requestChains.set(version.id, requests);
    newerChanges.set(version.id, newer);
  });
  // A change is applied for its own version and every newer one (smaller index: newer).
  const rank = new Map(versions.map((v, index) => [v.id, index]));
  const rankOfChange = new Map<VersionChange, number>();
  versions.forEach((v, index) => {
    for (const change of v.changes) rankOfChange.set(change, index);
  });

  const released = versions.filter((v) => v.released).map((v) => v.id);
  const all = versions.map((v) => v.id);
  return {
    versions,
    newestReleased: released[0] as string,
    supported: (environment) => (environment === "sandbox" ? all : released),
    isSupported: (version, environment) =>
      (environment === "sandbox" ? all : released).includes(version),
    transform(version, resource, body, ctx) {
      const fns = responseChains.get(version)?.get(resource);
      if (!fns) return body;
      let out = body;
      for (const fn of fns) out = fn(out, ctx);
      return out;
    },
    upgradeRequest(version, request, body) {
      const fns = requestChains.get(version)?.get(request);
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
  };
}

export const bundle: VersionBundle = createBundle(VERSIONS);
