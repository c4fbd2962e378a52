// Rolling and revoking API keys. Each is one atomic batch whose statements share one guard, so a
// key revoked or rolled concurrently is never rolled twice, and the audit log records exactly what
// changed.
import { and, asc, eq, isNull, ne, type SQL, sql } from "drizzle-orm";
import { auditInsert } from "../db/audit";
import { allOf, atomically } from "../db/batch";
import type { Database } from "../db/client";
import { keyIsLive } from "../db/key-lookup";
import { apiKeys, users } from "../db/schema";
import type { Actor } from "../domain/audit";
import type { Environment } from "../domain/environment";
import type { ApiKeyRecord } from "../domain/key-record";
import { storedScopes } from "../domain/scopes";
import {
  type CreatedKey,
  carriesOperatorGrant,
  creatorColumns,
  keyRecordColumns,
  keyStored,
  liveKey,
  newKeyMaterial,
  roomForKey,
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

/** The key ids a statement of a batch answered: one that selects or returns `key_id` alone. */
function keyIdsOf(result: D1Result | undefined): string[] {
  // Both callers pass a statement whose only column is `api_keys.key_id`, the text primary key.
  return ((result?.results ?? []) as { key_id: string }[]).map((r) => r.key_id);
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
  const reached = allOf(inFamily(input, input.cascade), isNull(apiKeys.revokedAt));
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
  return keyIdsOf(revoked);
}

/** What became of a roll. */
export type KeyRoll =
  | {
      kind: "rolled";
      created: CreatedKey;
      oldKeyExpiresAt: string;
      /** The live keys minted from the old key (transitively), now expiring with it. */
      expiredWithIt: string[];
    }
  | { kind: "not_live" }
  | { kind: "limit_reached" };

/**
 * A new key with the old key's scopes, name, parent and grant; the old key then expires after
 * `graceMs` (never later than an expiry it already had), and so does every live key minted from
 * it: a key never outlives the key that minted it, so rolling a leaked key also ends what was
 * minted with it. The new key expires when its own parent does. Refused when the old key is not
 * live (revoked or expired meanwhile), or when the environment has no room for one more live key
 * (a roll with a grace period keeps the old key live meanwhile; one that ends it now replaces it
 * one for one). One atomic batch, every statement gated on the new key being stored.
 */
export async function rollApiKey(
  db: Database,
  input: KeyRef & { shard: string; graceMs: number; actor: Actor; now: Date },
): Promise<KeyRoll> {
  const now = input.now.toISOString();
  const graceEnds = new Date(input.now.getTime() + input.graceMs).toISOString();
  const fresh = await newKeyMaterial(input.environment, input.shard);
  // An expiry after the roll: the grace period's end, or an earlier expiry the key had.
  const expiry = sql`CASE WHEN ${apiKeys.expiresAt} < ${graceEnds} THEN ${apiKeys.expiresAt}
    ELSE ${graceEnds} END`;
  const creator = creatorColumns(input.actor);
  const oldKey = liveKey(input.keyId, input.partnerId, input.environment, now);
  const room = roomForKey(
    input.partnerId,
    input.environment,
    now,
    input.graceMs === 0 ? input.keyId : undefined,
  );
  const rolled = keyStored(fresh.keyId);
  const liveFamily = allOf(inFamily(input, true), keyIsLive(now));
  const expiring = sql`SELECT key_id FROM ${apiKeys}
    WHERE ${liveFamily} AND ${apiKeys.keyId} <> ${input.keyId}
    ORDER BY created_at, key_id`;
  const [inserted, , expiringRows, , read] = await atomically(db, [
    sql`INSERT INTO ${apiKeys} (key_id, key_hash, partner_id, environment, scopes, name,
        created_at, created_by, created_by_user_id, parent_key_id, masked_key, expires_at,
        operator_grant)
      SELECT ${fresh.keyId}, ${fresh.keyHash}, partner_id, environment, scopes, name, ${now},
        ${creator.createdBy}, ${creator.createdByUserId}, parent_key_id, ${fresh.maskedKey},
        (SELECT p.expires_at FROM ${apiKeys} p WHERE p.key_id = ${apiKeys.parentKeyId}),
        ${carriesOperatorGrant}
      FROM ${apiKeys} WHERE ${oldKey} AND ${room}`,
    auditInsert(
      input.partnerId,
      input.actor,
      { action: "key.rolled", environment: input.environment, target: input.keyId },
      input.now,
      {
        guard: rolled,
        details: sql`(SELECT json_object('new_key_id', ${fresh.keyId},
          'old_key_expires_at', ${expiry},
          'expired_with_it', (SELECT json_group_array(key_id) FROM (${expiring})))
          FROM ${apiKeys} WHERE ${oldKey})`,
      },
    ),
    expiring,
    db.update(apiKeys).set({ expiresAt: expiry }).where(and(liveFamily, rolled)),
    sql`SELECT key_id, scopes, name, expires_at, ${oldKey} AS live FROM ${apiKeys}
      WHERE key_id IN (${fresh.keyId}, ${input.keyId})`,
  ]);
  // The batch's fifth statement is the SELECT just above, which returns these columns.
  const rows = (read?.results ?? []) as {
    key_id: string;
    scopes: string;
    name: string | null;
    expires_at: string | null;
    live: number;
  }[];
  const created = rows.find((r) => r.key_id === fresh.keyId);
  const old = rows.find((r) => r.key_id === input.keyId);
  if (inserted?.meta.changes !== 1 || !created || !old?.expires_at) {
    // Nothing changed: the old key's row says why (not the partner's, or not live; or no room).
    return { kind: old?.live ? "limit_reached" : "not_live" };
  }
  const result: CreatedKey = {
    key_id: fresh.keyId,
    api_key: fresh.apiKey,
    environment: input.environment,
    scopes: storedScopes(created.scopes),
    created_at: now,
  };
  if (created.name !== null) result.name = created.name;
  return {
    kind: "rolled",
    created: result,
    oldKeyExpiresAt: old.expires_at,
    expiredWithIt: keyIdsOf(expiringRows),
  };
}
