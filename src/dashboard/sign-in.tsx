// /dashboard/sign-in: passwordless sign-in by a mailed one-time link (a GET never spends the
// link: mail scanners fetch links), and sign-out.
import { type Context, Hono } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { keyedAddress } from "../app/directory-address";
import { partnerMoving } from "../app/errors";
import { usePartnerDatabase } from "../app/partner-database";
import { membershipsOf } from "../db/directory";
import {
  endSessionSignedInElsewhere,
  endSessions,
  findSession,
  redeemSignInToken,
  userOfSignInToken,
} from "../db/sessions";
import { followForwards } from "../db/shards";
import { hashSecretToken, isSecretToken, shardOfSecretToken } from "../domain/secret-token";
import { normalizeEmail } from "../domain/user";
import { field } from "./forms";
import { mailSignInLinks } from "./mail";
import { allow, type DashboardPage } from "./page";
import {
  clearSessionCookie,
  newSessionId,
  sessionLimits,
  sessionOf,
  setSessionCookie,
} from "./session";
import { withinSignInLimits } from "./sign-in-limits";

const NOTICES: Record<string, string> = {
  "signed-out": "You are signed out.",
  "signed-out-everywhere": "You are signed out on every device.",
  "session-ended": "Your session ended. Sign in again to continue.",
};

/**
 * The user an unspent link signs in, or null (a malformed token is never looked up); the shard
 * the link names (followed if the partner moved since) becomes the request's database.
 */
async function linkUser(c: Context<AppEnv>, token: string) {
  if (!isSecretToken(token)) return null;
  const hash = await hashSecretToken(token);
  const now = c.get("now")();
  const found = await followForwards(c.get("shards"), shardOfSecretToken(token), (db) =>
    userOfSignInToken(db, hash, now),
  );
  if (!found) return null;
  usePartnerDatabase(c, found.db, found.shard);
  return found.value;
}

/**
 * The browser's previous session ends with this sign-in, wherever it lives. A session of the same
 * partner on the link's shard is replaced in the sign-in's own batch (its hash is answered); one
 * of another partner, or on another shard, is ended first, with a sign-out row in its partner's
 * audit log (while that partner is being moved, its writes wait: 503, the link unspent).
 */
async function endPreviousSession(
  c: Context<AppEnv>,
  partnerId: string,
  shard: string,
): Promise<string | null> {
  const previous = await sessionOf(c);
  if (!previous) return null;
  const now = c.get("now")();
  const found = await followForwards(c.get("shards"), previous.shard, (db) =>
    findSession(db, previous.hash, now, sessionLimits(now).idleCutoff),
  );
  if (!found) return null;
  const { user } = found.value;
  if (found.shard === shard && user.partnerId === partnerId) return previous.hash;
  if (found.value.moving) throw partnerMoving();
  await endSessionSignedInElsewhere(found.db, {
    user,
    sessionHash: previous.hash,
    actor: userActor(c, user),
    now,
  });
  return null;
}

function SignInForm(props: { error?: string; email?: string }) {
  return (
    <>
      <p>We mail you a link that signs you in. There is no password.</p>
      <form method="post" action="/dashboard/sign-in">
        {props.error && (
          <p role="alert" id="email-error" class="error">
            {props.error}
          </p>
        )}
        <label for="email">Email address</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="email"
          required
          value={props.email ?? ""}
          aria-describedby={props.error ? "email-error" : undefined}
        />
        <button type="submit">Email me a sign-in link</button>
      </form>
    </>
  );
}

function LinkUnusable(c: Context<AppEnv>) {
  c.status(400);
  return c.render(
    <>
      <p role="alert">
        This sign-in link has expired, was used already, or was replaced by a newer one.
      </p>
      <p>
        <a href="/dashboard/sign-in">Ask for a new link</a>
      </p>
    </>,
    { title: "This link cannot be used" },
  );
}

