// `npm run db:migrate:local` / `db:migrate:remote`: applies the migrations to every D1 database
// wrangler.toml binds (each shard DB_xx gets migrations/, the directory migrations-directory/),
// then checks that every shard is at the same migration: a shard left behind would break the
// partners who live on it. `--check` only checks. `--persist-to <dir>` as wrangler's.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const WRANGLER = path.join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const SHARD = /^DB_[0-9A-Za-z]{2}$/;

/** The D1 bindings of wrangler.toml (the shards' and the directory's), in the file's order. */
export function d1Bindings(toml: string): string[] {
  const bindings: string[] = [];
  for (const block of toml.split(/^\[\[d1_databases\]\]\s*$/m).slice(1)) {
    const body = block.split(/^\[/m)[0] ?? "";
    const binding = /^\s*binding\s*=\s*"([^"]+)"/m.exec(body)?.[1];
    if (binding) bindings.push(binding);
  }
  return bindings;
}

/** The shard bindings among them. */
export const shardBindings = (bindings: readonly string[]) => bindings.filter((b) => SHARD.test(b));

/** Where wrangler runs: the service's folder, and its environment. */
interface Place {
  root: string;
  env: NodeJS.ProcessEnv;
}

function wrangler(place: Place, args: string[], where: string[]): { ok: boolean; out: string } {
  const result = spawnSync(process.execPath, [WRANGLER, ...args, ...where], {
    cwd: place.root,
    encoding: "utf8",
    env: { ...place.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  return { ok: result.status === 0, out: `${result.stdout}${result.stderr}` };
}

/** The migrations applied to one database, oldest first (wrangler's own `d1_migrations` table). */
function applied(place: Place, binding: string, where: string[]): string[] {
  const { ok, out } = wrangler(
    place,
    ["d1", "execute", binding, "--json", "--command", "SELECT name FROM d1_migrations ORDER BY id"],
    where,
  );
  if (!ok) throw new Error(`reading the migrations of ${binding} failed:\n${out}`);
  const parsed = JSON.parse(out.slice(out.indexOf("["))) as { results: { name: string }[] }[];
  return (parsed[0]?.results ?? []).map((r) => r.name);
}

/**
 * Applies the migrations to every database of wrangler.toml (`where`: `--local` or `--remote`,
 * and `--persist-to <dir>`), then, with `check`, checks the shards are at the same migration.
 * Answers what went wrong, or null.
 */
export function migrateAll(
  where: string[],
  options: {
    apply: boolean;
    check: boolean;
    log?: (line: string) => void;
    /** The service's folder (this repository by default) and wrangler's environment. */
    root?: string;
    env?: NodeJS.ProcessEnv;
  },
): string | null {
  const log = options.log ?? (() => {});
  const place = { root: options.root ?? ROOT, env: options.env ?? process.env };
  const bindings = d1Bindings(readFileSync(path.join(place.root, "wrangler.toml"), "utf8"));
  if (options.apply) {
    for (const binding of bindings) {
      log(`Applying migrations to ${binding}…`);
      const { ok, out } = wrangler(place, ["d1", "migrations", "apply", binding], where);
      if (!ok) return `applying the migrations to ${binding} failed:\n${out}`;
    }
  }
  if (!options.check) return null;
  // Every shard must hold the same migrations, in the same order.
  const seen = shardBindings(bindings).map((binding) => ({
    binding,
    names: applied(place, binding, where),
  }));
  const [first] = seen;
  if (!first) return "wrangler.toml binds no shard (DB_00, DB_01, …)";
  for (const s of seen) log(`${s.binding}: ${s.names.at(-1) ?? "(none)"}`);
  const behind = seen.filter((s) => s.names.join() !== first.names.join());
  if (behind.length > 0) {
    const names = behind.map((s) => s.binding).join(", ");
    return `the shards are not at the same migration: ${names} differ from ${first.binding}`;
  }
  log(`✔ ${seen.length} shards at ${first.names.at(-1) ?? "no migration"}`);
  return null;
}

function main(): void {
  const args = process.argv.slice(2);
  const persist = args.indexOf("--persist-to");
  const where = [args.includes("--remote") ? "--remote" : "--local"];
  if (persist !== -1 && args[persist + 1]) where.push("--persist-to", args[persist + 1] as string);
  const problem = migrateAll(where, {
    apply: !args.includes("--check"),
    check: true,
    log: (line) => console.log(line),
  });
  if (problem) {
    console.error(`✖ ${problem}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
