// The shard map. Partner data lives in D1 databases bound as `DB_<code>` (DB_00, DB_01, …), all
// with the same schema; a partner lives on exactly one. Whatever reaches the service names the
// shard it needs: an API key, a PDF link, a page token, a session and a queue message carry the
// code; only requests that carry none (the operator's, a sign-in by address) ask the directory.
// A request opens each database it touches at most once, in one D1 session, and counts every
// round trip in one set of figures.
import { eq } from "drizzle-orm";
import { isJurisdiction, type Jurisdiction } from "../domain/jurisdiction";
import { isShardCode } from "../domain/shard-code";
import { type Database, openDatabase, type QueryStats } from "./client";
import { partners } from "./schema";
import { isStorageOutage } from "./storage";

export { FIRST_SHARD } from "../domain/shard-code";

const SHARD_BINDING = /^DB_([0-9A-Za-z]{2})$/;

/** The shard codes a deployment binds, in order (from its `DB_xx` bindings). */
export function shardCodes(env: object): string[] {
  const codes: string[] = [];
  for (const name of Object.keys(env)) {
    const code = SHARD_BINDING.exec(name)?.[1];
    if (code) codes.push(code);
  }
  return codes.sort();
}

/** The binding of shard `code`, or null when the deployment has no such shard. */
export function shardBinding(env: object, code: string): D1Database | null {
  if (!isShardCode(code)) return null;
  // A shard's binding is named at deploy time (`DB_<code>`), so the env's type cannot list it:
  // the name was just checked to be a shard code, and a binding by that name is its database.
  const binding = (env as Record<string, D1Database | undefined>)[`DB_${code}`];
  return binding ? binding : null;
}

/**
 * A shard's jurisdiction cannot be read from its binding: the deployment declares it in
 * `SHARD_JURISDICTIONS` (`[vars]`, a map of shard code to jurisdiction), matching the
 * `--jurisdiction` the database was created with. A shard it does not name has none.
 */
export interface ShardJurisdictionsConfig {
  SHARD_JURISDICTIONS?: unknown;
}

/** The declaration is not a map of shard codes to jurisdictions: a deployment's mistake. */
export class ShardJurisdictionsError extends Error {
  constructor(problem: string) {
    super(`SHARD_JURISDICTIONS: ${problem}`);
    this.name = "ShardJurisdictionsError";
  }
}

/** Declarations read: by the var's object (the runtime keeps one per isolate), or by its text. */
const declaredByObject = new WeakMap<object, ReadonlyMap<string, Jurisdiction>>();
const declaredByText = new Map<string, ReadonlyMap<string, Jurisdiction>>();

/** The shards' declared jurisdictions (those it does not name have none); read once per isolate. */
function declaredJurisdictions(env: ShardJurisdictionsConfig): ReadonlyMap<string, Jurisdiction> {
  const raw = env.SHARD_JURISDICTIONS;
  if (raw === undefined || raw === null || raw === "") return new Map();
  const kept =
    typeof raw === "object" ? declaredByObject.get(raw) : declaredByText.get(String(raw));
  if (kept) return kept;
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ShardJurisdictionsError("not JSON");
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ShardJurisdictionsError("not a map of shard codes to jurisdictions");
  }
  const declared = new Map<string, Jurisdiction>();
  for (const [code, jurisdiction] of Object.entries(value)) {
    if (!isShardCode(code)) throw new ShardJurisdictionsError(`${code} is not a shard code`);
    if (!isJurisdiction(jurisdiction)) {
      throw new ShardJurisdictionsError(
        `shard ${code} has ${JSON.stringify(jurisdiction)}; jurisdictions: none, eu, us, fedramp`,
      );
    }
    declared.set(code, jurisdiction);
  }
  if (typeof raw === "object") declaredByObject.set(raw, declared);
  else declaredByText.set(String(raw), declared);
  return declared;
}

/** The jurisdiction of shard `code`, as the deployment declares it (`none` if it does not). */
export function shardJurisdiction(env: ShardJurisdictionsConfig, code: string): Jurisdiction {
  return declaredJurisdictions(env).get(code) ?? "none";
}

/** A shard code the deployment has no binding for, where one was known to exist. */
export class UnknownShardError extends Error {
  constructor(readonly shard: string) {
    super(`no database is bound for shard ${shard}`);
    this.name = "UnknownShardError";
  }
}

