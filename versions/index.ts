// The ordered bundle of API versions, newest first, and the transform chain built from it.
import { v2025_05_05 } from "./2025-05-05";
import { v2026_10_13 } from "./2026-10-13";
import { latest } from "./latest";
import type {
  ApiVersion,
  Environment,
  Json,
  ResourceName,
  ResponseContext,
  ResponseTransformer,
} from "./types";

export type * from "./types";

/** Newest first. Adding a version: one new module, one line here. */
export const VERSIONS: readonly ApiVersion[] = [latest, v2026_10_13, v2025_05_05];

/** A bundle checked for its invariants, with each version's transform chain precomputed. */
export interface VersionBundle {
  versions: readonly ApiVersion[];
  /** The newest released version: the default saved version of a new partner. */
  newestReleased: string;
  /** Versions a key of the environment may choose, newest first. */
  supported(environment: Environment): readonly string[];
  isSupported(version: string, environment: Environment): boolean;
  /** Reshapes a canonical body into the shape of `version`. */
  transform(version: string, resource: ResourceName, body: Json, ctx: ResponseContext): Json;
}

/** Throws if the bundle breaks an invariant; called at start-up and in tests. */
export function checkBundle(versions: readonly ApiVersion[]): void {
  const ids = new Set<string>();
  const changeNames = new Set<string>();
  const dated = versions.filter((v) => v.id !== "latest");
  for (const v of versions) {
    if (ids.has(v.id)) throw new Error(`version ${v.id} is listed twice`);
    ids.add(v.id);
    if (v.id === "latest" ? v.released : !/^\d{4}-\d{2}-\d{2}$/.test(v.id) || !v.released) {
      throw new Error(`version ${v.id}: only dated versions are released, and latest is not`);
    }
    for (const change of v.changes) {
      if (changeNames.has(change.name)) throw new Error(`change ${change.name} is in two versions`);
      changeNames.add(change.name);
    }
  }
  if (versions.findIndex((v) => v.id === "latest") > 0) throw new Error("latest must come first");
  for (let i = 1; i < dated.length; i++) {
    if ((dated[i - 1]?.id ?? "") <= (dated[i]?.id ?? "")) {
      throw new Error("dated versions must be unique and ordered newest first");
    }
  }
  const oldest = versions[versions.length - 1];
  if (!oldest || oldest.id === "latest") throw new Error("the bundle needs a released version");
  if (oldest.changes.length > 0) throw new Error(`the oldest version ${oldest.id} has changes`);
}

/** Builds a bundle: checks it, then precomputes per version the transformers to apply in order. */
export function createBundle(versions: readonly ApiVersion[]): VersionBundle {
  checkBundle(versions);
  const chains = new Map<string, Map<ResourceName, ResponseTransformer[]>>();
  // A client on version V gets every change newer than V undone, newest change first.
  versions.forEach((version, index) => {
    const chain = new Map<ResourceName, ResponseTransformer[]>();
    for (const newer of versions.slice(0, index)) {
      for (const change of newer.changes) {
        for (const [resource, fn] of Object.entries(change.response)) {
          const list = chain.get(resource as ResourceName) ?? [];
          list.push(fn);
          chain.set(resource as ResourceName, list);
        }
      }
    }
    chains.set(version.id, chain);
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
      const fns = chains.get(version)?.get(resource);
      if (!fns) return body;
      let out = body;
      for (const fn of fns) out = fn(out, ctx);
      return out;
    },
  };
}

export const bundle: VersionBundle = createBundle(VERSIONS);
