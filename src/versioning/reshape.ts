// Order-preserving, copy-on-write edits of JSON bodies, and where a named schema sits in a body.
// Inputs are never mutated: one canonical body may be reshaped for several versions.
import type { JsonObject, JsonSchema, JsonValue, SchemaMap } from "./types";

/** A location in a body: property names, and `[]` for every item of an array. */
export type BodyPath = readonly string[];

/** Whether a value is a JSON object (not null, not an array). */
export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const refName = (ref: unknown): string | undefined =>
  typeof ref === "string" ? /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1] : undefined;

/**
 * Every location of schema `target` in a body of schema `root`: through properties, array items,
 * references and alternatives. The root itself is `[]` when it is the target.
 */
export function locate(schemas: SchemaMap, root: string, target: string): BodyPath[] {
  if (root === target) return [[]];
  const found = new Map<string, BodyPath>();
  const walk = (node: JsonSchema | undefined, path: string[], seen: ReadonlySet<string>) => {
    if (typeof node !== "object" || node === null) return;
    const ref = refName(node.$ref);
    if (ref !== undefined) {
      if (ref === target) found.set(path.join("\u0000"), path);
      else if (!seen.has(ref)) walk(schemas[ref], path, new Set([...seen, ref]));
      return;
    }
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      walk(child, [...path, name], seen);
    }
    if (node.items) walk(node.items, [...path, "[]"], seen);
    for (const key of ["anyOf", "oneOf", "allOf"] as const) {
      for (const branch of node[key] ?? []) walk(branch, path, seen);
    }
  };
  walk(schemas[root], [], new Set([root]));
  return [...found.values()];
}

/** Applies `edit` to every object at `path` in `body`, copying only what changes. */
export function updateAt(
  body: JsonValue,
  path: BodyPath,
  edit: (object: JsonObject) => JsonValue,
  from = 0,
): JsonValue {
  const step = path[from];
  if (step === undefined) return isJsonObject(body) ? edit(body) : body;
  if (step === "[]") {
    if (!Array.isArray(body)) return body;
    let changed = false;
    const items = body.map((item) => {
      const next = updateAt(item, path, edit, from + 1);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : body;
  }
  if (!isJsonObject(body)) return body;
  const current = body[step];
  if (current === undefined) return body;
  const child = updateAt(current, path, edit, from + 1);
  return child === current ? body : { ...body, [step]: child };
}

/** Renames (and converts) field `from` to `to`, in place of the old one; absent: unchanged. */
export function renameField(
  object: JsonObject,
  from: string,
  to: string,
  convert?: (value: JsonValue | undefined) => JsonValue | undefined,
): JsonObject {
  if (!(from in object)) return object;
  if (from === to) return { ...object, [from]: convert ? convert(object[from]) : object[from] };
  const out: JsonObject = {};
  // for…in rather than Object.keys: the same own keys in the same order for a JSON object (no
  // inherited enumerable ones), without an array of them per object (a page renames per item).
  for (const key in object) {
    if (key === from) out[to] = convert ? convert(object[key]) : object[key];
    else out[key] = object[key];
  }
  return out;
}

/** The object without `field`; absent: unchanged. */
export function dropField(object: JsonObject, field: string): JsonObject {
  if (!(field in object)) return object;
  const { [field]: _dropped, ...rest } = object;
  return rest;
}

/**
 * The object with `field` set to `value`, placed after the last present field that precedes it
 * in the schema; an undefined value leaves the object as it is.
 */
export function insertField(
  object: JsonObject,
  field: string,
  value: JsonValue | undefined,
  preceding: ReadonlySet<string>,
): JsonObject {
  if (value === undefined) return object;
  const keys = Object.keys(object).filter((key) => key !== field);
  let at = 0;
  keys.forEach((key, index) => {
    if (preceding.has(key)) at = index + 1;
  });
  const out: JsonObject = {};
  keys.forEach((key, index) => {
    if (index === at) out[field] = value;
    out[key] = object[key];
  });
  if (at === keys.length) out[field] = value;
  return out;
}
