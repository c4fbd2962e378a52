// The dashboard's mail: sign-in links and invitations. Links are minted here (random, naming the
// user's shard, stored hashed there, bound to one user, spent on first use, 15 minutes) and
// mailed after the response, so an answer takes the same time whether or not an address has an
// account: the request itself only asks the directory which partners the address belongs to.
import type { Context } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { newQueryStats } from "../db/client";
import { createSignInToken } from "../db/sessions";
import { FIRST_SHARD, openShards, shardJurisdiction } from "../db/shards";
import { usersByEmail } from "../db/users";
import type { Actor } from "../domain/audit";
import { hashSecretToken, newSecretToken } from "../domain/secret-token";
import { SIGN_IN_LINK_LIFETIME_MS } from "../domain/session-policy";
import type { User } from "../domain/user";
import { mailerFor, mailerOfShard } from "../mail/mailer";

export const PRODUCT_NAME = "Card Statements dashboard";

/** Runs `task` after the response; a failure is logged without the mail it was sending. */
export function afterResponse(c: Context<AppEnv>, task: () => Promise<void>): void {
  const requestId = c.get("requestId");
  c.executionCtx.waitUntil(
    task().catch((error: unknown) => {
      console.error(JSON.stringify({ request_id: requestId, error: String(error) }));
    }),
  );
}

/**
 * Databases of their own for work after the response, so that the request's logged figures stay
 * its own.
 */
const afterResponseShards = (c: Context<AppEnv>) => openShards(c.env, newQueryStats());

/**
 * A new sign-in link for the user, on its partner's shard `shard` (stored hashed); `actor` set:
 * the request is audited.
 */
async function mintSignInLink(
  c: Context<AppEnv>,
  shards: ReturnType<typeof openShards>,
  shard: string,
  user: User,
  actor: Actor | null,
): Promise<string> {
  const db = shards.open(shard);
  if (!db) throw new Error(`no shard ${shard} for a sign-in link`);
  const token = newSecretToken(shard);
  const now = c.get("now")();
  await createSignInToken(db, {
    user,
    tokenHash: await hashSecretToken(token),
    expiresAt: new Date(now.getTime() + SIGN_IN_LINK_LIFETIME_MS),
    actor,
    now,
  });
  return `${new URL(c.req.url).origin}/dashboard/sign-in/confirm?token=${token}`;
}

const LINK_NOTE =
  "The link works once, for 15 minutes. If you did not ask for it, ignore this mail: " +
  "nobody can sign in without it.";

/**
 * Mails one sign-in link per membership of the address (after the response): the users are read
 * on the shards the directory names for it (the first shard too when it names none: a user from
 * before sharding the directory has not listed yet). One mail per jurisdiction: the links of
 * partners with a jurisdiction never share a mail with those of partners of another.
 */
export function mailSignInLinks(
  c: Context<AppEnv>,
  email: string,
  places: readonly { partnerId: string; shard: string }[],
): void {
  afterResponse(c, async () => {
    const mailer = mailerFor(c.env);
    const shards = afterResponseShards(c);
    const partnersOf = new Map<string, Set<string> | null>();
    for (const place of places) {
      partnersOf.set(place.shard, (partnersOf.get(place.shard) ?? new Set()).add(place.partnerId));
    }
    if (places.length === 0) partnersOf.set(FIRST_SHARD, null);
    // Per jurisdiction: the lines of its mail, and the first shard it was read on.
    const mails = new Map<string, { shard: string; lines: string[] }>();
    for (const [shard, partnerIds] of partnersOf) {
      const db = shards.open(shard);
      if (!db) continue;
      const members = await usersByEmail(db, email);
      for (const user of members) {
        if (partnerIds && !partnerIds.has(user.partnerId)) continue;
        const link = await mintSignInLink(c, shards, shard, user, userActor(c, user));
        const jurisdiction = shardJurisdiction(c.env, shard);
        const mail = mails.get(jurisdiction) ?? { shard, lines: [] };
        mail.lines.push(`Sign in to ${user.partnerName} as ${user.email}:`, link, "");
        mails.set(jurisdiction, mail);
      }
    }
    for (const { shard, lines } of mails.values()) {
      await mailerOfShard(c.env, shard, mailer).send({
        to: email,
        subject: `Your sign-in link for the ${PRODUCT_NAME}`,
        text: [...lines, LINK_NOTE].join("\n"),
      });
    }
  });
}

/**
 * Mails an invitation with a first sign-in link to a new user of the request's partner (after the
 * response).
 */
export function mailInvitation(
  c: Context<AppEnv>,
  user: User,
  partnerName: string,
  invitedBy: string,
): void {
  const shard = c.get("shard");
  afterResponse(c, async () => {
    const mailer = mailerOfShard(c.env, shard);
    const link = await mintSignInLink(c, afterResponseShards(c), shard, user, null);
    const signIn = `${new URL(c.req.url).origin}/dashboard/sign-in`;
    await mailer.send({
      to: user.email,
      subject: `You are invited to ${partnerName}'s ${PRODUCT_NAME}`,
      text: [
        `${invitedBy} invited you to ${partnerName}'s ${PRODUCT_NAME} as ${user.role}.`,
        "",
        "Sign in:",
        link,
        "",
        `${LINK_NOTE} Later, ask for a new link at ${signIn}.`,
      ].join("\n"),
    });
  });
}
