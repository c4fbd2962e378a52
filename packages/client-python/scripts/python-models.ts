// The models of one API version as Python dataclasses: a class per object schema an answer or a
// webhook carries (named components keep their names, inline objects are named after where they
// sit: `Statement.pdf` → `StatementPdf`), and the type annotation of any schema.
import {
  comment,
  type Document,
  docstring,
  identifier,
  pascal,
  pyString,
  refName,
  resolve,
  type Schema,
  singular,
} from "./openapi.ts";

/** Names the module itself defines or imports: a model never takes one of them. */
const RESERVED = new Set(
  "Any Dict List Literal Optional Pager Model Resource BaseClient Client dataclass field".split(
    " ",
  ),
);

/** Field names a model cannot use as they are: the model's own members. */
const MEMBERS = new Set(["extra", "from_dict", "to_dict"]);

const isObject = (s: Schema) =>
  (s.type === "object" || s.type === undefined) &&
  s.properties !== undefined &&
  Object.keys(s.properties).length > 0;

export class Models {
  /** Class name → its code, in the order they must be read (a class after the ones it uses). */
  private readonly classes = new Map<string, string>();
  /** The schema object each class name was made for. */
  private readonly owners = new Map<string, Schema>();

  private readonly doc: Document;

  constructor(doc: Document) {
    this.doc = doc;
  }

  /** The Python code of every model made so far. */
  code(): string[] {
    return [...this.classes.values()];
  }

  /** The annotation of a schema in a response; `hint` names an inline object's class. */
  typeOf(schema: Schema, hint: string): string {
    if (schema.$ref !== undefined) {
      const name = refName(schema.$ref);
      const target = resolve(this.doc, schema);
      return isObject(target) ? this.model(name, target) : this.typeOf(target, name);
    }
    if (schema.anyOf || schema.oneOf || schema.allOf) return "Any";
    if (Array.isArray(schema.type)) {
      const types = schema.type.filter((t) => t !== "null");
      const inner = types.length === 1 ? this.typeOf({ ...schema, type: types[0] }, hint) : "Any";
      return types.length < schema.type.length ? `Optional[${inner}]` : inner;
    }
    const literals = schema.const !== undefined ? [schema.const] : schema.enum;
    if (literals?.every((v) => typeof v === "string" || typeof v === "number")) {
      return `Literal[${literals.map((v) => JSON.stringify(v)).join(", ")}]`;
    }
    switch (schema.type) {
      case "string":
        return "str";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "array":
        return `List[${schema.items ? this.typeOf(schema.items, singular(hint)) : "Any"}]`;
    }
    if (isObject(schema)) return this.model(hint, schema);
    if (typeof schema.additionalProperties === "object") {
      return `Dict[str, ${this.typeOf(schema.additionalProperties, `${hint}Value`)}]`;
    }
    return schema.type === "object" ? "Dict[str, Any]" : "Any";
  }

  /** The class of an object schema, made on first use. */
  private model(wanted: string, schema: Schema): string {
    let name = RESERVED.has(wanted) ? `${wanted}Model` : wanted;
    for (let n = 2; this.owners.has(name) && this.owners.get(name) !== schema; n++) {
      name = `${wanted}${n}`;
    }
    if (this.owners.has(name)) return name;
    this.owners.set(name, schema);
    const required = new Set(schema.required ?? []);
    const fields: { line: string[]; required: boolean }[] = [];
    const taken = new Set(MEMBERS);
    for (const [json, property] of Object.entries(schema.properties ?? {})) {
      const attr = identifier(json, taken);
      taken.add(attr);
      const type = this.typeOf(property, `${name}${pascal(json)}`);
      const isRequired = required.has(json);
      const metadata = attr === json ? "" : `metadata={"json": ${pyString(json)}}`;
      let value: string;
      if (isRequired) value = metadata ? ` = field(${metadata})` : "";
      else value = metadata ? ` = field(default=None, ${metadata})` : " = None";
      const notes = property.description ? comment(property.description, "    ") : [];
      fields.push({
        line: [...notes, `    ${attr}: ${isRequired ? type : `Optional[${type}]`}${value}`],
        required: isRequired,
      });
    }
    const ordered = [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
    const lines = [
      "@dataclass(repr=False)",
      `class ${name}(Model):`,
      docstring(schema.description ?? `The \`${name}\` object.`, "    "),
      "",
      ...ordered.flatMap((f) => f.line),
      "    #: Fields this version's reference does not name, as the API sent them.",
      "    extra: Dict[str, Any] = field(default_factory=dict)",
    ];
    this.classes.set(name, lines.join("\n"));
    return name;
  }
}
