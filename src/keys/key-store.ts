// API keys: created with their creator and an audit row in one batch (the plaintext is returned
// once; only its SHA-256 is stored), listed newest first, and marked used once a day. A key is
// created only while its environment has room (`MAX_LIVE_KEYS`) and, when a key mints it, while
// that key is live: both are conditions of the insert itself, so no concurrent revoke or
// creation can slip past them.
import { and, desc, eq, lt, ne, or, type SQL, sql } from "drizzle-orm";
import { auditInsert } from "../db/audit";
import { allOf, atomically, insertWhere, type Query } from "../db/batch";
import type { Database } from "../db/client";
import { keyIsLive } from "../db/key-lookup";
import { apiKeys, users } from "../db/schema";
import { generateApiKey, generateKeyId, hashApiKey } from "../domain/api-keys";
import type { Actor } from "../domain/audit";
import type { Environment } from "../domain/environment";
import {
  type ApiKeyRecord,
  type KeyCreator,
  MAX_LIVE_KEYS,
  maskApiKey,
  maskedPrefix,
} from "../domain/key-record";
import { type Scope, storedScopes } from "../domain/scopes";

export interface CreatedKey {
  key_id: string;
  api_key: string;
  environment: Environment;
  scopes: Scope[];
  created_at: string;
  name?: string;
}

/** The creator columns of a key made by `actor`: a key's children name it as their parent. */
export function creatorColumns(actor: Actor) {
  return {
    createdBy: actor.type,
    createdByUserId: actor.type === "user" ? actor.id : null,
    parentKeyId: actor.type === "key" ? actor.id : null,
  };
}

/** A fresh key naming shard `shard`: its plaintext (shown once) and what is stored of it. */
export async function newKeyMaterial(environment: Environment, shard: string) {
  const apiKey = generateApiKey(environment, shard);
  return {
    apiKey,
    keyId: generateKeyId(),
    keyHash: await hashApiKey(apiKey),
    maskedKey: maskApiKey(apiKey),
  };
}

/** SQL: the row carries the operator's grant of its scopes (see `api_keys.operator_grant`). */
export const carriesOperatorGrant = sql`coalesce(${apiKeys.operatorGrant},
  ${apiKeys.createdBy} IS NULL OR ${apiKeys.createdBy} = 'operator')`;

/**
 * SQL: the partner's environment has room for one more live key at `now`, not counting
 * `replaced` (a key that stops being live in the same batch).
 */
export function roomForKey(
  partnerId: string,
  environment: Environment,
  now: string,
  replaced?: string,
): SQL {
  const live = and(
    keysOf(partnerId, environment),
    keyIsLive(now),
    replaced === undefined ? undefined : ne(apiKeys.keyId, replaced),
  );
  return sql`(SELECT count(*) FROM ${apiKeys} WHERE ${live}) < ${MAX_LIVE_KEYS}`;
}

