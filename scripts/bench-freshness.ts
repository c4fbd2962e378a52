// Whether bench/RESULTS.md still measures the schema: it records the last shard migration of the
// tree it was measured on, and a later migration that touches a table with an index (a new index,
// a changed one, a table rebuilt) may change what a page or a write costs, so the results are
// then stale. Read from the files alone, not from git history, so that it holds in any checkout
// (a shallow clone has no history). `node scripts/bench-freshness.ts` prints the verdict;
// test/node/bench-results-fresh.test.ts runs it with the other tests.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
export const MIGRATIONS_DIR = path.join(ROOT, "migrations");
export const RESULTS_FILE = path.join(ROOT, "bench", "RESULTS.md");

/** The line of RESULTS.md that names the last migration of the measured tree. */
export const SCHEMA_LINE = "- Schema: the shards' migrations up to ";

/** The shard migrations' file names, oldest first. */
export function migrationNames(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort();
}

const name = String.raw`[\x60"]?(\w+)[\x60"]?`;
/** A table's name as drizzle's rebuilds write it (`__new_x` becomes `x`). */
const tableName = (raw: string) => raw.replace(/^__new_/, "");

/**
 * The tables each migration touches (creates, alters, rebuilds, fills, or indexes), and every
 * table that has an index by the end of them.
 */
export function migrationTables(files: { name: string; sql: string }[]): {
  touched: Map<string, Set<string>>;
  indexed: Set<string>;
} {
  const indexTable = new Map<string, string>();
  const indexed = new Set<string>();
  const touched = new Map<string, Set<string>>();
  for (const file of files) {
    const tables = new Set<string>();
    for (const m of file.sql.matchAll(
      new RegExp(
        String.raw`CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF NOT EXISTS\s+)?${name}\s+ON\s+${name}`,
        "gi",
      ),
    )) {
      const [, index = "", table = ""] = m;
      indexTable.set(index, tableName(table));
      indexed.add(tableName(table));
      tables.add(tableName(table));
    }
    for (const m of file.sql.matchAll(
      new RegExp(
        String.raw`(?:CREATE|ALTER|DROP)\s+TABLE\s+(?:IF (?:NOT )?EXISTS\s+)?${name}|INSERT\s+INTO\s+${name}`,
        "gi",
      ),
    )) {
      tables.add(tableName(m[1] ?? m[2] ?? ""));
    }
    for (const m of file.sql.matchAll(
      new RegExp(String.raw`DROP\s+INDEX\s+(?:IF EXISTS\s+)?${name}`, "gi"),
    )) {
      const table = indexTable.get(m[1] ?? "");
      if (table) tables.add(table);
    }
    touched.set(file.name, tables);
  }
  return { touched, indexed };
}

/** The last migration that touches a table with an index, or null when none does. */
export function lastIndexedMigration(dir = MIGRATIONS_DIR): string | null {
  const files = migrationNames(dir).map((f) => ({
    name: f,
    sql: readFileSync(path.join(dir, f), "utf8"),
  }));
  const { touched, indexed } = migrationTables(files);
  const touching = files.filter((f) =>
    [...(touched.get(f.name) ?? [])].some((t) => indexed.has(t)),
  );
  return touching.at(-1)?.name ?? null;
}

/** The migration RESULTS.md says its figures were measured on, or null when it does not say. */
export function recordedMigration(results: string): string | null {
  const line = results.split("\n").find((l) => l.startsWith(SCHEMA_LINE));
  return line?.slice(SCHEMA_LINE.length).match(/^`?(\d{4}_[\w-]+\.sql)/)?.[1] ?? null;
}

/** Why RESULTS.md is stale, or null when it measured a schema as new as the indexed tables'. */
export function staleness(results: string, lastIndexed: string | null): string | null {
  if (lastIndexed === null) return null;
  const recorded = recordedMigration(results);
  if (recorded === null) {
    return `bench/RESULTS.md names no schema (a "${SCHEMA_LINE.trim()}" line): run npm run bench`;
  }
  if (recorded < lastIndexed) {
    return (
      `bench/RESULTS.md was measured on the migrations up to ${recorded}, but ${lastIndexed} ` +
      "changes a table with an index since: run npm run bench and commit its RESULTS.md"
    );
  }
  return null;
}

if (import.meta.filename === process.argv[1]) {
  const why = staleness(readFileSync(RESULTS_FILE, "utf8"), lastIndexedMigration());
  if (why) {
    console.error(why);
    process.exitCode = 1;
  } else {
    console.log("bench/RESULTS.md measured the current indexed tables");
  }
}
