// The key lookup: the first round trip of every partner request, with the live key's caller, and
// the reads a route planned before authentication riding in the same statement.
import {
  and,
  eq,
  fillPlaceholders,
  gt,
  isNull,
  lt,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { QueryBuilder, SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { Caller } from "../domain/caller";
import { storedScopes } from "../domain/scopes";
import { allOf } from "./batch";
import type { Database } from "./client";
import { apiKeys, partners } from "./schema";
import { followForwards, type Hop, here, movedTo, type Shards } from "./shards";

// The hot path's SQL is built once per isolate from the schema, with placeholders, and only bound
// per request: building a drizzle query costs more CPU than the rest of a request's own work.
const qb = new QueryBuilder();
const placeholder = sql.placeholder;

/**
 * The one definition of a live key: not revoked, and not past its expiry at `now` (the request
 * clock, RFC 3339 UTC, which sorts like the stored instants). Every read gated on a key uses it.
 */
export function keyIsLive(now: SQLWrapper | string): SQL {
  return allOf(
    isNull(apiKeys.revokedAt),
    or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
  );
}

/**
 * When a key may authenticate: its hash matches and it is live at the request's `now`. Every read
 * planned before authentication is a column of the row it selects (see `keyLookup`), so a key
 * that fails it reads nothing else.
 */
const LIVE_KEY = and(eq(apiKeys.keyHash, placeholder("keyHash")), keyIsLive(placeholder("now")));

const CALLER_FIELDS = {
  keyId: apiKeys.keyId,
  keyName: apiKeys.name,
  partnerId: apiKeys.partnerId,
  environment: apiKeys.environment,
  scopes: apiKeys.scopes,
  lastUsedOn: apiKeys.lastUsedOn,
  savedVersionSandbox: partners.savedVersionSandbox,
  savedVersionProduction: partners.savedVersionProduction,
  merchantKeys: partners.merchantKeys,
  // The partner row's own columns: a move's state costs no row more.
  movingTo: partners.movingTo,
  movedTo: partners.movedTo,
};

/**
 * The key lookup, with `aheads` as more columns of the key's row (`ahead_<name>`): scalar
 * subqueries that SQLite evaluates only for a live key (a dead or unknown key matches no row, so
 * nothing else is read), and that travel in the key lookup's one statement.
 */
export function keyLookup(aheads: Record<string, SQL> = {}) {
  const columns: Record<string, SQL.Aliased> = {};
  for (const [name, ahead] of Object.entries(aheads)) columns[name] = ahead.as(`ahead_${name}`);
  return qb
    .select({ ...CALLER_FIELDS, ...columns })
    .from(apiKeys)
    .innerJoin(partners, eq(partners.partnerId, apiKeys.partnerId))
    .where(LIVE_KEY)
    .toSQL();
}

export type BuiltQuery = ReturnType<typeof keyLookup>;

/** A query's SQL and its values bound, to run on its own. */
export interface BoundQuery {
  sql: string;
  params: unknown[];
}

/**
 * A read that rides in the key lookup, as a statement of its own (`build`'s SQL with placeholders),
 * built on its first use: the bench's floors run these as the least a route's read can cost, so
 * the Workers that never call it build nothing at start-up.
 */
export function readAlone(build: () => SQL): (values: Record<string, unknown>) => BoundQuery {
  let query: ReturnType<SQLiteSyncDialect["sqlToQuery"]> | undefined;
  return (values) => {
    query ??= new SQLiteSyncDialect().sqlToQuery(build());
    return { sql: query.sql, params: fillPlaceholders(query.params, values) };
  };
}

/**
 * Key lookups for a page whose query takes one of a few shapes (a cursor or not, a filter or
 * not): `aheads` builds the shape's read-aheads, and each shape's lookup is built on first use and
 * kept for the isolate, so a request builds no SQL. The shape is keyed by its JSON.
 */
export function keyLookupsByShape<Shape>(
  aheads: (shape: Shape) => Record<string, SQL>,
): (shape: Shape) => BuiltQuery {
  const built = new Map<string, BuiltQuery>();
  return (shape) => {
    const key = JSON.stringify(shape);
    let lookup = built.get(key);
    if (!lookup) {
      lookup = keyLookup(aheads(shape));
      built.set(key, lookup);
    }
    return lookup;
  };
}

const KEY_LOOKUP = keyLookup();

interface KeyRow {
  key_id: string;
  name: string | null;
  partner_id: string;
  environment: "sandbox" | "production";
  scopes: string;
  last_used_on: string | null;
  saved_version_sandbox: string;
  saved_version_production: string;
  merchant_keys: string;
  moving_to: string | null;
  moved_to: string | null;
  [ahead: `ahead_${string}`]: unknown;
}

const isAheadColumn = (column: string): column is `ahead_${string}` => column.startsWith("ahead_");

/**
 * Reads a route planned before authentication: the key lookup to send, its values, and how the
 * route reads its results (once the caller is known to own them).
 */
export interface ReadAhead<Reads = unknown> {
  lookup: BuiltQuery;
  values: Record<string, unknown>;
  read(results: ReadAheadResults): Reads;
}

/** The values of the `ahead_*` columns, by name without the prefix. */
export type ReadAheadResults = Record<string, unknown>;

/** What one shard's key lookup found: the live key's caller, with the reads planned ahead. */
export interface KeyLookup {
  caller: Caller;
  readAhead: ReadAheadResults;
}

/**
 * The caller of a key: the key lookup on the shard the key names (`shard`), following the
 * partner's forward when it has moved since (one round trip more per forward). Null for a key
 * that is unknown there, not live, or names no shard of this deployment (nothing is read then).
 */
export async function findCaller(
  shards: Shards,
  shard: string,
  keyHash: string,
  now: Date,
  readAhead?: ReadAhead,
): Promise<{ caller: Caller; readAhead: ReadAheadResults; db: Database } | null> {
  const found = await followForwards(shards, shard, (db, at) =>
    findCallerByKeyHash(db, at, keyHash, now, readAhead),
  );
  return found && { caller: found.value.caller, readAhead: found.value.readAhead, db: found.db };
}

/**
 * The key with this hash on shard `shard` if it is live at `now`, with its partner's saved
 * versions and products, and the results of `readAhead`, read in the same statement: one round
 * trip. A key whose partner has moved to another shard answers where to ask instead (its row
 * stays here to forward it). The results must only be used once the caller is known to own them.
 */
export async function findCallerByKeyHash(
  db: Database,
  shard: string,
  keyHash: string,
  now: Date,
  readAhead?: ReadAhead,
): Promise<Hop<KeyLookup>> {
  const query = readAhead?.lookup ?? KEY_LOOKUP;
  const key = { keyHash, now: now.toISOString() };
  const values = readAhead ? { ...readAhead.values, ...key } : key;
  const { results } = await db.$client
    .prepare(query.sql)
    .bind(...fillPlaceholders(query.params, values))
    .all<KeyRow>();
  const row = results[0];
  if (!row) return null;
  // The partner moved away since the key was issued: its row here forwards it.
  if (row.moved_to !== null) return movedTo(row.moved_to);
  const aheads: ReadAheadResults = {};
  for (const column in row) {
    if (isAheadColumn(column)) aheads[column.slice(6)] = row[column];
  }
  const caller: Caller = {
    keyId: row.key_id,
    keyName: row.name,
    partnerId: row.partner_id,
    environment: row.environment,
    scopes: storedScopes(row.scopes),
    lastUsedOn: row.last_used_on,
    savedVersion:
      row.environment === "sandbox" ? row.saved_version_sandbox : row.saved_version_production,
    // The JSON array of the partner's products' merchant keys (json_group_array), or `[]`.
    merchantKeys: JSON.parse(row.merchant_keys) as string[],
    shard,
    moving: row.moving_to !== null,
  };
  return here({ caller, readAhead: aheads });
}

/**
 * Records that the key was used on `day`, unless a later or equal day is already stored; returns
 * what the write cost.
 */
export async function markKeyUsed(
  db: Database,
  keyId: string,
  day: string,
): Promise<{ rowsRead: number; rowsWritten: number }> {
  const result = await db
    .update(apiKeys)
    .set({ lastUsedOn: day })
    .where(
      and(eq(apiKeys.keyId, keyId), or(isNull(apiKeys.lastUsedOn), lt(apiKeys.lastUsedOn, day))),
    );
  return { rowsRead: result.meta.rows_read ?? 0, rowsWritten: result.meta.rows_written ?? 0 };
}
