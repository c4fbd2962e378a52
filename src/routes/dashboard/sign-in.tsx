// /dashboard/sign-in: passwordless sign-in by a mailed one-time link, and sign-out.
import { type Context, Hono } from "hono";
import { userActor } from "../../app/actor";
import type { AppEnv } from "../../app/context";
import { mailSignInLinks } from "../../app/dashboard/mail";
import {
  clearSessionCookie,
  newSessionId,
  sessionHashOf,
  sessionLimits,
  setSessionCookie,
} from "../../app/dashboard/session";
import { withinSignInLimits } from "../../app/dashboard/sign-in-limits";
import { endSessions, redeemSignInToken, userOfSignInToken } from "../../db/sessions";
import { usersByEmail } from "../../db/users";
import { hashSecretToken, isSecretToken } from "../../domain/secret-token";
import { normalizeEmail } from "../../domain/user";
import { field } from "./forms";
import {
  ConfirmSignIn,
  LinkSent,
  LinkUnusable,
  SignInForm,
  TooManyRequests,
} from "./views/sign-in";

const NOTICES: Record<string, string> = {
  "signed-out": "You are signed out.",
  "signed-out-everywhere": "You are signed out on every device.",
  "session-ended": "Your session ended. Sign in again to continue.",
};

/** The user an unspent link signs in, or null (a malformed token is never looked up). */
async function linkUser(c: Context<AppEnv>, token: string) {
  if (!isSecretToken(token)) return null;
  return userOfSignInToken(c.get("db"), await hashSecretToken(token), c.get("now")());
}

export const signInRoutes = new Hono<AppEnv>()
  .get("/dashboard/sign-in", (c) =>
    c.html(<SignInForm notice={NOTICES[c.req.query("notice") ?? ""]} />),
  )

  // The same answer, in the same time, for an address with or without an account: the lookup
  // is the only work done before answering; links are minted and mailed after the response.
  .post("/dashboard/sign-in", async (c) => {
    const typed = await field(c, "email");
    const email = normalizeEmail(typed);
    if (!email) {
      return c.html(
        <SignInForm error="Enter an email address, like name@example.com." email={typed} />,
        400,
      );
    }
    if (!(await withinSignInLimits(c, email))) {
      c.header("Retry-After", "60");
      return c.html(<TooManyRequests />, 429);
    }
    mailSignInLinks(c, await usersByEmail(c.get("db"), email));
    return c.html(<LinkSent email={email} />);
  })

  // Opening the mailed link only shows a button: the link is spent by the POST it sends.
  .get("/dashboard/sign-in/confirm", async (c) => {
    const token = c.req.query("token") ?? "";
    const user = await linkUser(c, token);
    if (!user) return c.html(<LinkUnusable />, 400);
    return c.html(
      <ConfirmSignIn token={token} email={user.email} partnerName={user.partnerName} />,
    );
  })

  .post("/dashboard/sign-in/confirm", async (c) => {
    const token = await field(c, "token");
    const user = await linkUser(c, token);
    if (!user) return c.html(<LinkUnusable />, 400);
    const now = c.get("now")();
    const session = await newSessionId();
    const limits = sessionLimits(now);
    const redeemed = await redeemSignInToken(c.get("db"), {
      user,
      tokenHash: await hashSecretToken(token),
      sessionHash: session.hash,
      replacesSessionHash: await sessionHashOf(c),
      sessionExpiresAt: limits.expiresAt,
      idleCutoff: limits.idleCutoff,
      actor: userActor(c, user),
      now,
    });
    if (!redeemed) return c.html(<LinkUnusable />, 400);
    setSessionCookie(c, session.id);
    return c.redirect("/dashboard/sandbox/keys", 303);
  });

/** Sign-out: this session, or (`everywhere`) every session of the user. Needs a session. */
export const signOutRoutes = new Hono<AppEnv>().post("/dashboard/sign-out", async (c) => {
  const { user, sessionHash } = c.get("session");
  const everywhere = (await field(c, "everywhere")) === "1";
  await endSessions(c.get("db"), {
    user,
    sessionHash,
    everywhere,
    actor: userActor(c, user),
    now: c.get("now")(),
  });
  clearSessionCookie(c);
  return c.redirect(`/dashboard/sign-in?notice=signed-out${everywhere ? "-everywhere" : ""}`, 303);
});
