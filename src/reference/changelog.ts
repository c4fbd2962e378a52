// The changelog: every version, newest first, with the changes it made, from the version modules.
import type { VersionBundle } from "../versioning";

export interface ChangelogEntry {
  /** The release date, or `latest`. */
  version: string;
  released: boolean;
  /** Environments whose keys may choose this version. */
  environments: ("sandbox" | "production")[];
  summary?: string;
  /** The day the version was deprecated; its responses carry a `Deprecation` header. */
  deprecated?: string;
  /** The day after which the version may no longer be served (`Sunset` header). */
  sunset?: string;
  /** Where this version's OpenAPI document is served. */
  reference: string;
  changes: {
    name: string;
    description: string;
    /** The schemas, bodies (`Error` for error bodies) and routes the change touches. */
    resources: string[];
    /** True when the change alters behaviour, not only the shape of a body. */
    behaviour: boolean;
  }[];
}

export function buildChangelog(bundle: VersionBundle): { versions: ChangelogEntry[] } {
  return {
    versions: bundle.versions.map((v) => ({
      version: v.id,
      released: v.released,
      environments: v.released ? ["sandbox", "production"] : ["sandbox"],
      ...(v.summary === undefined ? {} : { summary: v.summary }),
      ...(v.deprecated ? { deprecated: v.deprecated.date } : {}),
      ...(v.deprecated?.sunset ? { sunset: v.deprecated.sunset } : {}),
      reference: `/openapi/${v.id}.json`,
      changes: v.changes.map((change) => ({
        name: change.name,
        description: change.description,
        resources: [...bundle.touchedBy(change)],
        behaviour: change.sideEffects === true,
      })),
    })),
  };
}
