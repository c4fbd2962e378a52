// Every shard has the same schema: wrangler.toml binds each shard with the shards' migrations and
// the directory with its own, `npm run db:migrate:local` applies them to every database, and its
// check fails, naming the shard, when one shard is not at the same migration as the others.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { d1Bindings, shardBindings } from "../../scripts/migrate.ts";
import { shellEnv } from "../support/node/npm-start.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const TOML = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
const WRANGLER = path.join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

/** The `[[d1_databases]]` blocks of wrangler.toml, by binding. */
function databaseBlocks(): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const block of TOML.split(/^\[\[d1_databases\]\]\s*$/m).slice(1)) {
    const body = block.split(/^\[/m)[0] ?? "";
    const binding = /^\s*binding\s*=\s*"([^"]+)"/m.exec(body)?.[1];
    if (binding) blocks.set(binding, body);
  }
  return blocks;
}

/** The migrations of a folder, as its drizzle journal lists them and as files. */
function migrationsOf(folder: string): { journal: string[]; files: string[] } {
  const dir = path.join(ROOT, folder);
  const journal = JSON.parse(readFileSync(path.join(dir, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  return {
    journal: journal.entries.map((e) => `${e.tag}.sql`),
    files: readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .sort(),
  };
}

describe("the shards' schema", () => {
  it("binds the directory and at least two shards, each with its migrations folder", () => {
    const blocks = databaseBlocks();
    const bindings = d1Bindings(TOML);
    expect(bindings).toContain("DIRECTORY");
    expect(shardBindings(bindings).length).toBeGreaterThanOrEqual(2);
    expect(bindings.filter((b) => b !== "DIRECTORY")).toEqual(shardBindings(bindings));
    expect(blocks.get("DIRECTORY")).toMatch(/^migrations_dir = "migrations-directory"$/m);
    const ids = new Set<string>();
    for (const shard of shardBindings(bindings)) {
      const block = blocks.get(shard) as string;
      expect(block).toMatch(/^migrations_dir = "migrations"$/m);
      ids.add(/^database_id = "([^"]+)"/m.exec(block)?.[1] as string);
    }
    // Each shard is a database of its own.
    expect(ids.size).toBe(shardBindings(bindings).length);
  });

  it("generates every migration it applies, in both folders", () => {
    for (const folder of ["migrations", "migrations-directory"]) {
      const { journal, files } = migrationsOf(folder);
      expect(files, folder).toEqual(journal);
    }
  });

  describe("npm run db:migrate:local", () => {
    const state = mkdtempSync(path.join(os.tmpdir(), "migrate-"));
    afterAll(() => rmSync(state, { recursive: true, force: true }));
    const run = (args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, "scripts", "migrate.ts"), ...args], {
        cwd: ROOT,
        env: shellEnv(),
        encoding: "utf8",
      });

    // One wrangler run per database and one per shard's check: slow on a loaded machine.
    it("applies the migrations to every shard and the directory, then checks them", {
      timeout: 240_000,
    }, () => {
      const res = run(["--local", "--persist-to", state]);
      expect(res.status, `${res.stdout}${res.stderr}`).toBe(0);
      const newest = migrationsOf("migrations")
        .journal.at(-1)
        ?.replace(/\.sql$/, "");
      const shards = shardBindings(d1Bindings(TOML));
      for (const binding of d1Bindings(TOML)) {
        expect(res.stdout).toContain(`Applying migrations to ${binding}`);
      }
      for (const shard of shards) expect(res.stdout).toContain(`${shard}: ${newest}`);
      expect(res.stdout).toContain(`✔ ${shards.length} shards at ${newest}`);
    });

    it("fails the check, naming the shard, when a shard is behind", () => {
      const [, behind] = shardBindings(d1Bindings(TOML));
      const forget = spawnSync(
        process.execPath,
        [
          WRANGLER,
          "d1",
          "execute",
          behind as string,
          "--local",
          "--persist-to",
          state,
          "--command",
          "DELETE FROM d1_migrations WHERE id = (SELECT max(id) FROM d1_migrations)",
        ],
        { cwd: ROOT, env: shellEnv({ WRANGLER_SEND_METRICS: "false" }), encoding: "utf8" },
      );
      expect(forget.status, `${forget.stdout}${forget.stderr}`).toBe(0);
      const res = run(["--local", "--persist-to", state, "--check"]);
      expect(res.status).toBe(1);
      expect(res.stderr).toContain("the shards are not at the same migration");
      expect(res.stderr).toContain(behind);
    });
  });
});
