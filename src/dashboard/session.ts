// Dashboard sessions: a random 256-bit id in a `__Host-` cookie (HttpOnly, Secure, SameSite=Lax),
// only its hash in D1 (on the shard of the user's partner, which the id names), an idle timeout
// and an absolute lifetime, a fresh id at every sign-in, and a CSRF token derived from the
// session (an HMAC of its hash), so it needs no storage.
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../app/context";
import { drain, type MaintenanceStep, PER_BATCH } from "../app/maintenance";
import { usePartnerDatabase } from "../app/partner-database";
import { findSession, purgeExpiredCredentials, touchSession } from "../db/sessions";
import { followForwards } from "../db/shards";
import {
  hashSecretToken,
  isSecretToken,
  newSecretToken,
  shardOfSecretToken,
} from "../domain/secret-token";
import {
  SESSION_ABSOLUTE_LIFETIME_MS,
  SESSION_IDLE_TIMEOUT_MS,
  SESSION_TOUCH_INTERVAL_MS,
} from "../domain/session-policy";

/** `__Host-`: the browser only accepts it Secure, from this host, for Path=/ (no Domain). */
const COOKIE = "session";
const CSRF_PURPOSE = "dashboard-csrf:v1";

/** A new session id on shard `shard`: the cookie's value. Only its hash is stored. */
export async function newSessionId(shard: string): Promise<{ id: string; hash: string }> {
  const id = newSecretToken(shard);
  return { id, hash: await hashSecretToken(id) };
}

/** When a session opened at `now` ends at the latest, and where idle sessions end. */
export function sessionLimits(now: Date): { expiresAt: Date; idleCutoff: Date } {
  return {
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_LIFETIME_MS),
    idleCutoff: new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS),
  };
}

/**
 * Sets the session cookie. No Max-Age: the cookie ends with the browser session, and the server
 * ends the session itself on its idle timeout or absolute lifetime, whichever comes first.
 */
export function setSessionCookie(c: Context<AppEnv>, id: string): void {
  setCookie(c, COOKIE, id, {
    path: "/",
    secure: true,
    httpOnly: true,
    sameSite: "Lax",
    prefix: "host",
  });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, COOKIE, { path: "/", secure: true, prefix: "host" });
}

/** The hash of the request's session id and the shard it names; null without a cookie. */
export async function sessionOf(
  c: Context<AppEnv>,
): Promise<{ hash: string; shard: string } | null> {
  const id = getCookie(c, COOKIE, "host");
  if (!id || !isSecretToken(id)) return null;
  return { hash: await hashSecretToken(id), shard: shardOfSecretToken(id) };
}

/** The CSRF token of a session: forms carry it, and a post must send it back. */
export function csrfTokenOf(c: Context<AppEnv>, sessionHash: string): Promise<string> {
  return c.get("signer").sign(CSRF_PURPOSE, [sessionHash]);
}

/**
 * Whether `token` is the CSRF token of the request's session (compared in constant time). Its
 * token names no signing key: during a rotation, a form rendered under the previous secret still
 * posts.
 */
export function isCsrfTokenOf(c: Context<AppEnv>, token: string): Promise<boolean> {
  return c.get("signer").verify(CSRF_PURPOSE, [c.get("session").sessionHash], token, undefined);
}

/**
 * Loads the signed-in user into `session`, moving the idle timeout on (at most one write a
 * minute). Without a live session: the redirect to the sign-in page to answer instead, and the
 * cookie is cleared.
 */
export async function loadSession(c: Context<AppEnv>): Promise<Response | undefined> {
  const now = c.get("now")();
  const cookie = await sessionOf(c);
  const idleCutoff = sessionLimits(now).idleCutoff;
  const found = cookie
    ? await followForwards(c.get("shards"), cookie.shard, (db) =>
        findSession(db, cookie.hash, now, idleCutoff),
      )
    : null;
  if (!cookie || !found) {
    if (cookie) clearSessionCookie(c);
    const notice = cookie ? "?notice=session-ended" : "";
    return c.redirect(`/dashboard/sign-in${notice}`, 303);
  }
  usePartnerDatabase(c, found.db, found.shard);
  const session = found.value;
  // A partner being moved takes no write: the idle timeout moves on at its next page.
  if (
    !session.moving &&
    now.getTime() - Date.parse(session.lastSeenAt) >= SESSION_TOUCH_INTERVAL_MS
  ) {
    await touchSession(found.db, cookie.hash, now);
  }
  c.set("session", {
    user: session.user,
    partnerName: session.partnerName,
    sessionHash: cookie.hash,
    csrfToken: await csrfTokenOf(c, cookie.hash),
    moving: session.moving,
  });
  return undefined;
}

/** Maintenance, on every shard: sessions and sign-in links past their end are deleted. */
export const credentialsPurged: MaintenanceStep = {
  name: "credentials_purged",
  run: ({ db, now }) => {
    const idleCutoff = new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS).toISOString();
    return drain(() => purgeExpiredCredentials(db, now.toISOString(), idleCutoff, PER_BATCH));
  },
};