/** Without a session. */
export const signInPage: DashboardPage = {
  routes: new Hono<AppEnv>()
    .get("/sign-in", (c) =>
      c.render(<SignInForm />, { title: "Sign in", notice: NOTICES[c.req.query("notice") ?? ""] }),
    )

    // The same answer, in the same time, for an address with or without an account: the lookup
    // is the only work done before answering; links are minted and mailed after the response.
    .post("/sign-in", async (c) => {
      const typed = await field(c, "email");
      const email = normalizeEmail(typed);
      if (!email) {
        c.status(400);
        const error = "Enter an email address, like name@example.com.";
        return c.render(<SignInForm error={error} email={typed} />, { title: "Sign in" });
      }
      if (!(await withinSignInLimits(c, email))) {
        c.header("Retry-After", "60");
        c.status(429);
        return c.render(
          <>
            <p role="alert">
              Too many sign-in links were asked for. Wait a minute, then try again.
            </p>
            <p>
              <a href="/dashboard/sign-in">Back to sign-in</a>
            </p>
          </>,
          { title: "Too many sign-in requests" },
        );
      }
      // The directory lists a jurisdictional partner's users by the address's keyed hash.
      const emailHash = await keyedAddress(c.env, email);
      const places = await membershipsOf(c.get("shards").directory(), { email, emailHash });
      mailSignInLinks(c, email, places);
      return c.render(
        <>
          <p role="status">
            If <strong>{email}</strong> belongs to a dashboard user, a sign-in link is on its way.
            It works once, for 15 minutes.
          </p>
          <p>
            <a href="/dashboard/sign-in">Use another address</a>
          </p>
        </>,
        { title: "Check your email" },
      );
    })

    // Opening the mailed link only shows a button: the link is spent by the POST it sends.
    .get("/sign-in/confirm", async (c) => {
      const token = c.req.query("token") ?? "";
      const user = await linkUser(c, token);
      if (!user) return LinkUnusable(c);
      return c.render(
        <>
          <p>
            Sign in to <strong>{user.partnerName}</strong> as <strong>{user.email}</strong>?
          </p>
          <form method="post" action="/dashboard/sign-in/confirm">
            <input type="hidden" name="token" value={token} />
            <button type="submit">Sign in</button>
          </form>
        </>,
        { title: "Confirm sign-in" },
      );
    })

    .post("/sign-in/confirm", async (c) => {
      const token = await field(c, "token");
      const user = await linkUser(c, token);
      if (!user) return LinkUnusable(c);
      // Redeeming writes: while the partner's data is being moved, the link waits unspent.
      if (user.moving) throw partnerMoving();
      const now = c.get("now")();
      const shard = c.get("shard");
      const session = await newSessionId(shard);
      const limits = sessionLimits(now);
      const replaces = await endPreviousSession(c, user.partnerId, shard);
      const redeemed = await redeemSignInToken(c.get("db"), {
        user,
        tokenHash: await hashSecretToken(token),
        sessionHash: session.hash,
        replacesSessionHash: replaces,
        sessionExpiresAt: limits.expiresAt,
        idleCutoff: limits.idleCutoff,
        actor: userActor(c, user),
        now,
      });
      if (!redeemed) return LinkUnusable(c);
      setSessionCookie(c, session.id);
      return c.redirect("/dashboard/sandbox/keys", 303);
    }),
};

/** Sign-out: this session, or (`everywhere`) every session of the user. */
export const signOutPage: DashboardPage = {
  routes: new Hono<AppEnv>().post("/sign-out", allow(), async (c) => {
    const { user, sessionHash } = c.var.session;
    const everywhere = (await field(c, "everywhere")) === "1";
    await endSessions(c.get("db"), {
      user,
      sessionHash,
      everywhere,
      actor: userActor(c, user),
      now: c.get("now")(),
    });
    clearSessionCookie(c);
    return c.redirect(
      `/dashboard/sign-in?notice=signed-out${everywhere ? "-everywhere" : ""}`,
      303,
    );
  }),
};
