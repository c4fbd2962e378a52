// Public documentation, no key needed: the changelog, one OpenAPI document per version, and the
// interactive reference (Scalar) with a version picker.
import { Scalar } from "@scalar/hono-api-reference";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { html } from "hono/html";
import type { VersionBundle } from "../../versions";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { merchantKeyHeader, versionHeader } from "../app/headers";
import { buildChangelog } from "../openapi/changelog";
import { buildOpenApiDocument, type OpenApiDocument } from "../openapi/document";
import { changelogPage, docsBar, operationListing, unknownVersionPage } from "../openapi/pages";

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
 * Wraps Scalar's page: our version picker above it, and the operations listed as plain HTML for
 * browsers that cannot load Scalar's script (it comes from a CDN); hidden once Scalar runs.
 */
const withPickerAndListing: MiddlewareHandler<AppEnv> = async (c, next) => {
  const versions = versionsOf(c);
  const asked = c.req.query("version") ?? c.get("bundle").newestReleased;
  if (!versions.includes(asked)) return c.html(unknownVersionPage(versions, asked), 404);
  await next();
  const page = await c.res.text();
  const top = await html`${docsBar(versions, asked)}${operationListing(documentOf(c, asked))}`;
  const hideListing =
    '<script>if (window.Scalar) document.getElementById("operations").hidden = true;</script>';
  const body = page
    .replace('<div id="app"></div>', `${top}<div id="app"></div>`)
    .replace("</body>", `${hideListing}</body>`);
  if (body === page) throw new Error("unexpected Scalar page layout");
  c.res = new Response(body, { status: 200, headers: c.res.headers });
  c.header("Cache-Control", CACHE);
};

export const docsRoutes = new Hono<AppEnv>()
  .get("/changelog", (c) => {
    c.header("Cache-Control", CACHE);
    return c.json(buildChangelog(c.get("bundle")));
  })
  .get("/docs/changelog", (c) => {
    c.header("Cache-Control", CACHE);
    return c.html(changelogPage(buildChangelog(c.get("bundle")).versions));
  })
  .get("/openapi/:file", (c) => {
    const file = c.req.param("file");
    const versions = versionsOf(c);
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
  .get(
    "/docs",
    withPickerAndListing,
    Scalar<AppEnv>((c) => {
      const version = c.req.query("version") ?? c.get("bundle").newestReleased;
      return {
        url: `/openapi/${version}.json`,
        pageTitle: `Card Account Statements API · ${version}`,
      };
    }),
  );
