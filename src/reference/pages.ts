// Server-rendered HTML pages: the reference (/docs), the changelog and an unknown version. They
// work without script; the one script they load is ours, from this origin (a strict CSP allows
// nothing else), and the interactive reference is served from this origin too.
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { ENVIRONMENTS, type Environment } from "../domain/environment";
import type { ChangelogEntry } from "./changelog";
import type { OpenApiDocument } from "./document";
import { operationListing } from "./listing";
import { renderInlineMarkdown, renderMarkdown } from "./markdown";

type Html = HtmlEscapedString | Promise<HtmlEscapedString> | "";

/** Scalar's standalone bundle, copied from node_modules into the static assets. */
export const REFERENCE_SCRIPT = "/docs/vendor/scalar-api-reference.js";
/** The pages' own script (public/docs/docs.js): the picker, and starting the reference. */
export const DOCS_SCRIPT = "/docs/docs.js";

const STYLE = raw(`<style>
  .docs-bar, .docs-page { font: 15px/1.5 system-ui, sans-serif; color: #1b1b1f; }
  .docs-bar { display: flex; gap: 1.5rem; align-items: center; flex-wrap: wrap;
    padding: .6rem 1.2rem; border-bottom: 1px solid #ddd; background: #fafafa; }
  .docs-bar a { color: #0b5cad; } .docs-bar strong { margin-right: auto; }
  .docs-page { max-width: 64rem; margin: 0 auto; padding: 1rem 1.2rem 3rem; }
  .docs-page a { color: #0b5cad; }
  .notice { background: #fff4e5; border: 1px solid #f0b96b; padding: .5rem .8rem; }
  blockquote { background: #fff4e5; border-left: 4px solid #f0b96b; margin: 0; padding: .3rem .8rem; }
  .operation { border-top: 1px solid #ddd; padding: .4rem 0; }
  .method { display: inline-block; min-width: 4rem; font-weight: 700; }
  code { background: #f2f2f5; padding: 0 .25rem; border-radius: 3px; }
  table { border-collapse: collapse; } td, th { text-align: left; padding: .15rem .8rem .15rem 0;
    vertical-align: top; }
  .badge { font-size: .8rem; border: 1px solid #595959; border-radius: 1rem; padding: 0 .5rem; }
  details.response { margin: .3rem 0; } summary { cursor: pointer; }
</style>`);

/** The OpenAPI document of a version for an environment's keys (sandbox's is the plain name). */
export function documentPath(version: string, environment: Environment): string {
  return `/openapi/${version}.json${environment === "sandbox" ? "" : `?environment=${environment}`}`;
}

/**
 * The top bar of every docs page, with the version and environment pickers (a form: it works
 * without script).
 */
export function docsBar(
  versions: readonly string[],
  current: string | null,
  environment: Environment = "sandbox",
): Html {
  const options = versions.map(
    (v) => html`<option value="${v}" ${v === current ? "selected" : ""}>${v}</option>`,
  );
  const environments = ENVIRONMENTS.map(
    (e) => html`<option value="${e}" ${e === environment ? "selected" : ""}>${e}</option>`,
  );
  return html`<header><nav class="docs-bar" aria-label="Documentation">
  <strong>Card Account Statements API</strong>
  <form method="get" action="/docs">
    <label for="version-picker">Version</label>
    <select id="version-picker" name="version">${options}</select>
    <label for="environment-picker">Keys</label>
    <select id="environment-picker" name="environment">${environments}</select>
    <button type="submit">Show</button>
  </form>
  <a href="/docs/changelog">Changelog</a>
  ${current ? html`<a href="${documentPath(current, environment)}">OpenAPI document</a>` : ""}
</nav></header>`;
}

function page(title: string, body: Html, head: Html = ""): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${title}</title>
${STYLE}${head}
</head>
<body>
${body}
<script src="${DOCS_SCRIPT}" defer></script>
</body>
</html>`;
}

/**
 * The reference of one version: the plain listing, and the mount point of the interactive
 * reference, which replaces the listing once its script has loaded.
 */
export function referencePage(
  versions: readonly string[],
  doc: OpenApiDocument,
  environment: Environment,
): Html {
  const version = doc.info.version;
  return page(
    `Card Account Statements API · ${version}`,
    html`${docsBar(versions, version, environment)}
${operationListing(doc)}
<div id="app" data-openapi-url="${documentPath(version, environment)}"></div>`,
    html`<script src="${REFERENCE_SCRIPT}" defer></script>`,
  );
}

/**
 * A page for a reference that does not exist (a version, or a version for the keys asked for):
 * the pickers, why, and the versions to choose.
 */
export function unknownVersionPage(versions: readonly string[], why: string): Html {
  return page(
    "Unknown version · Card Account Statements API",
    html`${docsBar(versions, null)}
<main class="docs-page"><h1>Unknown version</h1>
<p class="notice">${why} Choose one of: ${versions.join(", ")}.</p></main>`,
  );
}

function deprecationNote(entry: ChangelogEntry): Html {
  if (!entry.deprecated) return "";
  return html`<p class="notice"><strong>Deprecated since ${entry.deprecated}</strong>${
    entry.sunset ? html`; sunset on ${entry.sunset}, after which it may no longer be served` : ""
  }. Its responses carry <code>Deprecation</code>${entry.sunset ? html`, <code>Sunset</code>` : ""}
  and <code>Link</code> headers pointing here. Move to a newer version.</p>`;
}

/** The changelog page. */
export function changelogPage(entries: ChangelogEntry[]): Html {
  const versions = entries.map((e) => e.version);
  const items = entries.map(
    (entry) => html`<section id="v-${entry.version}">
  <h2>${entry.version}
    <span class="badge">${entry.released ? "released" : "sandbox only"}</span>
    ${entry.deprecated ? html`<span class="badge">deprecated</span>` : ""}</h2>
  ${deprecationNote(entry)}
  ${entry.summary ? renderMarkdown(entry.summary) : ""}
  ${
    entry.changes.length === 0
      ? html`<p>No breaking change to the endpoints served here.</p>`
      : html`<ul>${entry.changes.map(
          (change) => html`<li><strong><code>${change.name}</code></strong>
          (${change.resources.join(", ")}): ${renderInlineMarkdown(change.description)}</li>`,
        )}</ul>`
  }
  <p><a href="/docs?version=${entry.version}">Reference</a> ·
    <a href="${entry.reference}">OpenAPI document</a></p>
</section>`,
  );
  return page(
    "Changelog · Card Account Statements API",
    html`${docsBar(versions, null)}
<main class="docs-page"><h1>Changelog</h1>
<p>Versions newest first. A version keeps its behaviour until you choose to upgrade; each entry
lists the breaking changes it made relative to the version below it.
Also as JSON: <a href="/changelog">/changelog</a>.</p>
${items}</main>`,
  );
}
