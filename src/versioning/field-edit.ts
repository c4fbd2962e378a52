// What one field instruction does: the edit of the object schema it names (done here, in place)
// and, per object holding that schema, the reshaping of a response back to the older version
// and of a request forward from it. Mistakes throw, naming the instruction.
import { UnknownRequestField } from "./errors";
import { dropField, insertField, renameField } from "./reshape";
import { insertProperty, removeProperty, replaceProperty, setRequired } from "./schema-edits";
import type { FieldInstruction, JsonObject, JsonSchema } from "./types";

export interface FieldEdit {
  /** Newer object → older one; undefined when bodies do not change (a description, say). */
  older?: (object: JsonObject) => JsonObject;
  /** Older object → newer one (request bodies). */
  newer?: (object: JsonObject) => JsonObject;
}

/** Edits `target` (the schema as the newer version has it) into the older version's. */
export function fieldEdit(
  target: JsonSchema,
  instruction: FieldInstruction,
  where: string,
  inRequests: boolean,
): FieldEdit {
  const { field, was } = instruction;
  const properties = target.properties;
  if (!properties) throw new Error(`${where}: no object schema of that name here`);
  let older: ((object: JsonObject) => JsonObject) | undefined;
  let newer: ((object: JsonObject) => JsonObject) | undefined;

  if ("had" in was) {
    const had = was.had;
    const name = had.name ?? field;
    const current = properties[field];
    if (current === undefined) throw new Error(`${where}: no such field here`);
    if (name !== field && name in properties) throw new Error(`${where}: ${name} exists already`);
    if (had.schema && !had.toOlder) throw new Error(`${where}: a type change needs toOlder`);
    if (had.schema && inRequests && !had.toNewer) {
      throw new Error(`${where}: the schema is a request body: a type change needs toNewer`);
    }
    if (name !== field || had.toOlder) {
      older = (object) => renameField(object, field, name, had.toOlder);
      newer = (object) => {
        if (name !== field && field in object) throw new UnknownRequestField(field);
        return renameField(object, name, field, had.toNewer);
      };
    }
    const definition = structuredClone(had.schema ?? current);
    if (had.schema && definition.description === undefined && current.description) {
      definition.description = current.description;
    }
    if (had.description !== undefined) definition.description = had.description;
    replaceProperty(target, field, name, definition);
    if (had.required !== undefined) setRequired(target, name, had.required);
  } else if ("didntExist" in was) {
    if (!(field in properties)) throw new Error(`${where}: no such field here`);
    older = (object) => dropField(object, field);
    newer = (object) => {
      if (field in object) throw new UnknownRequestField(field);
      return object;
    };
    removeProperty(target, field);
  } else {
    const existed = was.existedAs;
    if (field in properties) throw new Error(`${where}: the field exists already`);
    if (existed.after !== undefined && !(existed.after in properties)) {
      throw new Error(`${where}: no field ${existed.after} to follow`);
    }
    insertProperty(target, field, structuredClone(existed.schema), existed.after);
    if (existed.required) setRequired(target, field, true);
    const names = Object.keys(target.properties ?? {});
    const preceding = new Set(names.slice(0, names.indexOf(field)));
    older = (object) => insertField(object, field, existed.from(object), preceding);
    newer = (object) => dropField(object, field);
  }

  return { older, newer };
}