/** The databases one request (or one queue batch, one cron run) may open. */
export interface Shards {
  /** Every shard of the deployment, in code order. */
  readonly codes: readonly string[];
  /** The jurisdiction shard `code` was created in (see `shardJurisdiction`). */
  jurisdiction(code: string): Jurisdiction;
  /** Shard `code`'s database, opened once (one session); null when there is no such shard. */
  open(code: string): Database | null;
  /**
   * As `open`, for a code the deployment holds: one of `codes`, or one that a placement, a
   * move or a stored row names. Throws `UnknownShardError` for any other: that is a deployment
   * that lost a binding, never a request's input.
   */
  mustOpen(code: string): Database;
  /** The directory database, opened once. */
  directory(): Database;
}

/** The shards of `env`, each opened on first use with its round trips counted in `stats`. */
export function openShards(
  env: { DIRECTORY: D1Database } & ShardJurisdictionsConfig,
  stats: QueryStats,
): Shards {
  const opened = new Map<string, Database>();
  const open = (name: string, binding: D1Database) => {
    let db = opened.get(name);
    if (!db) {
      db = openDatabase(binding, stats).db;
      opened.set(name, db);
    }
    return db;
  };
  let codes: string[] | undefined;
  return {
    // Read from the bindings only by what reaches every shard: never on a partner's request.
    get codes() {
      codes ??= shardCodes(env);
      return codes;
    },
    jurisdiction: (code) => shardJurisdiction(env, code),
    open(code) {
      const binding = shardBinding(env, code);
      return binding ? open(code, binding) : null;
    },
    mustOpen(code) {
      const binding = shardBinding(env, code);
      if (!binding) throw new UnknownShardError(code);
      return open(code, binding);
    },
    directory: () => open("directory", env.DIRECTORY),
  };
}

/**
 * A partner's data as one request sees it: the shard it lives on, and whether it is frozen
 * there by a move (its writes are refused until the move switches over).
 */
export interface PartnerDatabase {
  db: Database;
  shard: string;
  moving: boolean;
}

/** How long a queue message waits while its partner is being moved (its writes are paused). */
export const MOVING_DELAY_SECONDS = 30;

/**
 * A move leaves one forward behind, and later moves point the older forwards at the partner's
 * new shard; a chain longer than this is broken, not followed.
 */
const MAX_FORWARDS = 4;

/** What a lookup found on one shard: its answer, the shard the partner moved to, or nothing. */
export type Hop<T> = { found: true; value: T } | { found: false; movedTo: string } | null;

/** A lookup's answer on this shard. */
export const here = <T>(value: T): Hop<T> => ({ found: true, value });

/** The partner moved: ask shard `shard`. */
export const movedTo = <T>(shard: string): Hop<T> => ({ found: false, movedTo: shard });

/**
 * Runs `read` on shard `shard` and, while it answers that the partner moved, on the shard it
 * moved to (one round trip more per forward). Null when nothing is found, or the code names no
 * shard of this deployment (then nothing is read at all).
 */
export async function followForwards<T>(
  shards: Shards,
  shard: string,
  read: (db: Database, shard: string) => Promise<Hop<T>>,
): Promise<{ value: T; db: Database; shard: string } | null> {
  let at = shard;
  for (let hop = 0; hop < MAX_FORWARDS; hop++) {
    const db = shards.open(at);
    if (!db) return null;
    const answer = await read(db, at);
    if (answer === null) return null;
    if (answer.found) return { value: answer.value, db, shard: at };
    at = answer.movedTo;
  }
  return null;
}

/**
 * The partner's database, starting from the shard something named (a queue message, a link):
 * when the partner has moved away from it, the shard it moved to. Null when the partner is on
 * none of them (or the code names no shard). One round trip per shard looked at. What a queue
 * consumer calls with the shard and partner its message carries.
 */
export async function openPartnerDatabase(
  shards: Shards,
  at: { shard: string; partnerId: string },
): Promise<PartnerDatabase | null> {
  const found = await followForwards(shards, at.shard, async (db) => {
    const [row] = await db
      .select({ movingTo: partners.movingTo, movedTo: partners.movedTo })
      .from(partners)
      .where(eq(partners.partnerId, at.partnerId));
    if (!row) return null;
    return row.movedTo === null ? here(row.movingTo !== null) : movedTo<boolean>(row.movedTo);
  });
  return found && { db: found.db, shard: found.shard, moving: found.value };
}

