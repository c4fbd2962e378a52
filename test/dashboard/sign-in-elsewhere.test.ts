// Signing in elsewhere ends the browser's previous session, wherever it lives: at another
// partner on another shard, or at another partner on the same shard. The ended session stops
// working at once, and its partner's audit log records the sign-out.
import { describe, expect, it } from "vitest";
import { expectJson, operator } from "../support/api";
import {
  formInit,
  inviteByOperator,
  lastMailId,
  linksIn,
  nextMail,
  requestSignIn,
  sessionCookieOf,
  tokenOf,
  uniqueIp,
} from "../support/dashboard";
import { importData, uniqueId } from "../support/fixtures";
import { SHARDS } from "../support/shards";
import { request } from "../support/worker";

/** A partner on `shard` whose Admin is `email`. */
async function partnerOn(shard: string, email: string): Promise<string> {
  const partnerId = uniqueId("partner");
  await importData({
    partners: [{ partner_id: partnerId, name: `Partner ${partnerId}`, shard, products: [] }],
  });
  await inviteByOperator(partnerId, email, "Admin");
  return partnerId;
}

/** Signs in through `link` from a browser holding `cookie`; answers the new cookie. */
async function signInThrough(link: string, ip: string, cookie?: string): Promise<string> {
  const res = await request(
    "/dashboard/sign-in/confirm",
    formInit({ token: tokenOf(link) }, { "cf-connecting-ip": ip, ...(cookie ? { cookie } : {}) }),
  );
  expect(res.status).toBe(303);
  return sessionCookieOf(res) as string;
}

/** The partner a session's pages name (its header shows the partner's name). */
async function partnerOfSession(cookie: string): Promise<string | null> {
  const page = await request("/dashboard/sandbox/keys", { headers: { cookie } });
  if (page.status !== 200) return null;
  return /Partner (partner_\w+)/.exec(await page.text())?.[1] ?? null;
}

async function signOutsOf(partnerId: string) {
  const audit = await expectJson<{ data: { action: string; details: Record<string, unknown> }[] }>(
    await operator("GET", `/partners/${partnerId}/audit?limit=100`),
    200,
  );
  return audit.data.filter((e) => e.action === "user.signed_out");
}

describe("signing in elsewhere", () => {
  for (const where of ["on another shard", "on the same shard"] as const) {
    it(`ends the browser's previous session at another partner ${where}`, async () => {
      const email = `${uniqueId("both")}@example.com`.toLowerCase();
      const [first, second] = [SHARDS[0], where === "on another shard" ? SHARDS[1] : SHARDS[0]];
      const partners = [await partnerOn(first as string, email)];
      partners.push(await partnerOn(second as string, email));
      const before = await lastMailId(email);
      expect((await requestSignIn(email, uniqueIp())).status).toBe(200);
      const links = linksIn(await nextMail(email, before));
      expect(links).toHaveLength(2);
      const ip = uniqueIp();

      const earlier = await signInThrough(links[0] as string, ip);
      const earlierPartner = await partnerOfSession(earlier);
      expect(partners).toContain(earlierPartner);
      const later = await signInThrough(links[1] as string, ip, earlier);
      const laterPartner = await partnerOfSession(later);
      expect(laterPartner).not.toBe(earlierPartner);
      expect(partners).toContain(laterPartner);

      // The previous session is over, at once; its partner's audit log says why.
      const ended = await request("/dashboard/sandbox/keys", {
        headers: { cookie: earlier },
        redirect: "manual",
      });
      expect(ended.status).toBe(303);
      expect(ended.headers.get("location")).toBe("/dashboard/sign-in?notice=session-ended");
      const signOuts = await signOutsOf(earlierPartner as string);
      expect(signOuts).toHaveLength(1);
      expect(signOuts[0]?.details).toEqual({ reason: "signed_in_elsewhere" });
      expect(await signOutsOf(laterPartner as string)).toEqual([]);
    });
  }
});
