// The reference as plain server-rendered HTML: every operation with its authentication,
// parameters, request body, responses, their headers and the shape of each body, errors included.
// It is the /docs page before (or without) the interactive reference. Every value is escaped;
// descriptions are Markdown, rendered safely.
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { JsonSchema, SchemaMap } from "../versioning";
import { renderInlineMarkdown, renderMarkdown } from "./markdown";
import {
  type HeaderObject,
  isReference,
  type OpenApiDocument,
  type Operation,
  type Reference,
} from "./openapi";

type Html = HtmlEscapedString | Promise<HtmlEscapedString> | "";

const refName = (ref: unknown) => (typeof ref === "string" ? /[^/]+$/.exec(ref)?.[0] : undefined);

/** A component by reference (among `components`), or the object itself. */
function resolve<T extends object>(components: Record<string, T>, node: T | Reference) {
  if (!isReference(node)) return node;
  const name = refName(node.$ref);
  return name === undefined ? undefined : components[name];
}

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return "";
  if (schema.$ref) return refName(schema.$ref) ?? "";
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" or ");
  if (schema.type === "array") return `array of ${typeOf(schema.items)}`;
  return [schema.type, schema.format].filter(Boolean).join(", ");
}

/** Enumerations, constants, bounds and defaults, in a few words. */
function constraintsOf(schema: JsonSchema | undefined): string {
  if (!schema) return "";
  const parts: string[] = [];
  if (schema.enum) parts.push(`one of ${schema.enum.join(", ")}`);
  if (schema.const !== undefined) parts.push(`always ${JSON.stringify(schema.const)}`);
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) parts.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  if (schema.pattern !== undefined) parts.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join("; ");
}

function describeCell(schema: JsonSchema | undefined): Html {
  const constraints = constraintsOf(schema);
  return html`${renderInlineMarkdown(schema?.description ?? "")}${
    constraints ? html` <small>(${constraints})</small>` : ""
  }`;
}

/** One row per field, with the fields of nested objects and of array items below them. */
function fieldRows(schema: JsonSchema | undefined, schemas: SchemaMap, prefix = ""): Html[] {
  const named = refName(schema?.$ref);
  const object = named === undefined ? schema : schemas[named];
  const rows: Html[] = [];
  for (const [name, field] of Object.entries(object?.properties ?? {})) {
    const required = (object?.required ?? []).includes(name) ? "required" : "optional";
    rows.push(html`<tr><td><code>${prefix}${name}</code></td><td>${typeOf(field)}</td>
      <td>${required}</td><td>${describeCell(field)}</td></tr>`);
    if (prefix.split(".").length < 4) {
      const nested = field.type === "array" ? field.items : field;
      if (nested?.$ref || nested?.properties) {
        const suffix = field.type === "array" ? "[]." : ".";
        rows.push(...fieldRows(nested, schemas, `${prefix}${name}${suffix}`));
      }
    }
  }
  return rows;
}

/** The description of the named schema `shape` refers to, if any. */
function described(shape: JsonSchema, schemas: SchemaMap): string | undefined {
  const name = refName(shape.$ref);
  return name === undefined ? undefined : schemas[name]?.description;
}

/** The fields of a body schema; each alternative of an `anyOf` in turn. */
function bodyTables(schema: JsonSchema, schemas: SchemaMap): Html {
  const shapes: JsonSchema[] = schema.anyOf ?? [schema];
  return html`${shapes.map(
    (shape) => html`<p><strong>${typeOf(shape)}</strong>${
      described(shape, schemas)
        ? html`: ${renderInlineMarkdown(described(shape, schemas) ?? "")}`
        : ""
    }</p>
    <table><thead><tr><th>Field</th><th>Type</th><th></th><th>Description</th></tr></thead>
    <tbody>${fieldRows(shape, schemas)}</tbody></table>`,
  )}`;
}

