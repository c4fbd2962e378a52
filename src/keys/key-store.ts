// API keys: created with their creator and an audit row in one batch (the plaintext is returned
// once; only its SHA-256 is stored), listed newest first, and marked used once a day.
import { and, desc, eq, isNull, lt, or, type SQL } from "drizzle-orm";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";
import type { Database } from "../db/client";
import { apiKeys, users } from "../db/schema";
import { generateApiKey, generateKeyId, hashApiKey } from "../domain/api-keys";
import type { Actor } from "../domain/audit";
import type { Environment } from "../domain/environment";
import { type ApiKeyRecord, type KeyCreator, maskApiKey, maskedPrefix } from "../domain/key-record";
import type { Scope } from "../domain/scopes";

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

/** A fresh key: its plaintext (shown once) and what is stored of it. */
export async function newKeyMaterial(environment: Environment) {
  const apiKey = generateApiKey(environment);
  return {
    apiKey,
    keyId: generateKeyId(),
    keyHash: await hashApiKey(apiKey),
    maskedKey: maskApiKey(apiKey),
  };
}

export interface NewKey {
  partnerId: string;
  environment: Environment;
  scopes: readonly Scope[];
  name: string | null;
  actor: Actor;
  now: Date;
}

/** Creates a key and records who created it, atomically; answers it with its plaintext. */
export async function createApiKey(db: Database, input: NewKey): Promise<CreatedKey> {
  const { created, writes } = await prepareApiKey(input);
  await atomically(db, writes(db));
  return created;
}

/**
 * A new key and the writes that store it with its audit row, not yet run: for a caller that
 * commits them in one batch with other writes.
 */
export async function prepareApiKey(input: NewKey) {
  const { apiKey, keyId, keyHash, maskedKey } = await newKeyMaterial(input.environment);
  const createdAt = input.now.toISOString();
  const scopes = [...input.scopes];
  const writes = (db: Database) => [
    db.insert(apiKeys).values({
      keyId,
      keyHash,
      partnerId: input.partnerId,
      environment: input.environment,
      scopes: JSON.stringify(scopes),
      name: input.name,
      createdAt,
      maskedKey,
      ...creatorColumns(input.actor),
    }),
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
    ),
  ];
  const created: CreatedKey = {
    key_id: keyId,
    api_key: apiKey,
    environment: input.environment,
    scopes,
    created_at: createdAt,
  };
  if (input.name !== null) created.name = input.name;
  return { created, writes };
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

type KeyRecordRow = {
  [K in keyof typeof keyRecordColumns]: (typeof keyRecordColumns)[K]["_"]["data"] | null;
};

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
  const environment = row.environment as Environment;
  return {
    keyId: row.keyId as string,
    name: row.name,
    environment,
    scopes: JSON.parse(row.scopes ?? "[]") as string[],
    masked: row.maskedKey ?? maskedPrefix(environment),
    createdAt: row.createdAt as string,
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
  return (
    environment === null ? ofPartner : and(ofPartner, eq(apiKeys.environment, environment))
  ) as SQL;
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
    where = and(
      scope,
      or(
        lt(apiKeys.createdAt, anchor.createdAt),
        and(eq(apiKeys.createdAt, anchor.createdAt), lt(apiKeys.keyId, afterKeyId)),
      ),
    ) as SQL;
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
 * The scopes the operator granted the partner in an environment: those of the keys it created
 * (and of keys older than creator tracking). Dashboard users choose new keys' scopes among them,
 * so the dashboard never widens what the operator configured.
 */
export async function operatorGrantedScopes(
  db: Database,
  partnerId: string,
  environment: Environment,
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ scopes: apiKeys.scopes })
    .from(apiKeys)
    .where(
      and(
        keysOf(partnerId, environment),
        or(isNull(apiKeys.createdBy), eq(apiKeys.createdBy, "operator")),
      ),
    );
  return [...new Set(rows.flatMap((r) => JSON.parse(r.scopes) as string[]))];
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
