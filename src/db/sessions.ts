// Sign-in links and sessions of dashboard users. Only SHA-256 hashes of their secrets are stored;
// a link is redeemed at most once (the redemption is one guarded batch), and redeeming it spends
// every other outstanding link of the user. Both live on the shard of the user's partner, which
// their secret names; a partner that moved since is followed (its old shard forwards them).
import { and, eq, gt, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { Actor } from "../domain/audit";
import type { User } from "../domain/user";
import { auditInsert } from "./audit";
import { allOf, atomically } from "./batch";
import type { Database } from "./client";
import { frozenPartners } from "./move-fences";
import { partners, sessions, signInTokens, users } from "./schema";
import { type Hop, here, movedTo } from "./shards";

/**
 * Stores a new sign-in link of the user; with an `actor`, records the request in the audit log
 * (an invitation's first link is recorded as the invitation instead).
 */
export async function createSignInToken(
  db: Database,
  input: { user: User; tokenHash: string; expiresAt: Date; actor: Actor | null; now: Date },
): Promise<void> {
  const insert = db.insert(signInTokens).values({
    tokenHash: input.tokenHash,
    userId: input.user.userId,
    createdAt: input.now.toISOString(),
    expiresAt: input.expiresAt.toISOString(),
  });
  if (input.actor === null) {
    await insert;
    return;
  }
  await atomically(db, [
    insert,
    auditInsert(
      input.user.partnerId,
      input.actor,
      { action: "user.sign_in_requested", target: input.user.userId },
      input.now,
    ),
  ]);
}

function unspent(tokenHash: string, now: Date): SQL {
  return allOf(
    eq(signInTokens.tokenHash, tokenHash),
    isNull(signInTokens.usedAt),
    gt(signInTokens.expiresAt, now.toISOString()),
  );
}

/** A user as a sign-in or a session finds it: with its partner's name and move state. */
export type SignedInUser = User & { partnerName: string; moving: boolean };

const PARTNER_STATE = {
  partnerName: partners.name,
  movingTo: partners.movingTo,
  movedTo: partners.movedTo,
};

/**
 * The user an unspent, unexpired link signs in, with the partner's name; null otherwise; where to
 * ask when the partner has moved to another shard.
 */
export async function userOfSignInToken(
  db: Database,
  tokenHash: string,
  now: Date,
): Promise<Hop<SignedInUser>> {
  const [row] = await db
    .select({ user: users, ...PARTNER_STATE })
    .from(signInTokens)
    .innerJoin(users, eq(users.userId, signInTokens.userId))
    .innerJoin(partners, eq(partners.partnerId, users.partnerId))
    .where(unspent(tokenHash, now));
  if (!row) return null;
  if (row.movedTo !== null) return movedTo(row.movedTo);
  return here({ ...row.user, partnerName: row.partnerName, moving: row.movingTo !== null });
}

/**
 * Spends the link and opens a session for its user, atomically: true when this call redeemed it,
 * false when it was spent, expired or unknown (also when a concurrent call won). The user's other
 * links, and sessions past their time, are deleted in the same batch.
 */
export async function redeemSignInToken(
  db: Database,
  input: {
    user: User;
    tokenHash: string;
    sessionHash: string;
    /** The browser's previous session, ended by this sign-in. */
    replacesSessionHash: string | null;
    sessionExpiresAt: Date;
    idleCutoff: Date;
    actor: Actor;
    now: Date;
  },
): Promise<boolean> {
  const now = input.now.toISOString();
  const valid = sql`EXISTS (SELECT 1 FROM ${signInTokens} WHERE ${unspent(input.tokenHash, input.now)}
    AND user_id = ${input.user.userId})`;
  const opened = sql`EXISTS (SELECT 1 FROM ${sessions} WHERE session_hash = ${input.sessionHash})`;
  const [created] = await atomically(db, [
    sql`INSERT INTO ${sessions} (session_hash, user_id, created_at, last_seen_at, expires_at)
      SELECT ${input.sessionHash}, ${input.user.userId}, ${now}, ${now},
        ${input.sessionExpiresAt.toISOString()}
      WHERE ${valid}`,
    auditInsert(input.user.partnerId, input.actor, { action: "user.signed_in" }, input.now, {
      guard: valid,
    }),
    db
      .update(users)
      .set({ lastSignedInAt: now })
      .where(and(eq(users.userId, input.user.userId), opened)),
    db.delete(signInTokens).where(and(eq(signInTokens.userId, input.user.userId), opened)),
    db
      .delete(sessions)
      .where(and(eq(sessions.sessionHash, input.replacesSessionHash ?? ""), opened)),
    db
      .delete(sessions)
      .where(
        and(
          eq(sessions.userId, input.user.userId),
          or(
            lte(sessions.expiresAt, now),
            lte(sessions.lastSeenAt, input.idleCutoff.toISOString()),
          ),
        ),
      ),
  ]);
  return created?.meta.changes === 1;
}

export interface SessionInfo {
  user: User;
  partnerName: string;
  lastSeenAt: string;
  /** The partner is being moved to another shard: its writes wait. */
  moving: boolean;
}

/**
 * The session's user if the session is neither idle past `idleCutoff` nor past its end; where to
 * ask when the partner has moved to another shard.
 */
export async function findSession(
  db: Database,
  sessionHash: string,
  now: Date,
  idleCutoff: Date,
): Promise<Hop<SessionInfo>> {
  const [row] = await db
    .select({ user: users, ...PARTNER_STATE, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.userId, sessions.userId))
    .innerJoin(partners, eq(partners.partnerId, users.partnerId))
    .where(
      and(
        eq(sessions.sessionHash, sessionHash),
        gt(sessions.expiresAt, now.toISOString()),
        gt(sessions.lastSeenAt, idleCutoff.toISOString()),
      ),
    );
  if (!row) return null;
  if (row.movedTo !== null) return movedTo(row.movedTo);
  const { user, partnerName, lastSeenAt } = row;
  return here({ user, partnerName, lastSeenAt, moving: row.movingTo !== null });
}

/** Moves the session's idle timeout on. */
export async function touchSession(db: Database, sessionHash: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now.toISOString() })
    .where(eq(sessions.sessionHash, sessionHash));
}