/** Where a partner stands on one shard: moved away (to `movedTo`), or being moved (to `movingTo`). */
export interface PartnerState {
  movedTo: string | null;
  movingTo: string | null;
}

/**
 * Which of these partners have moved away from shard `shard` (with the shard each lives on now:
 * a move points every older forward at the partner's newest shard) or are being moved off it:
 * one read of that shard. Partners it holds no row of are left out.
 */
export async function partnerStates(
  shards: Shards,
  shard: string,
  partnerIds: readonly string[],
): Promise<Map<string, PartnerState>> {
  const db = shards.open(shard);
  if (!db || partnerIds.length === 0) return new Map();
  const { results } = await db.$client
    .prepare(
      "SELECT partner_id, moved_to, moving_to FROM partners WHERE partner_id IN " +
        "(SELECT value FROM json_each(?1)) AND (moved_to IS NOT NULL OR moving_to IS NOT NULL)",
    )
    .bind(JSON.stringify([...new Set(partnerIds)]))
    .all<{ partner_id: string; moved_to: string | null; moving_to: string | null }>();
  return new Map(
    results.map((r) => [r.partner_id, { movedTo: r.moved_to, movingTo: r.moving_to }]),
  );
}

/** Some shards could not be read: a listing across them would be incomplete. */
export class ShardsUnavailableError extends Error {
  constructor(
    readonly shards: readonly string[],
    cause: unknown,
  ) {
    super(`shards unavailable: ${shards.join(", ")}`, { cause });
    this.name = "ShardsUnavailableError";
  }
}

/** How many shards one fan-out works on at the same time. */
const FAN_OUT_CONCURRENCY = 8;

/** What `work` did on one shard: its result, or the error it failed with. */
export type ShardOutcome<T> =
  | { shard: string; ok: true; result: T }
  | { shard: string; ok: false; error: unknown };

/**
 * Runs `work` on every shard, at most FAN_OUT_CONCURRENCY at a time, and answers each shard's
 * outcome in code order: one shard that fails (or hangs until its timeout) stops no other. What
 * the cron and the queue consumers use to reach every shard.
 */
export async function forEachShard<T>(
  shards: Shards,
  work: (db: Database, shard: string) => Promise<T>,
): Promise<ShardOutcome<T>[]> {
  const codes = [...shards.codes];
  const outcomes: ShardOutcome<T>[] = new Array(codes.length);
  // One iterator shared by the workers: each takes the next shard when it is done with one.
  const pending = codes.entries();
  const worker = async () => {
    for (const [i, shard] of pending) {
      try {
        outcomes[i] = { shard, ok: true, result: await work(shards.mustOpen(shard), shard) };
      } catch (error) {
        outcomes[i] = { shard, ok: false, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FAN_OUT_CONCURRENCY, codes.length) }, worker));
  return outcomes;
}

/**
 * Runs `read` on every shard (as `forEachShard`) and answers the results in code order. All or
 * nothing: when any shard's storage fails, ShardsUnavailableError names every shard that failed
 * (a cross-shard answer is never silently partial); any other error is thrown as it is.
 */
export async function acrossShards<T>(
  shards: Shards,
  read: (db: Database, shard: string) => Promise<T>,
): Promise<{ shard: string; result: T }[]> {
  const outcomes = await forEachShard(shards, read);
  throwUnavailable(outcomes);
  return outcomes.flatMap((o) => (o.ok ? [{ shard: o.shard, result: o.result }] : []));
}

/**
 * Throws when any shard failed: ShardsUnavailableError naming every shard whose storage failed,
 * or the first other error as it is.
 */
export function throwUnavailable(outcomes: readonly ShardOutcome<unknown>[]): void {
  const failed: string[] = [];
  let firstError: unknown;
  for (const outcome of outcomes) {
    if (outcome.ok) continue;
    if (!isStorageOutage(outcome.error)) throw outcome.error;
    if (failed.length === 0) firstError = outcome.error;
    failed.push(outcome.shard);
  }
  if (failed.length > 0) throw new ShardsUnavailableError(failed, firstError);
}
