// Versions for tests, always derived from the bundle the service runs: a test that varies by
// version covers a version added to the bundle without being edited.
import { bundle } from "../../src/bundle";
import type { VersionBundle, VersionChange } from "../../src/versioning";

/** Every version, newest first. */
export const ALL_VERSIONS: readonly string[] = bundle.versions.map((v) => v.id);
/** The versions a production key may choose, newest first. */
export const RELEASED_VERSIONS: readonly string[] = bundle.supported("production");
/** The oldest version (a new test partner's saved version). */
export const OLDEST = ALL_VERSIONS.at(-1) as string;
/** The newest released version (a new partner's default). */
export const NEWEST_RELEASED = bundle.newestReleased;
/** The unreleased versions (sandbox only). */
export const UNRELEASED_VERSIONS: readonly string[] = ALL_VERSIONS.filter(
  (v) => !RELEASED_VERSIONS.includes(v),
);

/** The change of that name in the bundle; throws if there is none. */
export function changeNamed(name: string, of: VersionBundle = bundle): VersionChange {
  const change = of.versions.flatMap((v) => v.changes).find((c) => c.name === name);
  if (!change) throw new Error(`no change ${name} in the bundle`);
  return change;
}

/** Versions that have the change (it is theirs or older). */
export function versionsWith(name: string, of: VersionBundle = bundle): string[] {
  const change = changeNamed(name, of);
  return of.versions.map((v) => v.id).filter((v) => !of.changesNewerThan(v).includes(change));
}

/** Versions that predate the change: it is undone for them. */
export function versionsBefore(name: string, of: VersionBundle = bundle): string[] {
  const change = changeNamed(name, of);
  return of.versions.map((v) => v.id).filter((v) => of.changesNewerThan(v).includes(change));
}

/** A version sandbox keys may choose and production keys may not. */
export const SANDBOX_ONLY = UNRELEASED_VERSIONS[0] as string;
