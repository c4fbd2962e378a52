// Dashboard users of a partner: invited, given a role, removed. Each change is one atomic batch
// with its audit row, gated by one guard; the guard keeps at least one Admin per partner even
// when two Admins act at the same moment. The directory keeps each address's partners, for
// sign-in by address (a jurisdictional partner's by the address's keyed hash): written before a
// user is added, deleted after one is removed.
import { and, asc, eq, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { Actor } from "../domain/audit";
import type { Role } from "../domain/permissions";
import type { User } from "../domain/user";
import { auditInsert } from "./audit";
import { allOf, atomically } from "./batch";
import type { Database } from "./client";
import { addUserEmail, type PartnerDirectory, removeUserEmail } from "./directory";
import { partners, sessions, signInTokens, users } from "./schema";

function toUser(row: typeof users.$inferSelect): User {
  return { ...row };
}

/** The addresses of the partner's Admins (for notices that concern the whole partner). */
export async function adminEmailsOf(db: Database, partnerId: string): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.partnerId, partnerId), eq(users.role, "Admin")))
    .orderBy(asc(users.email));
  return rows.map((r) => r.email);
}

/**
 * Every membership of an address on this shard (one per partner), with the partner's name; not
 * those of partners that moved to another shard (their users are there).
 */
export async function usersByEmail(
  db: Database,
  email: string,
): Promise<(User & { partnerName: string })[]> {
  const rows = await db
    .select({ user: users, partnerName: partners.name })
    .from(users)
    .innerJoin(partners, eq(partners.partnerId, users.partnerId))
    .where(and(eq(users.email, email), isNull(partners.movedTo)))
    .orderBy(asc(partners.name));
  return rows.map((r) => ({ ...toUser(r.user), partnerName: r.partnerName }));
}

export async function listUsers(db: Database, partnerId: string): Promise<User[]> {
  const rows = await db
    .select()
    .from(users)
    .where(eq(users.partnerId, partnerId))
    .orderBy(asc(users.email));
  return rows.map(toUser);
}

export async function findUser(
  db: Database,
  partnerId: string,
  userId: string,
): Promise<User | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.partnerId, partnerId), eq(users.userId, userId)));
  return row ? toUser(row) : null;
}

/** A new user id. */
export function generateUserId(): string {
  return `usr_${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * Adds a user to the partner (on its shard `db`, and its address to the `directory`, as it lists
 * the partner's); null when the address is already one of its users.
 */
export async function inviteUser(
  db: Database,
  directory: PartnerDirectory,
  input: { partnerId: string; email: string; role: Role; actor: Actor; now: Date },
): Promise<User | null> {
  const user: User = {
    userId: generateUserId(),
    partnerId: input.partnerId,
    email: input.email,
    role: input.role,
    createdAt: input.now.toISOString(),
    lastSignedInAt: null,
  };
  const isNew = sql`NOT EXISTS (SELECT 1 FROM ${users}
    WHERE partner_id = ${input.partnerId} AND email = ${input.email})`;
  await addUserEmail(directory.db, await directory.list(input.email), input.partnerId);
  const [audited] = await atomically(db, [
    auditInsert(
      input.partnerId,
      input.actor,
      {
        action: "user.invited",
        target: user.userId,
        details: { email: input.email, role: input.role },
      },
      input.now,
      { guard: isNew },
    ),
    db.insert(users).values(user).onConflictDoNothing(),
  ]);
  return audited?.meta.changes === 1 ? user : null;
}

/** True while the partner keeps an Admin other than `userId`. */
function anotherAdmin(partnerId: string, userId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${users}
    WHERE partner_id = ${partnerId} AND role = 'Admin' AND user_id <> ${userId})`;
}

export type UserChange = "done" | "not_found" | "last_admin";

/** Why a guarded change of `user` did not happen: it is gone, or it is the last Admin. */
async function refusal(db: Database, partnerId: string, userId: string): Promise<UserChange> {
  return (await findUser(db, partnerId, userId)) ? "last_admin" : "not_found";
}

/** Gives a user another role; the last Admin cannot be demoted. */
export async function changeRole(
  db: Database,
  input: { partnerId: string; userId: string; role: Role; actor: Actor; now: Date },
): Promise<UserChange> {
  const target = allOf(
    eq(users.partnerId, input.partnerId),
    eq(users.userId, input.userId),
    ne(users.role, input.role),
  );
  const allowed =
    input.role === "Admin"
      ? sql`EXISTS (SELECT 1 FROM ${users} WHERE ${target})`
      : sql`EXISTS (SELECT 1 FROM ${users} WHERE ${target})
          AND ${anotherAdmin(input.partnerId, input.userId)}`;
  const [audited] = await atomically(db, [
    auditInsert(
      input.partnerId,
      input.actor,
      {
        action: "user.role_changed",
        target: input.userId,
        details: { role: input.role },
      },
      input.now,
      {
        guard: allowed,
        details: sql`(SELECT json_object('email', email, 'from', role, 'to', ${input.role})
          FROM ${users} WHERE ${target})`,
      },
    ),
    db.update(users).set({ role: input.role }).where(and(target, allowed)),
  ]);
  if (audited?.meta.changes === 1) return "done";
  const user = await findUser(db, input.partnerId, input.userId);
  if (!user) return "not_found";
  return user.role === input.role ? "done" : "last_admin";
}

/**
 * Removes a user, their sessions and their sign-in links (then their address from the
 * `directory`); the last Admin cannot be removed.
 */
export async function removeUser(
  db: Database,
  directory: PartnerDirectory,
  input: { partnerId: string; userId: string; actor: Actor; now: Date },
): Promise<UserChange> {
  const removed = await findUser(db, input.partnerId, input.userId);
  const target = sql`${users.partnerId} = ${input.partnerId} AND ${users.userId} = ${input.userId}`;
  const allowed = sql`EXISTS (SELECT 1 FROM ${users} WHERE ${target}
    AND (role <> 'Admin' OR ${anotherAdmin(input.partnerId, input.userId)}))`;
  const [audited] = await atomically(db, [
    auditInsert(
      input.partnerId,
      input.actor,
      { action: "user.removed", target: input.userId },
      input.now,
      {
        guard: allowed,
        details: sql`(SELECT json_object('email', email, 'role', role) FROM ${users}
          WHERE ${target})`,
      },
    ),
    db.delete(sessions).where(and(eq(sessions.userId, input.userId), allowed)),
    db.delete(signInTokens).where(and(eq(signInTokens.userId, input.userId), allowed)),
    db.delete(users).where(sql`${target} AND ${allowed}`),
  ]);
  if (audited?.meta.changes !== 1) return refusal(db, input.partnerId, input.userId);
  if (removed) {
    await removeUserEmail(directory.db, await directory.list(removed.email), input.partnerId);
  }
  return "done";
}