function parameterTable(operation: Operation, doc: OpenApiDocument): Html {
  const rows = operation.parameters.map((p) => {
    const parameter = resolve(doc.components.parameters, p);
    if (!parameter) return "";
    return html`<tr><td><code>${parameter.name}</code></td><td>${parameter.in}</td>
      <td>${parameter.required ? "required" : "optional"}</td><td>${typeOf(parameter.schema)}</td>
      <td>${renderInlineMarkdown(parameter.description ?? "")}${
        constraintsOf(parameter.schema)
          ? html` <small>(${constraintsOf(parameter.schema)})</small>`
          : ""
      }</td></tr>`;
  });
  return html`<table><thead><tr><th>Parameter</th><th>In</th><th></th><th>Type</th>
    <th>Description</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function headerList(
  headers: Record<string, HeaderObject | Reference> | undefined,
  doc: OpenApiDocument,
): Html {
  const entries = Object.entries(headers ?? {});
  if (entries.length === 0) return "";
  return html`<p>Headers:</p><ul>${entries.map(([name, header]) => {
    const resolved = resolve(doc.components.headers, header);
    if (!resolved) return "";
    return html`<li><code>${name}</code>: ${renderInlineMarkdown(resolved.description ?? "")}</li>`;
  })}</ul>`;
}

function responseList(operation: Operation, doc: OpenApiDocument): Html {
  const schemas = doc.components.schemas;
  return html`${Object.entries(operation.responses).map(([status, response]) => {
    const resolved = resolve(doc.components.responses, response);
    if (!resolved) return "";
    const schema = resolved.content?.["application/json"]?.schema;
    return html`<details class="response" ${status.startsWith("2") ? "open" : ""}>
  <summary><strong>${status}</strong> ${typeOf(schema)}: ${renderInlineMarkdown(resolved.description)}</summary>
  ${headerList(resolved.headers, doc)}
  ${schema ? bodyTables(schema, schemas) : ""}
</details>`;
  })}`;
}

function securityOf(operation: Operation, doc: OpenApiDocument): Html {
  const requirements = operation.security ?? doc.security;
  const names = requirements.flatMap((r) => Object.keys(r));
  return html`<p>Authentication, any one of: ${names.map(
    (name, i) => html`${i > 0 ? ", " : ""}<a href="#security-${name}">${name}</a>`,
  )}.</p>`;
}

function operationSection(
  path: string,
  method: string,
  operation: Operation,
  doc: OpenApiDocument,
) {
  const { requestBody } = operation;
  const body = requestBody?.content["application/json"].schema;
  const schemas = doc.components.schemas;
  return html`<section class="operation" id="${operation.operationId}">
  <h3><span class="method">${method.toUpperCase()}</span> <code>${path}</code></h3>
  <p><strong>${operation.summary}.</strong></p>
  ${renderMarkdown(operation.description ?? "")}
  ${securityOf(operation, doc)}
  <h4>Parameters</h4>${parameterTable(operation, doc)}
  ${
    body
      ? html`<h4>Request body (${requestBody?.required ? "required" : "optional"})</h4>
        ${bodyTables(body, schemas)}`
      : ""
  }
  <h4>Responses</h4>${responseList(operation, doc)}
</section>`;
}

function securitySection(doc: OpenApiDocument): Html {
  const schemes = Object.entries(doc.components.securitySchemes);
  return html`<h2 id="security">Authentication</h2><dl>${schemes.map(
    ([name, scheme]) => html`<dt id="security-${name}"><code>${name}</code>: ${scheme.type}
      ${scheme.scheme ?? ""}</dt><dd>${renderInlineMarkdown(scheme.description ?? "")}</dd>`,
  )}</dl>`;
}

/** The operations of a document, grouped by tag: the docs page's content without its script. */
export function operationListing(doc: OpenApiDocument): Html {
  const sections = doc.tags.map((tag) => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.tags[0] === tag.name)
        .map(([method, op]) => operationSection(path, method, op, doc)),
    );
    return html`<h2>${tag.name}</h2>${renderMarkdown(tag.description)}${operations}`;
  });
  return html`<main class="docs-page" id="operations">
  <h1>API reference, version <code>${doc.info.version}</code></h1>
  ${renderMarkdown(doc.info.description)}
  ${securitySection(doc)}
  ${sections}
</main>`;
}