/** Ends one session (`everywhere`: every session of its user), with its audit row. */
export async function endSessions(
  db: Database,
  input: { user: User; sessionHash: string; everywhere: boolean; actor: Actor; now: Date },
): Promise<void> {
  await atomically(db, [
    auditInsert(
      input.user.partnerId,
      input.actor,
      { action: input.everywhere ? "user.signed_out_everywhere" : "user.signed_out" },
      input.now,
    ),
    db
      .delete(sessions)
      .where(
        input.everywhere
          ? eq(sessions.userId, input.user.userId)
          : eq(sessions.sessionHash, input.sessionHash),
      ),
  ]);
}

/** The users of partners a move has frozen on this shard: their credentials wait for it. */
const frozenUsers = sql`(SELECT user_id FROM users WHERE partner_id IN ${frozenPartners})`;

/**
 * Ends a session because its browser signed in elsewhere (to another partner, or on another
 * shard): deleted, with a sign-out row in its own partner's audit log.
 */
export async function endSessionSignedInElsewhere(
  db: Database,
  input: { user: User; sessionHash: string; actor: Actor; now: Date },
): Promise<void> {
  await atomically(db, [
    auditInsert(
      input.user.partnerId,
      input.actor,
      { action: "user.signed_out", details: { reason: "signed_in_elsewhere" } },
      input.now,
      { guard: sql`EXISTS (SELECT 1 FROM ${sessions} WHERE session_hash = ${input.sessionHash})` },
    ),
    db.delete(sessions).where(eq(sessions.sessionHash, input.sessionHash)),
  ]);
}

/**
 * Deletes up to `limit` sessions past their absolute end or idle since `idleCutoff`, and up to
 * `limit` sign-in links past their expiry, in one batch (a partner frozen by a move keeps its own
 * until the move is over). Answers how many rows went.
 */
export async function purgeExpiredCredentials(
  db: Database,
  now: string,
  idleCutoff: string,
  limit: number,
): Promise<number> {
  const [gone, links] = await db.batch([
    db
      .delete(sessions)
      .where(
        sql`${sessions.sessionHash} IN (SELECT session_hash FROM sessions
          WHERE (expires_at <= ${now} OR last_seen_at <= ${idleCutoff})
            AND user_id NOT IN ${frozenUsers} LIMIT ${limit})`,
      )
      .returning({ id: sessions.sessionHash }),
    db
      .delete(signInTokens)
      .where(
        sql`${signInTokens.tokenHash} IN (SELECT token_hash FROM sign_in_tokens
          WHERE expires_at <= ${now} AND user_id NOT IN ${frozenUsers} LIMIT ${limit})`,
      )
      .returning({ id: signInTokens.tokenHash }),
  ]);
  return Math.max(gone.length, links.length);
}
