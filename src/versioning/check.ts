// The bundle's structural invariants, checked before anything is compiled: at start-up (so a
// broken bundle never serves a request) and in tests.
import type { ApiVersion, VersionChange } from "./types";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const VERB_FIRST = /^[a-z]+[A-Z][A-Za-z0-9]*$/;

/** True for `YYYY-MM-DD` naming a day that exists. */
export function isCalendarDate(id: string): boolean {
  const match = DATE.exec(id);
  if (!match) return false;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return day.toISOString().slice(0, 10) === id;
}

function checkChange(version: ApiVersion, change: VersionChange): void {
  const where = `change ${change.name} (version ${version.id})`;
  if (!VERB_FIRST.test(change.name)) throw new Error(`${where}: the name must be verb-first`);
  if (change.description.trim() === "") throw new Error(`${where} needs a description`);
  const says =
    (change.instructions?.length ?? 0) > 0 ||
    Object.keys(change.response ?? {}).length > 0 ||
    Object.keys(change.request ?? {}).length > 0 ||
    change.schema !== undefined ||
    change.sideEffects === true;
  if (!says) throw new Error(`${where} changes nothing: give it instructions`);
  const touched = [...Object.keys(change.response ?? {}), ...Object.keys(change.request ?? {})];
  const listed: readonly string[] = change.resources ?? [];
  for (const resource of touched) {
    if (!listed.includes(resource)) {
      throw new Error(`${where} transforms ${resource} but does not list it in its resources`);
    }
  }
}

function checkDeprecation(version: ApiVersion, newestReleased: string | undefined): void {
  const deprecated = version.deprecated;
  if (!deprecated) return;
  const where = `version ${version.id}`;
  if (version.id === "latest") throw new Error(`${where}: latest cannot be deprecated`);
  if (version.id === newestReleased) {
    throw new Error(`${where}: the newest released version cannot be deprecated`);
  }
  if (!isCalendarDate(deprecated.date)) throw new Error(`${where}: deprecation date is not a day`);
  if (deprecated.sunset !== undefined) {
    if (!isCalendarDate(deprecated.sunset)) throw new Error(`${where}: sunset is not a day`);
    if (deprecated.sunset < deprecated.date) {
      throw new Error(`${where}: the sunset comes before the deprecation`);
    }
  }
}

/** Throws if the bundle breaks an invariant. */
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
  const newestReleased = versions.find((v) => v.released)?.id;
  for (const v of versions) checkDeprecation(v, newestReleased);
}
