// What the Python generator reads of an OpenAPI 3.1 document, and how its names become Python
// names: the subset of the format the service's references use, `$ref`s resolved in place.

export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

export interface Parameter {
  $ref?: string;
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface Content {
  schema?: Schema;
}

export interface Response {
  $ref?: string;
  description?: string;
  content?: Record<string, Content>;
}

export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { $ref?: string; required?: boolean; content?: Record<string, Content> };
  responses?: Record<string, Response>;
}

export interface Document {
  info: { version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components?: {
    schemas?: Record<string, Schema>;
    parameters?: Record<string, Parameter>;
    responses?: Record<string, Response>;
  };
}

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** `#/components/schemas/Statement` → `Statement`. */
export const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

/** The object a `$ref` points to (`#/components/...`), or the object itself. */
export function resolve<T extends { $ref?: string }>(doc: Document, value: T): T {
  if (value.$ref === undefined) return value;
  let target: unknown = doc;
  for (const part of value.$ref.replace(/^#\//, "").split("/")) {
    target = (target as Record<string, unknown> | undefined)?.[part];
  }
  if (target === undefined) throw new Error(`unresolved $ref ${value.$ref}`);
  return resolve(doc, target as T);
}

/** The JSON schema of a 2xx answer's body, and its status; none for an answer without one. */
export function successBody(op: Operation, doc: Document): { status: string; schema?: Schema } {
  const [status, response] =
    Object.entries(op.responses ?? {}).find(([code]) => /^2(\d\d|XX)$/.test(code)) ?? [];
  if (status === undefined || response === undefined) return { status: "none" };
  const schema = resolve(doc, response).content?.["application/json"]?.schema;
  return schema ? { status, schema } : { status };
}

// Python names.

const KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except " +
    "finally for from global if import in is lambda nonlocal not or pass raise return try while " +
    "with yield"
  ).split(" "),
);

/** Words of a name in any case: `listAccountStatements`, `rewards_categories`, `x-request-id`. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** A Python identifier: a keyword or a name taken gets a trailing `_`. */
export function identifier(name: string, taken: ReadonlySet<string> = new Set()): string {
  let id = name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(\d)/, "_$1");
  while (KEYWORDS.has(id) || taken.has(id)) id += "_";
  return id;
}

export const snake = (name: string) => identifier(words(name).join("_"));

export const pascal = (name: string) =>
  words(name)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");

/** `authorized_users` → `authorized_user`: the name of one item of a list. */
export function singular(name: string): string {
  if (/ies$/.test(name)) return name.replace(/ies$/, "y");
  if (/(ss|sh|ch|x|z)es$/.test(name)) return name.replace(/es$/, "");
  return name.replace(/([^s])s$/, "$1");
}

/** A string as a Python string literal. */
export const pyString = (text: string) => JSON.stringify(text);

/**
 * Text as a docstring at `indent`, its paragraphs wrapped at 96 columns; `tail` lines (already
 * indented) close it, after a blank line.
 */
export function docstring(text: string, indent: string, tail: string[] = []): string {
  const escaped = (t: string) => t.replace(/\\/g, "\\\\").replace(/"""/g, '\\"\\"\\"');
  const paragraphs = escaped(text)
    .split(/\n\s*\n/)
    .map((p) => wrapped(p, indent))
    .filter((p) => p.length > 0);
  const lines = paragraphs.flatMap((p, i) => (i === 0 ? p : ["", ...p]));
  if (tail.length > 0) lines.push("", ...tail.map(escaped));
  const [first = "", ...rest] = lines;
  if (rest.length === 0) return `${indent}"""${first.trimStart()}"""`;
  const body = rest.map((l) => (l.trim() === "" ? "" : l)).join("\n");
  return `${indent}"""${first.trimStart()}\n${body}\n${indent}"""`;
}

/** Text as `#: ` comment lines at `indent`, wrapped at 96 columns. */
export function comment(text: string, indent: string): string[] {
  return wrapped(text, `${indent}#: `);
}

/** Text on lines that start with `prefix`, at most 96 columns. */
export function wrapped(text: string, prefix: string): string[] {
  const width = 96 - prefix.length;
  const lines: string[] = [];
  let line = "";
  for (const word of text.replace(/\s+/g, " ").trim().split(" ")) {
    if (!word) continue;
    if (line && line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(prefix + line);
  return lines;
}
