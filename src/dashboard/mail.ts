// The dashboard's mail: sign-in links and invitations. Links are minted here (random, stored
// hashed, bound to one user, spent on first use, 15 minutes) and mailed after the response, so
// an answer takes the same time whether or not an address has an account.
import type { Context } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { openDatabase } from "../db/client";
import { createSignInToken } from "../db/sessions";
import type { Actor } from "../domain/audit";
import { hashSecretToken, newSecretToken } from "../domain/secret-token";
import { SIGN_IN_LINK_LIFETIME_MS } from "../domain/session-policy";
import type { User } from "../domain/user";
import { mailerFor } from "../mail/mailer";

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

/** A new sign-in link for the user (stored hashed); `actor` set: the request is audited. */
async function mintSignInLink(
  c: Context<AppEnv>,
  user: User,
  actor: Actor | null,
): Promise<string> {
  const token = newSecretToken();
  const now = c.get("now")();
  // After the response: a handle of its own, so the request's logged figures stay its own.
  await createSignInToken(openDatabase(c.env.DB).db, {
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

/** Mails one sign-in link per membership of the address (after the response). */
export function mailSignInLinks(
  c: Context<AppEnv>,
  memberships: readonly (User & { partnerName: string })[],
): void {
  const [first] = memberships;
  if (!first) return;
  afterResponse(c, async () => {
    const mailer = mailerFor(c.env);
    const lines: string[] = [];
    for (const user of memberships) {
      const link = await mintSignInLink(c, user, userActor(c, user));
      lines.push(`Sign in to ${user.partnerName} as ${user.email}:`, link, "");
    }
    await mailer.send({
      to: first.email,
      subject: `Your sign-in link for the ${PRODUCT_NAME}`,
      text: [...lines, LINK_NOTE].join("\n"),
    });
  });
}

/** Mails an invitation with a first sign-in link to a new user (after the response). */
export function mailInvitation(
  c: Context<AppEnv>,
  user: User,
  partnerName: string,
  invitedBy: string,
): void {
  afterResponse(c, async () => {
    const mailer = mailerFor(c.env);
    const link = await mintSignInLink(c, user, null);
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
