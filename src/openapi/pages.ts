// Server-rendered HTML: the changelog page, and the docs page's version picker and plain listing
// of operations (readable without the interactive reference's script). Every value is escaped.
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { Json, JsonSchema, SchemaMap } from "../../versions";
import type { ChangelogEntry } from "./changelog";
import type { OpenApiDocument } from "./document";

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const STYLE = raw(`<style>
  .docs-bar, .docs-page { font: 15px/1.5 system-ui, sans-serif; color: #1b1b1f; }
  .docs-bar { display: flex; gap: 1.5rem; align-items: center; flex-wrap: wrap;
    padding: .6rem 1.2rem; border-bottom: 1px solid #ddd; background: #fafafa; }
  .docs-bar a { color: #0b5cad; } .docs-bar strong { margin-right: auto; }
  .docs-page { max-width: 60rem; margin: 0 auto; padding: 1rem 1.2rem 3rem; }
  .notice { background: #fff4e5; border: 1px solid #f0b96b; padding: .5rem .8rem; }
  .operation { border-top: 1px solid #eee; padding: .4rem 0; }
  .method { display: inline-block; min-width: 4rem; font-weight: 700; }
  code { background: #f2f2f5; padding: 0 .25rem; border-radius: 3px; }
  table { border-collapse: collapse; } td, th { text-align: left; padding: .15rem .8rem .15rem 0;
    vertical-align: top; }
  .badge { font-size: .8rem; border: 1px solid #999; border-radius: 1rem; padding: 0 .5rem; }
</style>`);

/** Escapes text, showing `backticked` spans as code. */
function prose(text: string): Html[] {
  return text
    .split("`")
    .map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : html`${part}`));
}

/** The top bar of every docs page, with the version picker. */
export function docsBar(versions: readonly string[], current: string | null): Html {
  const options = versions.map(
    (v) => html`<option value="${v}" ${v === current ? "selected" : ""}>${v}</option>`,
  );
  return html`${STYLE}
<nav class="docs-bar">
  <strong>Card Account Statements API</strong>
  <form method="get" action="/docs">
    <label for="version-picker">Version</label>
    <select id="version-picker" name="version" onchange="this.form.submit()">${options}</select>
    <noscript><button type="submit">Show</button></noscript>
  </form>
  <a href="/docs/changelog">Changelog</a>
  ${current ? html`<a href="/openapi/${current}.json">OpenAPI document</a>` : ""}
</nav>`;
}

function resolve(schema: JsonSchema | undefined, schemas: SchemaMap): JsonSchema | undefined {
  const name = /^#\/components\/schemas\/(.+)$/.exec(schema?.$ref ?? "")?.[1];
  return name === undefined ? schema : schemas[name];
}

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return "";
  if (schema.$ref) return String(schema.$ref).split("/").pop() ?? "";
  if (schema.type === "array") return `array of ${typeOf(schema.items)}`;
  return [schema.type, schema.format].filter(Boolean).join(", ");
}

/** One row per field, with the fields of nested objects and of array items one level down. */
function fieldRows(schema: JsonSchema | undefined, schemas: SchemaMap, prefix = ""): Html[] {
  const object = resolve(schema, schemas);
  const rows: Html[] = [];
  for (const [name, field] of Object.entries<Json>(object?.properties ?? {})) {
    const required = (object?.required ?? []).includes(name) ? "required" : "optional";
    rows.push(html`<tr><td><code>${prefix}${name}</code></td><td>${typeOf(field)}</td>
      <td>${required}</td><td>${prose(field.description ?? "")}</td></tr>`);
    if (prefix.split(".").length < 3) {
      const nested = field.type === "array" ? field.items : field;
      if (nested?.$ref || nested?.properties) {
        const suffix = field.type === "array" ? "[]." : ".";
        rows.push(...fieldRows(nested, schemas, `${prefix}${name}${suffix}`));
      }
    }
  }
  return rows;
}

function fieldTable(schema: JsonSchema, schemas: SchemaMap): Html {
  return html`<table>${fieldRows(schema, schemas)}</table>`;
}

