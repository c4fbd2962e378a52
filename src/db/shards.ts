// The shards: the D1 databases that hold partners' data, bound as `DB_00`, `DB_01` and so on, all
// with the same schema. A partner's data lives in exactly one of them.
//
// Whatever reaches the service carries the code of the shard it needs: an API key, a PDF link, a
// page token, a session cookie and a queue message all do. Only a request that carries none, such
// as the operator's or a sign-in by email address, asks the directory where the partner lives. A
// request opens each database it touches at most once, and counts all its round trips together.
import { eq } from "drizzle-orm";
import { isJurisdiction, type Jurisdiction } from "../domain/jurisdiction";
import { isShardCode } from "../domain/shard-code";
import { type Database, openDatabase, type QueryStats } from "./client";
import { partners } from "./schema";
import { isStorageOutage } from "./storage";

export { FIRST_SHARD } from "../domain/shard-code";

const SHARD_BINDING = /^DB_([0-9A-Za-z]{2})$/;

/** The codes of the shards the deployment binds, read from its `DB_xx` bindings, in order. */
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
 * Where the deployment declares each shard's jurisdiction, since a binding cannot tell it. The
 * `SHARD_JURISDICTIONS` variable maps shard codes to the jurisdiction each database was created
 * in with `--jurisdiction`. A shard it does not name has none.
 */
export interface ShardJurisdictionsConfig {
  SHARD_JURISDICTIONS?: unknown;
}

/** `SHARD_JURISDICTIONS` is not a map of shard codes to jurisdictions: a deployment's mistake. */
export class ShardJurisdictionsError extends Error {
  constructor(problem: string) {
    super(`SHARD_JURISDICTIONS: ${problem}`);
    this.name = "ShardJurisdictionsError";
  }
}

/** The declarations read so far, by the object the runtime reuses or else by the text. */
const declaredByObject = new WeakMap<object, ReadonlyMap<string, Jurisdiction>>();
const declaredByText = new Map<string, ReadonlyMap<string, Jurisdiction>>();

/** The jurisdictions the deployment declares for its shards. */
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

/** The jurisdiction of shard `code` as the deployment declares it, or `none` when it does not. */
export function shardJurisdiction(env: ShardJurisdictionsConfig, code: string): Jurisdiction {
  return declaredJurisdictions(env).get(code) ?? "none";
}

/** A shard that should exist, such as one a stored row names, has no binding. */
export class UnknownShardError extends Error {
  constructor(readonly shard: string) {
    super(`no database is bound for shard ${shard}`);
    this.name = "UnknownShardError";
  }
}

/** The databases that one request, one batch of queue messages or one cron run may open. */
export interface Shards {
  /** Every shard of the deployment, in code order. */
  readonly codes: readonly string[];
  /** The jurisdiction shard `code` was created in (see `shardJurisdiction`). */
  jurisdiction(code: string): Jurisdiction;
  /** The database of shard `code`, opened on first use, or null when there is no such shard. */
  open(code: string): Database | null;
  /**
   * The database of a shard known to exist: one of `codes`, or one that a placement, a move or a
   * stored row names. Any other code throws `UnknownShardError`, since it means the deployment
   * lost a binding; a code from a request's input goes to `open` instead.
   */
  mustOpen(code: string): Database;
  /** The directory database, opened once. */
  directory(): Database;
}

/**
 * The shards of `env`, each opened on first use, with its round trips counted in `stats`.
 *
 * @example
 * const shards = openShards(env, newQueryStats());
 * const db = shards.open(key.shard); // null when the code names no shard
 * const placements = await shards.directory().select().from(partnerShards);
 */
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
    // Listed only when asked, since only work that reaches every shard asks, and a partner's
    // request never does.
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
 * A partner's data as one request sees it: the shard it lives on, and whether a move has frozen it
 * there, in which case its writes are refused until the move is over.
 */
export interface PartnerDatabase {
  db: Database;
  shard: string;
  moving: boolean;
}

/** How long a queue message is put off while its partner is being moved and writes are paused. */
export const MOVING_DELAY_SECONDS = 30;

/**
 * The most forwards a lookup follows. A move leaves a forward on the shard it left, and later moves
 * point the older forwards at the partner's newest shard, so a longer chain is broken.
 */
const MAX_FORWARDS = 4;

/** What a lookup found on one shard: its answer, the shard the partner moved to, or nothing. */
export type Hop<T> = { found: true; value: T } | { found: false; movedTo: string } | null;

/** The lookup found its answer on this shard. */
export const here = <T>(value: T): Hop<T> => ({ found: true, value });

/** The partner has moved to shard `shard`, where the lookup goes on. */
export const movedTo = <T>(shard: string): Hop<T> => ({ found: false, movedTo: shard });

/**
 * Runs `read` on shard `shard` and, for as long as it answers that the partner moved, on the shard
 * the partner moved to, at one round trip per forward. It answers null when nothing is found, or
 * when the code names no shard of this deployment, in which case nothing is read at all.
 *
 * @example
 * const found = await followForwards(shards, token.shard, async (db) => {
 *   const [row] = await db.select().from(partners).where(eq(partners.partnerId, partnerId));
 *   if (!row) return null;
 *   return row.movedTo === null ? here(row) : movedTo(row.movedTo);
 * });
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
 * The partner's database, found from the shard that a queue message or a link names: that shard,
 * or the one the partner has moved to since. It is null when the partner is on none of them or the
 * code names no shard. A queue consumer calls it with the shard and partner its message carries.
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
 * Which of these partners have moved away from shard `shard`, and to which shard, or are being
 * moved off it, in one read of that shard. Partners that are settled there, or that it holds no row
 * of, are left out.
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

/** Thrown when some shards could not be read, so a listing across them would be incomplete. */
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
 * Runs `work` on every shard, a few at a time, and answers each shard's outcome in code order. A
 * shard that fails, or hangs until its timeout, stops no other, which is what the cron jobs and
 * queue consumers need of a task on every shard.
 *
 * @example
 * const outcomes = await forEachShard(shards, (db, shard) =>
 *   maintainShard(steps, { env, db, shard, now }),
 * );
 * for (const o of outcomes) if (!o.ok) console.error(`shard ${o.shard}`, o.error);
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
 * Runs `read` on every shard, as `forEachShard` does, and answers the results in code order, all or
 * nothing. When any shard's storage fails it throws ShardsUnavailableError naming every shard that
 * failed, so an answer across shards is never silently partial. Any other error is thrown as it is.
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
