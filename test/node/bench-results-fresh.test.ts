// bench/RESULTS.md goes stale when a migration changes a table with an index after it was
// measured: a page or a write may cost something else since. Checked from the files alone (no
// git history), so it holds in a shallow clone too.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  lastIndexedMigration,
  migrationTables,
  RESULTS_FILE,
  SCHEMA_LINE,
  staleness,
} from "../../scripts/bench-freshness.ts";

describe("bench/RESULTS.md", () => {
  it("was measured on a schema as new as the last migration of an indexed table", () => {
    expect(staleness(readFileSync(RESULTS_FILE, "utf8"), lastIndexedMigration())).toBeNull();
  });
});

describe("the freshness rule", () => {
  const files = [
    {
      name: "0001_a.sql",
      sql: "CREATE TABLE `a` (`id` text);\nCREATE INDEX `a_idx` ON `a` (`id`);",
    },
    { name: "0002_b.sql", sql: "CREATE TABLE `b` (`id` text);" },
    { name: "0003_a.sql", sql: "ALTER TABLE `a` ADD `x` text;" },
    { name: "0004_c.sql", sql: "DROP INDEX `a_idx`;" },
  ];

  it("finds the tables each migration touches, and those with an index", () => {
    const { touched, indexed } = migrationTables(files);
    expect([...indexed]).toEqual(["a"]);
    expect([...(touched.get("0002_b.sql") ?? [])]).toEqual(["b"]);
    expect([...(touched.get("0003_a.sql") ?? [])]).toEqual(["a"]);
    expect([...(touched.get("0004_c.sql") ?? [])]).toEqual(["a"]);
  });

  it("calls results stale when an indexed table changed after the migration they name", () => {
    const results = (migration: string) => `# Benchmark results\n\n${SCHEMA_LINE}${migration}\n`;
    expect(staleness(results("0003_a.sql"), "0004_c.sql")).toMatch(/0004_c\.sql changes a table/);
    expect(staleness(results("0004_c.sql"), "0004_c.sql")).toBeNull();
    expect(staleness("# Benchmark results\n", "0004_c.sql")).toMatch(/names no schema/);
  });
});