function responseRows(operation: Json, doc: OpenApiDocument): Html[] {
  return Object.entries<Json>(operation.responses).map(([status, response]) => {
    const name = /[^/]+$/.exec(response.$ref ?? "")?.[0];
    const resolved = name ? doc.components.responses[name] : response;
    const schema = resolved.content?.["application/json"]?.schema;
    const shape = schema?.anyOf ? schema.anyOf.map(typeOf).join(" or ") : typeOf(schema);
    const description = prose(resolved.description);
    return html`<tr><td>${status}</td><td>${shape}</td><td>${description}</td></tr>`;
  });
}

function operationSection(path: string, method: string, operation: Json, doc: OpenApiDocument) {
  const success = Object.entries<Json>(operation.responses).find(([s]) => s.startsWith("2"));
  const schema = success?.[1].content?.["application/json"]?.schema;
  const body = operation.requestBody?.content["application/json"].schema;
  const schemas = doc.components.schemas as SchemaMap;
  return html`<section class="operation" id="${operation.operationId}">
  <h3><span class="method">${method.toUpperCase()}</span> <code>${path}</code></h3>
  <p>${operation.summary}. ${prose(operation.description)}</p>
  ${body ? html`<h4>Request body: ${typeOf(body)}</h4>${fieldTable(body, schemas)}` : ""}
  ${schema ? html`<h4>Response ${success?.[0]}: ${typeOf(schema)}</h4>` : ""}
  ${schema ? fieldTable(schema, schemas) : ""}
  <h4>Responses</h4><table>${responseRows(operation, doc)}</table>
</section>`;
}

/** The operations of a document, grouped by tag: the docs page's content without its script. */
export function operationListing(doc: OpenApiDocument): Html {
  const sections = (doc.tags as { name: string; description: string }[]).map((tag) => {
    const operations = Object.entries<Record<string, Json>>(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.tags[0] === tag.name)
        .map(([method, op]) => operationSection(path, method, op, doc)),
    );
    return html`<h2>${tag.name}</h2><p>${tag.description}</p>${operations}`;
  });
  return html`<main class="docs-page" id="operations">
  <h1>API reference, version <code>${doc.info.version}</code></h1>
  <p>${prose(doc.info.description)}</p>
  ${sections}
</main>`;
}

/** A complete page for a version that does not exist: the picker and the versions to choose. */
export function unknownVersionPage(versions: readonly string[], asked: string): Html {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8" />
<title>Unknown version</title></head><body>${docsBar(versions, null)}
<main class="docs-page"><p class="notice">There is no version ${JSON.stringify(asked.slice(0, 64))}.
Choose one of: ${versions.join(", ")}.</p></main></body></html>`;
}

/** The changelog page. */
export function changelogPage(entries: ChangelogEntry[]): Html {
  const versions = entries.map((e) => e.version);
  const items = entries.map(
    (entry) => html`<section id="v-${entry.version}">
  <h2>${entry.version}
    <span class="badge">${entry.released ? "released" : "sandbox only"}</span></h2>
  ${entry.summary ? html`<p>${prose(entry.summary)}</p>` : ""}
  ${
    entry.changes.length === 0
      ? html`<p>No breaking change to the endpoints served here.</p>`
      : html`<ul>${entry.changes.map(
          (change) => html`<li><strong><code>${change.name}</code></strong>
          (${change.resources.join(", ")}): ${prose(change.description)}</li>`,
        )}</ul>`
  }
  <p><a href="/docs?version=${entry.version}">Reference</a> ·
    <a href="${entry.reference}">OpenAPI document</a></p>
</section>`,
  );
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Changelog · Card Account Statements API</title></head><body>
${docsBar(versions, null)}
<main class="docs-page"><h1>Changelog</h1>
<p>Versions newest first. A version keeps its behaviour until you choose to upgrade; each entry
lists the breaking changes it made relative to the version below it.
Also as JSON: <a href="/changelog">/changelog</a>.</p>
${items}</main></body></html>`;
}
