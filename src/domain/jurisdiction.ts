// Jurisdictions: where a partner's data must stay. A partner's is fixed when it is created, and
// every store of its data is of that jurisdiction: its shard (a D1 database created with
// `--jurisdiction`), its documents' bucket, its request logs' queue. `none` promises nothing: the
// stores of partners without a residency requirement.

/** The jurisdictions, as Cloudflare's D1, R2 and Queues name them, and `none`. */
export const JURISDICTIONS = ["none", "eu", "us", "fedramp"] as const;

export type Jurisdiction = (typeof JURISDICTIONS)[number];

/** A new partner's jurisdiction when its import item names none. */
export const DEFAULT_JURISDICTION: Jurisdiction = "none";

export function isJurisdiction(value: unknown): value is Jurisdiction {
  return JURISDICTIONS.some((jurisdiction) => jurisdiction === value);
}

/** Where data of the jurisdiction stays, in words (the dashboard's settings page, the docs). */
export function jurisdictionPlace(jurisdiction: Jurisdiction): string {
  switch (jurisdiction) {
    case "none":
      return "no jurisdiction: wherever the platform places it";
    case "eu":
      return "the European Union";
    case "us":
      return "the United States";
    case "fedramp":
      return "FedRAMP-Moderate data centres";
  }
}

/**
 * The suffix of a store's binding for a jurisdiction: `PDFS` holds the documents of partners
 * without one, `PDFS_EU` those of `eu` partners, and so on.
 */
export function jurisdictionSuffix(jurisdiction: Jurisdiction): string {
  return jurisdiction === "none" ? "" : `_${jurisdiction.toUpperCase()}`;
}