/** SQL: a key with this id is stored (the guard of what commits alongside its creation). */
export function keyStored(keyId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${apiKeys} WHERE ${apiKeys.keyId} = ${keyId})`;
}

/** SQL: the key is the partner's, in the environment, and live at `now`. */
export function liveKey(
  keyId: string,
  partnerId: string,
  environment: Environment,
  now: string,
): SQL {
  return allOf(eq(apiKeys.keyId, keyId), keysOf(partnerId, environment), keyIsLive(now));
}

export interface NewKey {
  partnerId: string;
  /** The shard the partner lives on (the key names it). */
  shard: string;
  environment: Environment;
  scopes: readonly Scope[];
  name: string | null;
  actor: Actor;
  now: Date;
}

/** What became of a creation: stored, or refused by one of its conditions. */
export type KeyCreation = "created" | "limit_reached" | "creator_not_live";

/** A key worked out but not yet stored, answered as it will read. */
export interface PreparedKey {
  created: CreatedKey;
  /** SQL true once the key is stored: what is stored alongside it is gated on it. */
  stored: SQL;
  /** Stores the key with its audit row and `alongside`, in one atomic batch. */
  commit(db: Database, alongside?: Query[]): Promise<KeyCreation>;
}

/** Creates a key and records who created it, atomically. */
export async function createApiKey(
  db: Database,
  input: NewKey,
): Promise<{ outcome: KeyCreation; created: CreatedKey }> {
  const prepared = await prepareApiKey(input);
  return { outcome: await prepared.commit(db), created: prepared.created };
}

/**
 * A new key for the caller to commit, alone or in one batch with its own writes. A key minted by
 * a key (`POST /v2/keys`) expires when its creator does: it never outlives it.
 */
export async function prepareApiKey(input: NewKey): Promise<PreparedKey> {
  const { apiKey, keyId, keyHash, maskedKey } = await newKeyMaterial(
    input.environment,
    input.shard,
  );
  const now = input.now.toISOString();
  const scopes = [...input.scopes];
  const creator = creatorColumns(input.actor);
  const room = roomForKey(input.partnerId, input.environment, now);
  const parent = creator.parentKeyId;
  const creatorLive = parent
    ? sql`EXISTS (SELECT 1 FROM ${apiKeys} WHERE ${liveKey(parent, input.partnerId, input.environment, now)})`
    : sql`1`;
  const expiresAt = parent
    ? sql`(SELECT ${apiKeys.expiresAt} FROM ${apiKeys} WHERE ${apiKeys.keyId} = ${parent})`
    : sql`NULL`;
  const stored = keyStored(keyId);
  const created: CreatedKey = {
    key_id: keyId,
    api_key: apiKey,
    environment: input.environment,
    scopes,
    created_at: now,
  };
  if (input.name !== null) created.name = input.name;
  const commit = async (db: Database, alongside: Query[] = []): Promise<KeyCreation> => {
    const results = await atomically(db, [
      insertWhere(
        apiKeys,
        {
          keyId,
          keyHash,
          partnerId: input.partnerId,
          environment: input.environment,
          scopes: JSON.stringify(scopes),
          name: input.name,
          createdAt: now,
          ...creator,
          maskedKey,
          expiresAt,
          operatorGrant: input.actor.type === "operator" ? 1 : 0,
        },
        sql`${room} AND ${creatorLive}`,
      ),
      auditInsert(
        input.partnerId,
        input.actor,
        {
          action: "key.created",
          environment: input.environment,
          target: keyId,
          details: { name: input.name, scopes },
        },
        input.now,
        { guard: stored },
      ),
      sql`SELECT ${stored} AS created, ${creatorLive} AS creator_live`,
      ...alongside,
    ]);
    // The batch's third statement is the SELECT above: one row of these two columns.
    const check = results[2]?.results?.[0] as { created: number; creator_live: number } | undefined;
    if (check?.created) return "created";
    return check?.creator_live ? "limit_reached" : "creator_not_live";
  };
  return { created, stored, commit };
}

/** The columns a key record is built from, with its creating user's address when known. */
export const keyRecordColumns = {
  keyId: apiKeys.keyId,
  name: apiKeys.name,
  environment: apiKeys.environment,
  scopes: apiKeys.scopes,
  maskedKey: apiKeys.maskedKey,
  createdAt: apiKeys.createdAt,
  createdBy: apiKeys.createdBy,
  createdByUserId: apiKeys.createdByUserId,
  creatorEmail: users.email,
  parentKeyId: apiKeys.parentKeyId,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedOn: apiKeys.lastUsedOn,
};

/** A row of `keyRecordColumns`: the key's columns as stored; the left-joined address, or null. */
type KeyRecordRow = Pick<
  typeof apiKeys.$inferSelect,
  Exclude<keyof typeof keyRecordColumns, "creatorEmail">
> & { creatorEmail: string | null };

function creatorOf(row: KeyRecordRow): KeyCreator {
  switch (row.createdBy) {
    case "operator":
      return { type: "operator" };
    case "user":
      return { type: "user", userId: row.createdByUserId ?? "", email: row.creatorEmail };
    case "key":
      return { type: "key", keyId: row.parentKeyId ?? "" };
    default:
      return { type: "unknown" };
  }
}

export function toKeyRecord(row: KeyRecordRow): ApiKeyRecord {
  const { environment } = row;
  return {
    keyId: row.keyId,
    name: row.name,
    environment,
    scopes: storedScopes(row.scopes),
    masked: row.maskedKey ?? maskedPrefix(environment),
    createdAt: row.createdAt,
    createdBy: creatorOf(row),
    parentKeyId: row.parentKeyId,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedOn: row.lastUsedOn,
  };
}

/** Keys of a partner (one environment, or both), for listing. */
export function keysOf(partnerId: string, environment: Environment | null): SQL {
  const ofPartner = eq(apiKeys.partnerId, partnerId);
  return environment === null ? ofPartner : allOf(ofPartner, eq(apiKeys.environment, environment));
}

/**
 * A page of the partner's keys, newest first (`api_keys_partner_idx`), after the key `afterKeyId`
 * when given. `null` when that key is not one of the listed keys.
 */
export async function listApiKeys(
  db: Database,
  partnerId: string,
  environment: Environment | null,
  afterKeyId: string | null,
  limit: number,
): Promise<{ keys: ApiKeyRecord[]; hasMore: boolean } | null> {
  const scope = keysOf(partnerId, environment);
  let where = scope;
  if (afterKeyId !== null) {
    const [anchor] = await db
      .select({ createdAt: apiKeys.createdAt })
      .from(apiKeys)
      .where(and(scope, eq(apiKeys.keyId, afterKeyId)));
    if (!anchor) return null;
    where = allOf(
      scope,
      or(
        lt(apiKeys.createdAt, anchor.createdAt),
        and(eq(apiKeys.createdAt, anchor.createdAt), lt(apiKeys.keyId, afterKeyId)),
      ),
    );
  }
  const rows = await db
    .select(keyRecordColumns)
    .from(apiKeys)
    .leftJoin(users, eq(users.userId, apiKeys.createdByUserId))
    .where(where)
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.keyId))
    .limit(limit + 1);
  return { keys: rows.slice(0, limit).map(toKeyRecord), hasMore: rows.length > limit };
}

/** One key of the partner and environment, or null. */
export async function findApiKey(
  db: Database,
  partnerId: string,
  environment: Environment,
  keyId: string,
): Promise<ApiKeyRecord | null> {
  const [row] = await db
    .select(keyRecordColumns)
    .from(apiKeys)
    .leftJoin(users, eq(users.userId, apiKeys.createdByUserId))
    .where(and(keysOf(partnerId, environment), eq(apiKeys.keyId, keyId)));
  return row ? toKeyRecord(row) : null;
}

/** The partner and environment a key belongs to, or null for an unknown key id. */
export async function keyOwner(
  db: Database,
  keyId: string,
): Promise<{ partnerId: string; environment: Environment } | null> {
  const [row] = await db
    .select({ partnerId: apiKeys.partnerId, environment: apiKeys.environment })
    .from(apiKeys)
    .where(eq(apiKeys.keyId, keyId));
  return row ?? null;
}

/**
 * The scopes the operator grants the partner in an environment at `now`: those of the live keys
 * carrying its grant (the keys it created, and their roll replacements). Dashboard users choose
 * new keys' scopes among them, so the dashboard never widens what the operator configured, nor
 * gives a scope the operator took away by revoking the key that held it.
 */
export async function operatorGrantedScopes(
  db: Database,
  partnerId: string,
  environment: Environment,
  now: Date,
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ scopes: apiKeys.scopes })
    .from(apiKeys)
    .where(and(keysOf(partnerId, environment), keyIsLive(now.toISOString()), carriesOperatorGrant));
  return [...new Set(rows.flatMap((r) => storedScopes(r.scopes)))];
}
