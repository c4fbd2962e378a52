// The headers naming a response's version: the version itself, and for a deprecated version its
// Deprecation (RFC 9745), Sunset (RFC 8594) and a Link to its changelog entry.
import type { Context } from "hono";
import type { Deprecation } from "../versioning";
import type { AppEnv } from "./context";
import { versionHeader } from "./headers";
import { requestOrigin } from "./request-context";

/** UTC midnight of a `YYYY-MM-DD` day. */
const midnight = (day: string) => new Date(`${day}T00:00:00Z`);

/** Where a version's changelog entry is, relative to the service's origin. */
export function changelogEntryPath(version: string): string {
  return `/docs/changelog#v-${version}`;
}

/** The deprecation headers of a version (none when it is not deprecated). */
export function deprecationHeaders(
  version: string,
  deprecated: Deprecation | undefined,
  origin: string,
): Record<string, string> {
  if (!deprecated) return {};
  const entry = `<${origin}${changelogEntryPath(version)}>`;
  // RFC 9745: a structured-field Date, seconds since the epoch.
  const headers: Record<string, string> = {
    Deprecation: `@${midnight(deprecated.date).getTime() / 1000}`,
    Link: `${entry}; rel="deprecation"; type="text/html"`,
  };
  if (deprecated.sunset !== undefined) {
    // RFC 8594: an HTTP-date (IMF-fixdate), which toUTCString writes.
    headers.Sunset = midnight(deprecated.sunset).toUTCString();
    headers.Link += `, ${entry}; rel="sunset"; type="text/html"`;
  }
  return headers;
}

/** Names the response's version, and marks it when the version is deprecated. */
export function markVersion(c: Context<AppEnv>, version: string): void {
  c.header(versionHeader(c.env), version);
  const deprecated = c.get("bundle").versionOf(version)?.deprecated;
  if (!deprecated) return;
  const headers = deprecationHeaders(version, deprecated, requestOrigin(c));
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
}
