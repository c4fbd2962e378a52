// `npm run version:new -- YYYY-MM-DD` on a copy of versions/: the module it writes, the bundle
// edit (import and VERSIONS entry in date order, formatted as Biome formats them), and refusals.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addToBundle, moduleSource } from "../../scripts/version-new.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const BIOME = path.join(ROOT, "node_modules", ".bin", "biome");
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "version-new-"));
  cpSync(path.join(ROOT, "versions"), dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function versionNew(id: string) {
  return spawnSync(
    process.execPath,
    [path.join(ROOT, "scripts", "version-new.ts"), id, "--dir", dir],
    { cwd: ROOT, encoding: "utf8" },
  );
}

/** What Biome makes of a file of the repository with this content (lint included). */
function biomeFormatted(file: string, text: string): string {
  const run = spawnSync(BIOME, ["check", "--write", `--stdin-file-path=${file}`], {
    cwd: ROOT,
    input: text,
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/** The bundle's dated versions (those versions/index.ts lists), oldest first. */
const DATED = readFileSync(path.join(ROOT, "versions", "index.ts"), "utf8")
  .split("\n")
  .map((line) => /^import \{ v\w+ \} from "\.\/(\d{4}-\d{2}-\d{2})";$/.exec(line)?.[1])
  .filter((id): id is string => id !== undefined)
  .sort();
const shifted = (id: string, days: number) =>
  new Date(Date.parse(id) + days * 86_400_000).toISOString().slice(0, 10);

const versionsLine = (index: string) => /export const VERSIONS[^;]*;/s.exec(index)?.[0] ?? "";
const datedImports = (index: string) => index.split("\n").filter((l) => /from "\.\/\d{4}-/.test(l));

describe("npm run version:new", () => {
  it("writes the module and adds it to the bundle, newest first, in two files", () => {
    const before = readFileSync(path.join(dir, "index.ts"), "utf8");
    const run = versionNew("2099-03-01");
    expect(run.status, run.stderr).toBe(0);
    const module = readFileSync(path.join(dir, "2099-03-01.ts"), "utf8");
    expect(module).toBe(moduleSource("2099-03-01"));
    expect(module).toContain("export const v2099_03_01: ApiVersion = {");
    const index = readFileSync(path.join(dir, "index.ts"), "utf8");
    const added = index.split("\n").filter((line) => !before.split("\n").includes(line));
    expect(added).toContain('import { v2099_03_01 } from "./2099-03-01";');
    expect(versionsLine(index)).toMatch(
      /^export const VERSIONS: readonly ApiVersion\[\] = \[\s*latest,\s*v2099_03_01,/,
    );
    // Exactly what the formatter and linter accept as they are.
    expect(biomeFormatted("versions/index.ts", index)).toBe(index);
    expect(biomeFormatted("versions/2099-03-01.ts", module)).toBe(module);
  });

  it("places a version between others by its date, and wraps a long list as Biome does", () => {
    let index = readFileSync(path.join(dir, "index.ts"), "utf8");
    const oldest = DATED[0] as string;
    const newest = DATED.at(-1) as string;
    // After the newest, just after the oldest (between it and the next), adjacent to the first
    // one added, and before the oldest.
    const added = [
      shifted(newest, 365),
      shifted(oldest, 1),
      shifted(newest, 364),
      shifted(oldest, -1),
    ];
    for (const id of added) {
      index = addToBundle(index, id);
    }
    const entries = versionsLine(index)
      .replace(/^.*= \[|\];$/gs, "")
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean);
    const dated = entries
      .filter((e) => e.startsWith("v"))
      .map((e) => e.slice(1).replaceAll("_", "-"));
    expect(dated).toEqual([...dated].sort().reverse());
    expect(dated).toEqual(expect.arrayContaining([...DATED, ...added]));
    expect(entries[0]).toBe("latest");
    const imports = datedImports(index).map((l) => /"\.\/(.+)"/.exec(l)?.[1]);
    expect(imports).toEqual([...imports].sort());
    expect(biomeFormatted("versions/index.ts", index)).toBe(index);
  });

  it("refuses a day that does not exist, a version already there, and a bundle it cannot read", () => {
    expect(versionNew("2027-02-30").stderr).toContain("is not a day");
    expect(versionNew("2027-3-1").status).toBe(1);
    expect(versionNew("2099-03-01").status).toBe(0);
    const again = versionNew("2099-03-01");
    expect([again.status, again.stderr.includes("exists already")]).toEqual([1, true]);
    const index = path.join(dir, "index.ts");
    const existing = datedImports(readFileSync(index, "utf8"))[0] ?? "";
    const id = /"\.\/(.+)"/.exec(existing)?.[1] ?? "";
    rmSync(path.join(dir, `${id}.ts`));
    expect(versionNew(id).stderr).toContain("is in the bundle");
    writeFileSync(index, "export const bundle = {};\n");
    expect(versionNew("2099-04-01").stderr).toContain("no `export const VERSIONS`");
    expect(versionNew("").status).toBe(2);
  });
});
