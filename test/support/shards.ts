// The shards of the test run (DB_00, DB_01 and the directory, as wrangler.toml binds them), and
// where a partner lives: what tests read or change rows of a partner with.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { shardBinding, shardCodes } from "../../src/db/shards";
import { expectJson, operator } from "./api";

/** Every shard code the test run binds (at least two). */
export const SHARDS = shardCodes(env);

/** The D1 binding of shard `code`. */
export function shardDatabase(code: string): D1Database {
  const binding = shardBinding(env, code);
  if (!binding) throw new Error(`no shard ${code}`);
  return binding;
}

/** The shard a partner lives on, as the operator API shows it. */
export async function shardOf(partnerId: string): Promise<string> {
  const res = await operator("GET", `/partners/${encodeURIComponent(partnerId)}`);
  const body = await expectJson<{ shard: string }>(res, 200);
  expect(SHARDS).toContain(body.shard);
  return body.shard;
}

/** The D1 database holding a partner's rows (for tests that read or change them directly). */
export async function partnerDatabase(partnerId: string): Promise<D1Database> {
  return shardDatabase(await shardOf(partnerId));
}

/** A shard other than `code`. */
export function otherShard(code: string): string {
  const other = SHARDS.find((s) => s !== code);
  if (!other) throw new Error("the test run binds a single shard");
  return other;
}

/**
 * Bindings that replace the partner's shard with `wrap(shard)` (a probe, a failing binding), to
 * lay over the test environment (`fetchWithEnv`).
 */
export async function partnerShardOverride(
  partnerId: string,
  wrap: (db: D1Database) => D1Database,
): Promise<Record<string, D1Database>> {
  const shard = await shardOf(partnerId);
  return { [`DB_${shard}`]: wrap(shardDatabase(shard)) };
}

/** Runs one statement on every shard (for a row known by id only); answers the rows changed. */
export async function onEveryShard(sql: string, ...values: unknown[]): Promise<number> {
  let changes = 0;
  for (const shard of SHARDS) {
    const result = await shardDatabase(shard)
      .prepare(sql)
      .bind(...values)
      .run();
    changes += result.meta.changes ?? 0;
  }
  return changes;
}

/** The first row `sql` selects on any shard (for a row known by id only), or null. */
export async function firstOnAnyShard<T>(sql: string, ...values: unknown[]): Promise<T | null> {
  for (const shard of SHARDS) {
    const row = await shardDatabase(shard)
      .prepare(sql)
      .bind(...values)
      .first<T>();
    if (row) return row;
  }
  return null;
}

/** The sum over every shard of the `n` that `sql` (a `SELECT count(*) AS n …`) answers. */
export async function countOnEveryShard(sql: string, ...values: unknown[]): Promise<number> {
  let total = 0;
  for (const shard of SHARDS) {
    const row = await shardDatabase(shard)
      .prepare(sql)
      .bind(...values)
      .first<{ n: number }>();
    total += row?.n ?? 0;
  }
  return total;
}

/** A D1 binding whose every call fails as a lost connection does: an unreachable shard. */
export function unreachableD1(): D1Database {
  const lost = () => new Error("D1_ERROR: Network connection lost.");
  const failing = {
    prepare() {
      throw lost();
    },
    batch() {
      return Promise.reject(lost());
    },
    exec() {
      return Promise.reject(lost());
    },
    // Every request opens a session; the failing session is the failing binding itself.
    withSession() {
      return failing;
    },
  };
  return failing as unknown as D1Database;
}
