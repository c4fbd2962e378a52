// Order-preserving edits of an object schema: what instructions do to the reference, and helpers
// for an imperative `VersionChange.schema` edit.
import type { JsonSchema } from "./types";

/**
 * Replaces property `from` of an object schema by `to`, in the same position, carrying over
 * whether it is required.
 */
export function replaceProperty(
  schema: JsonSchema,
  from: string,
  to: string,
  replacement: JsonSchema,
): void {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, value] of Object.entries(schema.properties ?? {})) {
    if (name === from) properties[to] = replacement;
    else properties[name] = value;
  }
  schema.properties = properties;
  if (Array.isArray(schema.required)) {
    schema.required = schema.required.map((name: string) => (name === from ? to : name));
  }
}

/** Removes a property, and its name from `required`. */
export function removeProperty(schema: JsonSchema, name: string): void {
  const { [name]: _removed, ...rest } = schema.properties ?? {};
  schema.properties = rest;
  setRequired(schema, name, false);
}

/** Adds a property after `after` (or last), keeping the order of the others. */
export function insertProperty(
  schema: JsonSchema,
  name: string,
  definition: JsonSchema,
  after?: string,
): void {
  const properties: Record<string, JsonSchema> = {};
  const entries = Object.entries<JsonSchema>(schema.properties ?? {});
  if (after === undefined) {
    for (const [key, value] of entries) properties[key] = value;
    properties[name] = definition;
  } else {
    for (const [key, value] of entries) {
      properties[key] = value;
      if (key === after) properties[name] = definition;
    }
  }
  schema.properties = properties;
}

/** Makes a property required or optional, keeping `required` in property order. */
export function setRequired(schema: JsonSchema, name: string, required: boolean): void {
  const names = new Set<string>(schema.required ?? []);
  if (required) names.add(name);
  else names.delete(name);
  const ordered = Object.keys(schema.properties ?? {}).filter((key) => names.has(key));
  if (ordered.length > 0) schema.required = ordered;
  else delete schema.required;
}
