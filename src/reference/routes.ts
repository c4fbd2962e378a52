// Public documentation, no key needed: the changelog, one OpenAPI document per version, and the
// reference (/docs): server-rendered, made interactive by Scalar served from this origin.
import { type Context, Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { merchantKeyHeader, versionHeader } from "../app/headers";
import type { Route } from "../app/route";
import type { Environment } from "../domain/environment";
import type { VersionBundle } from "../versioning";
import { buildChangelog } from "./changelog";
import { buildOpenApiDocument, type OpenApiDocument } from "./document";
import { changelogPage, referencePage, unknownVersionPage } from "./pages";

const documents = new WeakMap<VersionBundle, Map<string, OpenApiDocument>>();

/** The document of a version for an environment, built once per isolate, bundle and header naming. */
function documentOf(
  c: Context<AppEnv>,
  routes: readonly Route[],
  version: string,
  environment: Environment,
): OpenApiDocument {
  const bundle = c.get("bundle");
  const headers = { version: versionHeader(c.env), merchantKey: merchantKeyHeader(c.env) };
  const key = `${version} ${environment} ${headers.version} ${headers.merchantKey}`;
  let built = documents.get(bundle);
  if (!built) {
    built = new Map();
    documents.set(bundle, built);
  }
  let doc = built.get(key);
  if (!doc) {
    doc = buildOpenApiDocument(bundle, routes, version, headers, environment);
    built.set(key, doc);
  }
  return doc;
}

const versionsOf = (c: Context<AppEnv>) => c.get("bundle").versions.map((v) => v.id);

/**
 * The environment whose keys a reference is for (`?environment=`, sandbox by default: its keys
 * have every route), or why there is no such reference.
 */
function environmentOf(
  c: Context<AppEnv>,
  version: string,
): { environment: Environment } | { missing: string } {
  const asked = c.req.query("environment") ?? "sandbox";
  if (asked !== "sandbox" && asked !== "production") {
    return { missing: `There is no environment ${JSON.stringify(asked.slice(0, 64))}.` };
  }
  if (!c.get("bundle").isSupported(version, asked)) {
    return { missing: `Version ${JSON.stringify(version)} is for sandbox keys only.` };
  }
  return { environment: asked };
}

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

/** The documentation of `routes` (the service has one route list: documents are cached by bundle). */
export const docsRoutes = (routes: readonly Route[]) =>
  new Hono<AppEnv>()
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
      const keys = environmentOf(c, version);
      if ("missing" in keys) throw new ApiError("NOT_FOUND_ERROR", keys.missing);
      c.header("Cache-Control", CACHE);
      c.header("Access-Control-Allow-Origin", "*");
      return c.json(documentOf(c, routes, version, keys.environment));
    })
    .get("/docs", (c) => {
      const versions = versionsOf(c);
      const asked = c.req.query("version") ?? c.get("bundle").newestReleased;
      pageHeaders(c);
      if (!versions.includes(asked)) {
        const why = `There is no version ${JSON.stringify(asked.slice(0, 64))}.`;
        return c.html(unknownVersionPage(versions, why), 404);
      }
      const keys = environmentOf(c, asked);
      if ("missing" in keys) return c.html(unknownVersionPage(versions, keys.missing), 404);
      const { environment } = keys;
      return c.html(
        referencePage(versions, documentOf(c, routes, asked, environment), environment),
      );
    });
