// A partner's two environments. Keys, data, saved versions and webhook endpoints of one never reach
// the other, so a partner can try anything in sandbox without touching production.
export const ENVIRONMENTS = ["sandbox", "production"] as const;

export type Environment = (typeof ENVIRONMENTS)[number];

/** The one environment whose keys may also ask for the unreleased version, `latest`. */
export const PREVIEW_ENVIRONMENT: Environment = "sandbox";
