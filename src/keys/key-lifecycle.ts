// Rolling and revoking API keys. Each is one atomic batch whose statements share one guard, so a
// key revoked or rolled concurrently is never rolled twice, and the audit log records exactly what
// changed.
import { and, asc, eq, isNull, ne, type SQL, sql } from "drizzle-orm";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";
import type { Database } from "../db/client";
import { keyIsLive } from "../db/key-lookup";
import { apiKeys, users } from "../db/schema";
import type { Actor } from "../domain/audit";
import type { Environment } from "../domain/environment";
import type { ApiKeyRecord } from "../domain/key-record";
import type { Scope } from "../domain/scopes";
import {
  type CreatedKey,
  creatorColumns,
  keyRecordColumns,
  newKeyMaterial,
  toKeyRecord,
} from "./key-store";

export interface KeyRef {
  partnerId: string;
  environment: Environment;
  keyId: string;
}

/**
 * `api_keys.key_id IN (…)`: the key itself (when it is the partner's, in that environment) and,
 * with `cascade`, every key minted from it with `POST /v2/keys`, transitively.
 */
function inFamily(ref: KeyRef, cascade: boolean): SQL {
  const root = sql`SELECT key_id FROM ${apiKeys} WHERE key_id = ${ref.keyId}
    AND partner_id = ${ref.partnerId} AND environment = ${ref.environment}`;
  const members = cascade
    ? sql`WITH RECURSIVE family(key_id) AS (${root}
        UNION SELECT k.key_id FROM ${apiKeys} k JOIN family f ON k.parent_key_id = f.key_id)
        SELECT key_id FROM family`
    : root;
  return sql`${apiKeys.keyId} IN (${members})`;
}

/**
 * The unrevoked keys revoking `keyId` would also revoke (minted from it, transitively), oldest
 * first: what the dashboard lists before asking to confirm.
 */
export async function descendantsOf(db: Database, ref: KeyRef): Promise<ApiKeyRecord[]> {
  const rows = await db
    .select(keyRecordColumns)
    .from(apiKeys)
    .leftJoin(users, eq(users.userId, apiKeys.createdByUserId))
    .where(and(inFamily(ref, true), ne(apiKeys.keyId, ref.keyId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.keyId));
  return rows.map(toKeyRecord);
}

/**
 * Revokes the key and, with `cascade`, every unrevoked key minted from it. Returns the ids
 * revoked now (empty when nothing was left to revoke). One atomic batch with its audit row.
 */
export async function revokeApiKey(
  db: Database,
  input: KeyRef & { cascade: boolean; actor: Actor; now: Date },
): Promise<string[]> {
  const reached = and(inFamily(input, input.cascade), isNull(apiKeys.revokedAt)) as SQL;
  const unrevoked = sql`SELECT key_id FROM ${apiKeys} WHERE ${reached}`;
  const [, revoked] = await atomically(db, [
    auditInsert(
      input.partnerId,
      input.actor,
      { action: "key.revoked", environment: input.environment, target: input.keyId },
      input.now,
      {
        guard: sql`EXISTS (${unrevoked})`,
        details: sql`json_object('cascade', json(${input.cascade ? "true" : "false"}),
          'revoked_key_ids', (SELECT json_group_array(key_id) FROM (${unrevoked})))`,
      },
    ),
    db
      .update(apiKeys)
      .set({ revokedAt: input.now.toISOString() })
      .where(reached)
      .returning({ keyId: apiKeys.keyId }),
  ]);
  return ((revoked?.results ?? []) as { key_id: string }[]).map((r) => r.key_id);
}

/**
 * A new key with the old key's scopes, name and parent; the old key then expires after `graceMs`
 * (never later than an expiry it already had). Null when the old key is not live, so a key
 * revoked or expired meanwhile is never rolled.
 */
export async function rollApiKey(
  db: Database,
  input: KeyRef & { graceMs: number; actor: Actor; now: Date },
): Promise<(CreatedKey & { old_key_expires_at: string }) | null> {
  const now = input.now.toISOString();
  const graceEnds = new Date(input.now.getTime() + input.graceMs).toISOString();
  const fresh = await newKeyMaterial(input.environment);
  // The old key's expiry after the roll: the grace period's end, or an earlier expiry it had.
  const expiry = sql`CASE WHEN ${apiKeys.expiresAt} < ${graceEnds} THEN ${apiKeys.expiresAt}
    ELSE ${graceEnds} END`;
  const creator = creatorColumns(input.actor);
  const oldKey = and(
    eq(apiKeys.keyId, input.keyId),
    eq(apiKeys.partnerId, input.partnerId),
    eq(apiKeys.environment, input.environment),
    keyIsLive(now),
  ) as SQL;
  const [inserted, , , read] = await atomically(db, [
    sql`INSERT INTO ${apiKeys} (key_id, key_hash, partner_id, environment, scopes, name,
        created_at, created_by, created_by_user_id, parent_key_id, masked_key)
      SELECT ${fresh.keyId}, ${fresh.keyHash}, partner_id, environment, scopes, name, ${now},
        ${creator.createdBy}, ${creator.createdByUserId}, parent_key_id, ${fresh.maskedKey}
      FROM ${apiKeys} WHERE ${oldKey}`,
    auditInsert(
      input.partnerId,
      input.actor,
      { action: "key.rolled", environment: input.environment, target: input.keyId },
      input.now,
      {
        guard: sql`EXISTS (SELECT 1 FROM ${apiKeys} WHERE ${oldKey})`,
        details: sql`(SELECT json_object('new_key_id', ${fresh.keyId},
          'old_key_expires_at', ${expiry}) FROM ${apiKeys} WHERE ${oldKey})`,
      },
    ),
    db.update(apiKeys).set({ expiresAt: expiry }).where(oldKey),
    sql`SELECT key_id, scopes, name, expires_at FROM ${apiKeys}
      WHERE key_id IN (${fresh.keyId}, ${input.keyId})`,
  ]);
  const rows = (read?.results ?? []) as {
    key_id: string;
    scopes: string;
    name: string | null;
    expires_at: string | null;
  }[];
  const created = rows.find((r) => r.key_id === fresh.keyId);
  const old = rows.find((r) => r.key_id === input.keyId);
  if (inserted?.meta.changes !== 1 || !created || !old?.expires_at) return null;
  const result: CreatedKey & { old_key_expires_at: string } = {
    key_id: fresh.keyId,
    api_key: fresh.apiKey,
    environment: input.environment,
    scopes: JSON.parse(created.scopes) as Scope[],
    created_at: now,
    old_key_expires_at: old.expires_at,
  };
  if (created.name !== null) result.name = created.name;
  return result;
}
