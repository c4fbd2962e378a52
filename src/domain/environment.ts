// The two environments of a partner: keys, data, saved versions and webhook endpoints of one never
// reach the other. Sandbox also offers the unreleased API version.
export const ENVIRONMENTS = ["sandbox", "production"] as const;

export type Environment = (typeof ENVIRONMENTS)[number];

/** The environment whose keys may also choose the unreleased version. */
export const PREVIEW_ENVIRONMENT: Environment = "sandbox";
