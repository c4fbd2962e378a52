// The direction of src/'s imports: shared layers import no feature, a feature reaches another only
// through its entry, and no folders import each other. Each broken rule is reported with the
// import that breaks it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(import.meta.dirname, "..", "..", "src");

/**
 * The shared layers, lowest first: each imports only itself and the layers below it. Every other
 * folder of src/ is a feature; the files directly in src/ are the registries and the wiring.
 */
const LAYERS = ["versioning", "domain", "db", "canonical", "app", "mail", "dashboard"];

/** What another folder may import of a feature: its entry, and its tables (foreign keys name them). */
const ENTRIES = new Set(["index.ts", "schema.ts"]);

/** One import: both files relative to src/, as `db/client.ts`. */
interface Import {
  from: string;
  to: string;
}

/** Every file of src/, relative to it. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) ? [path.relative(SRC, file)] : [];
  });
}

/** The file a relative specifier names, if it is one of src/. */
function resolve(from: string, specifier: string): string | null {
  const base = path.join(SRC, path.dirname(from), specifier);
  for (const file of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (existsSync(file) && statSync(file).isFile()) {
      const relative = path.relative(SRC, file);
      return relative.startsWith("..") ? null : relative;
    }
  }
  return null;
}

/** Every import between files of src/ (static, re-exports, dynamic and type-only alike). */
function importsOfSource(): Import[] {
  return sourceFiles().flatMap((from) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(SRC, from), "utf8"));
    return importedFiles
      .filter(({ fileName }) => fileName.startsWith("."))
      .flatMap(({ fileName }) => {
        const to = resolve(from, fileName);
        return to ? [{ from, to }] : [];
      });
  });
}

/** The folder of a file (`webhooks` for `webhooks/deliver.ts`), or null for a file of src/ itself. */
const folderOf = (file: string): string | null =>
  file.includes("/") ? (file.split("/")[0] as string) : null;

const isEntry = (file: string) => ENTRIES.has(path.basename(file)) && file.split("/").length === 2;

/** The rule an import breaks, if any. */
function ruleBroken({ from, to }: Import): string | null {
  const [source, target] = [folderOf(from), folderOf(to)];
  if (source === target) return null;
  const sourceLayer = source === null ? -1 : LAYERS.indexOf(source);
  const targetLayer = target === null ? -1 : LAYERS.indexOf(target);
  if (sourceLayer >= 0) {
    if (target === null) return `the shared layer ${source}/ imports the registry src/${to}`;
    if (targetLayer < 0) return `the shared layer ${source}/ imports the feature ${target}/`;
    if (targetLayer > sourceLayer) {
      return `the shared layer ${source}/ imports ${target}/, a layer above it (${LAYERS.join(" < ")})`;
    }
    return null;
  }
  if (source !== null && target === null) {
    return `the feature ${source}/ imports the registry src/${to}, which imports the features`;
  }
  if (target !== null && targetLayer < 0 && !isEntry(to)) {
    const who = source === null ? `src/${from}` : `the feature ${source}/`;
    return `${who} reaches into ${target}/: import its entry, ${target}/index.ts, instead`;
  }
  return null;
}

/** Pairs of folders that import each other, each with one import of either way. */
function foldersImportingEachOther(imports: readonly Import[]): string[] {
  const between = new Map<string, Import>();
  for (const edge of imports) {
    const [source, target] = [folderOf(edge.from), folderOf(edge.to)];
    if (source && target && source !== target) between.set(`${source} ${target}`, edge);
  }
  const pairs: string[] = [];
  for (const [key, edge] of between) {
    const [source, target] = key.split(" ") as [string, string];
    const back = between.get(`${target} ${source}`);
    if (back && source < target) {
      pairs.push(
        `${source}/ and ${target}/ import each other: ` +
          `src/${edge.from} imports src/${edge.to}, and src/${back.from} imports src/${back.to}`,
      );
    }
  }
  return pairs;
}

/** Every broken rule, one readable line each. */
function violations(imports: readonly Import[]): string[] {
  const broken = imports.flatMap((edge) => {
    const rule = ruleBroken(edge);
    return rule ? [`src/${edge.from} imports src/${edge.to}: ${rule}`] : [];
  });
  return [...broken, ...foldersImportingEachOther(imports)];
}

describe("the dependency rules of src/", () => {
  it("hold for every import", () => {
    const imports = importsOfSource();
    // The scan reads the tree: the wiring's imports of the layers and features are among them.
    expect(imports).toContainEqual({ from: "index.ts", to: "app/route.ts" });
    expect(imports).toContainEqual({ from: "routes.ts", to: "webhook-endpoints/index.ts" });
    expect(violations(imports), violations(imports).join("\n")).toEqual([]);
  });

  it("name the import that breaks each of them", () => {
    expect(
      violations([
        { from: "app/pipeline.ts", to: "keys/key-store.ts" },
        { from: "db/client.ts", to: "app/context.ts" },
        { from: "dashboard/index.ts", to: "pages.ts" },
        { from: "documents/attach.ts", to: "webhooks/delivery-queue.ts" },
        { from: "documents/maintenance.ts", to: "webhooks/index.ts" },
        { from: "webhooks/schema.ts", to: "statements/schema.ts" },
        { from: "webhooks/deliver.ts", to: "documents/index.ts" },
        { from: "keys/routes.ts", to: "routes.ts" },
        { from: "pages.ts", to: "keys/keys-page.tsx" },
      ]),
    ).toEqual([
      "src/app/pipeline.ts imports src/keys/key-store.ts: the shared layer app/ imports the feature keys/",
      "src/db/client.ts imports src/app/context.ts: the shared layer db/ imports app/, a layer above it (versioning < domain < db < canonical < app < mail < dashboard)",
      "src/dashboard/index.ts imports src/pages.ts: the shared layer dashboard/ imports the registry src/pages.ts",
      "src/documents/attach.ts imports src/webhooks/delivery-queue.ts: the feature documents/ reaches into webhooks/: import its entry, webhooks/index.ts, instead",
      "src/keys/routes.ts imports src/routes.ts: the feature keys/ imports the registry src/routes.ts, which imports the features",
      "src/pages.ts imports src/keys/keys-page.tsx: src/pages.ts reaches into keys/: import its entry, keys/index.ts, instead",
      "documents/ and webhooks/ import each other: src/documents/maintenance.ts imports src/webhooks/index.ts, and src/webhooks/deliver.ts imports src/documents/index.ts",
    ]);
  });
});
