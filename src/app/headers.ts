// Wire names of the brand-carrying headers: `x-${BRAND}-version`, `x-${BRAND}-merchant-key`.

/** The brand word in header names; configurable per deployment, `service` by default. */
function brand(env: { BRAND?: string }): string {
  return (env.BRAND ?? "").trim().toLowerCase() || "service";
}

export function versionHeader(env: { BRAND?: string }): string {
  return `x-${brand(env)}-version`;
}

export function merchantKeyHeader(env: { BRAND?: string }): string {
  return `x-${brand(env)}-merchant-key`;
}
