// Public documentation, no key needed: the changelog, one OpenAPI document per version, and the
// reference (/docs): server-rendered, made interactive by Scalar served from this origin.
import { type Context, Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { merchantKeyHeader, versionHeader } from "../app/headers";
import type { VersionBundle } from "../versioning";
import { buildChangelog } from "./changelog";
import { buildOpenApiDocument, type OpenApiDocument } from "./document";
import { changelogPage, referencePage, unknownVersionPage } from "./pages";

const documents = new WeakMap<VersionBundle, Map<string, OpenApiDocument>>();

/** The document of a version, built once per isolate, bundle and header naming. */
function documentOf(c: Context<AppEnv>, version: string): OpenApiDocument {
  const bundle = c.get("bundle");
  const headers = { version: versionHeader(c.env), merchantKey: merchantKeyHeader(c.env) };
  const key = `${version} ${headers.version} ${headers.merchantKey}`;
  let built = documents.get(bundle);
  if (!built) {
    built = new Map();
    documents.set(bundle, built);
  }
  let doc = built.get(key);
  if (!doc) {
    doc = buildOpenApiDocument(bundle, version, headers);
    built.set(key, doc);
  }
  return doc;
}

const versionsOf = (c: Context<AppEnv>) => c.get("bundle").versions.map((v) => v.id);

const CACHE = "public, max-age=300";

/**
 * The pages run only scripts from this origin (no inline script, no eval); the reference's
 * injected styles need inline styles. Nothing is loaded from, or sent to, another origin.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

function pageHeaders(c: Context<AppEnv>): void {
  c.header("Cache-Control", CACHE);
  c.header("Content-Security-Policy", DOCS_CSP);
  c.header("X-Frame-Options", "DENY");
  c.header("Referrer-Policy", "no-referrer");
}

export const docsRoutes = new Hono<AppEnv>()
  .get("/changelog", (c) => {
    c.header("Cache-Control", CACHE);
    return c.json(buildChangelog(c.get("bundle")));
  })
  .get("/docs/changelog", (c) => {
    pageHeaders(c);
    return c.html(changelogPage(buildChangelog(c.get("bundle")).versions));
  })
  .get("/openapi/:file", (c) => {
    const versions = versionsOf(c);
    const file = c.req.param("file");
    const version = file.endsWith(".json") ? file.slice(0, -".json".length) : null;
    if (version === null || !versions.includes(version)) {
      throw new ApiError(
        "NOT_FOUND_ERROR",
        `No OpenAPI document ${JSON.stringify(file.slice(0, 64))}. ` +
          `Documents: ${versions.map((v) => `${v}.json`).join(", ")}.`,
      );
    }
    c.header("Cache-Control", CACHE);
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(documentOf(c, version));
  })
  .get("/docs", (c) => {
    const versions = versionsOf(c);
    const asked = c.req.query("version") ?? c.get("bundle").newestReleased;
    pageHeaders(c);
    if (!versions.includes(asked)) return c.html(unknownVersionPage(versions, asked), 404);
    return c.html(referencePage(versions, documentOf(c, asked)));
  });
