// Small, pure-in-spirit helpers for a change's schema edit (see `VersionChange.schema`).
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
    else properties[name] = value as JsonSchema;
  }
  schema.properties = properties;
  if (Array.isArray(schema.required)) {
    schema.required = schema.required.map((name: string) => (name === from ? to : name));
  }
}
