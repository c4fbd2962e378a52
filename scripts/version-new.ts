// `npm run version:new -- 2027-03-01`: writes versions/2027-03-01.ts from a template and adds
// it to the bundle in versions/index.ts (its import, and its place in VERSIONS by date). Then fill
// the module with its changes: see "Adding a dated version" in docs/versioning.md.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isCalendarDate } from "../src/versioning/check.ts";

const LINE = 100;

/** `2027-03-01` → `v2027_03_01`, the module's export. */
export function exportName(id: string): string {
  return `v${id.replaceAll("-", "_")}`;
}

/** The new module: a released version without changes yet. */
export function moduleSource(id: string): string {
  return `// ${id}: say in one line what this version changes for partners.
import type { ApiVersion } from "../src/version-changes";

// Each change says what the version just older looked like, as instructions: see "Adding a dated
// version" in docs/versioning.md. Declare the changes here and list them below, in order.

export const ${exportName(id)}: ApiVersion = {
  id: "${id}",
  released: true,
  changes: [],
};
`;
}

const IMPORT = /^import \{ (v\d{4}_\d{2}_\d{2}) \} from "\.\/(\d{4}-\d{2}-\d{2})";$/;
const VERSIONS = /export const VERSIONS: readonly ApiVersion\[\] = \[([^\]]*)\];/;

/** The bundle's `VERSIONS` array, written as Biome formats it. */
function versionsArray(entries: readonly string[]): string {
  const head = "export const VERSIONS: readonly ApiVersion[] = [";
  const oneLine = `${head}${entries.join(", ")}];`;
  if (oneLine.length <= LINE) return oneLine;
  return `${head}\n${entries.map((e) => `  ${e},`).join("\n")}\n];`;
}

/** versions/index.ts with version `id` imported and listed in date order. Throws if it cannot. */
export function addToBundle(index: string, id: string): string {
  if (!isCalendarDate(id)) throw new Error(`"${id}" is not a day (YYYY-MM-DD)`);
  if (!VERSIONS.test(index))
    throw new Error("versions/index.ts has no `export const VERSIONS` array");
  const name = exportName(id);
  const lines = index.split("\n");
  const dated = lines
    .map((line, at) => ({ at, match: IMPORT.exec(line) }))
    .filter((l) => l.match !== null);
  if (dated.some((l) => l.match?.[2] === id)) throw new Error(`version ${id} is in the bundle`);
  // Imports sorted by path: before the first later date, else after the last dated import.
  const later = dated.find((l) => (l.match?.[2] ?? "") > id);
  const firstLocal = lines.findIndex((line) => /^import .* from "\.\//.test(line));
  const at = later?.at ?? (dated.at(-1)?.at ?? firstLocal - 1) + 1;
  if (at < 0) throw new Error("versions/index.ts imports no version module");
  lines.splice(at, 0, `import { ${name} } from "./${id}";`);

  const source = lines.join("\n");
  const list = VERSIONS.exec(source);
  if (!list) throw new Error("versions/index.ts has no `export const VERSIONS` array");
  const entries = (list[1] ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const dateOf = (entry: string) => /^v(\d{4})_(\d{2})_(\d{2})$/.exec(entry)?.slice(1).join("-");
  // Newest first: after the unreleased versions and the later dates.
  let position = entries.findIndex((e) => {
    const date = dateOf(e);
    return date !== undefined && date < id;
  });
  if (position === -1) position = entries.length;
  entries.splice(position, 0, name);
  return source.replace(VERSIONS, versionsArray(entries));
}

/** Writes the module and edits the bundle in `dir` (versions/ by default). */
export function newVersion(id: string, dir: string): { module: string; index: string } {
  const module = path.join(dir, `${id}.ts`);
  const index = path.join(dir, "index.ts");
  if (existsSync(module)) throw new Error(`${module} exists already`);
  const edited = addToBundle(readFileSync(index, "utf8"), id);
  writeFileSync(module, moduleSource(id));
  writeFileSync(index, edited);
  return { module, index };
}

if (import.meta.filename === process.argv[1]) {
  const [id, flag, dirArg] = process.argv.slice(2);
  const dir =
    flag === "--dir" && dirArg
      ? path.resolve(dirArg)
      : path.resolve(import.meta.dirname, "../versions");
  if (!id) {
    console.error("usage: npm run version:new -- YYYY-MM-DD");
    process.exit(2);
  }
  try {
    const written = newVersion(id, dir);
    console.log(`wrote ${path.relative(process.cwd(), written.module)}`);
    console.log(`added ${exportName(id)} to ${path.relative(process.cwd(), written.index)}`);
  } catch (err) {
    console.error(`✖ ${(err as Error).message}`);
    process.exit(1);
  }
}
