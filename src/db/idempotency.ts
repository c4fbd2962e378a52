// The idempotency-key table. D1 has no transactions, so a key moves through two atomic writes:
// a reservation (state `running`, locked for a minute and renewed while the request works) and a
// completion that stores the response (in the batch of the request's own effect where the route
// can, so that no crash separates them). Only the run holding the lock may complete: the trigger
// `idempotency_keys_completed_by_holder` refuses any other, rolling back its batch.
import { and, eq, lt, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "./client";
import { frozenPartners } from "./move-fences";
import { idempotencyKeys } from "./schema";

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export interface Reservation {
  keyHash: string;
  /** The partner whose request holds the key: its records move with it. */
  partnerId: string;
  fingerprint: string;
  lockToken: string;
  now: Date;
  lockedUntil: Date;
  expiresAt: Date;
}

/**
 * Takes the key for this request when it is new, expired, or held by a crashed run of the same
 * request (a lock that has passed); otherwise leaves it. Answers the row as it stands after, in one
 * round trip: the caller owns the key exactly when the row carries its lock token.
 */
export async function reserveKey(db: Database, r: Reservation): Promise<IdempotencyRow> {
  const now = r.now.toISOString();
  const fresh = {
    keyHash: r.keyHash,
    partnerId: r.partnerId,
    fingerprint: r.fingerprint,
    state: "running" as const,
    lockedUntil: r.lockedUntil.toISOString(),
    lockToken: r.lockToken,
    responseStatus: null,
    response: null,
    createdAt: now,
    expiresAt: r.expiresAt.toISOString(),
  };
  const { keyHash: _key, ...takeover } = fresh;
  const [, rows] = await db.batch([
    db
      .insert(idempotencyKeys)
      .values(fresh)
      .onConflictDoUpdate({
        target: idempotencyKeys.keyHash,
        set: takeover,
        setWhere: or(
          lt(idempotencyKeys.expiresAt, now),
          and(
            eq(idempotencyKeys.state, "running"),
            lt(idempotencyKeys.lockedUntil, now),
            eq(idempotencyKeys.fingerprint, sql`excluded.fingerprint`),
          ),
        ),
      }),
    db.select().from(idempotencyKeys).where(eq(idempotencyKeys.keyHash, r.keyHash)),
  ]);
  const row = rows[0];
  if (!row) throw new Error("idempotency key vanished after its upsert");
  return row;
}

/**
 * Stores the response of the run holding `lockToken`, for the caller's batch or alone. A run that
 * no longer holds the key fails the whole batch (`isLeaseLost`). With `guard`, nothing is stored
 * unless it holds: the same condition as the effect's, so a response is never stored for an
 * effect that did not happen.
 */
export function completeKey(
  db: Database,
  keyHash: string,
  lockToken: string,
  status: number,
  sealed: string,
  guard?: SQL,
) {
  const key = eq(idempotencyKeys.keyHash, keyHash);
  return db
    .update(idempotencyKeys)
    .set({
      state: "completed",
      responseStatus: status,
      response: sealed,
      lockedUntil: null,
      lockToken,
    })
    .where(guard ? and(key, guard) : key);
}

/** Whether a batch failed because its completion came from a run that lost the key. */
export function isLeaseLost(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes("idempotency_lease_lost")) return true;
  }
  return false;
}

/** Moves the lock of the run holding `lockToken` to `lockedUntil`, while that run works. */
export function renewKey(db: Database, keyHash: string, lockToken: string, lockedUntil: Date) {
  return db
    .update(idempotencyKeys)
    .set({ lockedUntil: lockedUntil.toISOString() })
    .where(
      and(
        eq(idempotencyKeys.keyHash, keyHash),
        eq(idempotencyKeys.lockToken, lockToken),
        eq(idempotencyKeys.state, "running"),
      ),
    );
}

/** Gives the key up (the request failed in a way a retry should run again). */
export function releaseKey(db: Database, keyHash: string, lockToken: string) {
  return db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.keyHash, keyHash), eq(idempotencyKeys.lockToken, lockToken)));
}

/** Deletes up to `limit` idempotency keys past their window (a partner frozen by a move keeps
 * its keys until the move is over). Answers how many went. */
export async function purgeExpiredIdempotencyKeys(
  db: Database,
  now: string,
  limit: number,
): Promise<number> {
  const gone = await db
    .delete(idempotencyKeys)
    .where(
      sql`${idempotencyKeys.keyHash} IN (SELECT key_hash FROM idempotency_keys
        WHERE expires_at < ${now} AND partner_id NOT IN ${frozenPartners} LIMIT ${limit})`,
    )
    .returning({ keyHash: idempotencyKeys.keyHash });
  return gone.length;
}
