// Passwordless sign-in over HTTP: one answer for every address, a link that only a POST spends,
// once, within 15 minutes, for its own user; rate limits per address and per client IP.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { shardJurisdiction } from "../../src/db/shards";
import { fetchWithEnv } from "../support/app-env";
import {
  confirmLink,
  formInit,
  inviteByOperator,
  lastMailId,
  linksIn,
  nextMail,
  outboxFor,
  requestSignIn,
  seedTeam,
  sessionCookieOf,
  signIn,
  tokenOf,
  uniqueIp,
} from "../support/dashboard";
import { importData, uniqueId } from "../support/fixtures";
import {
  firstOnAnyShard,
  partnerDatabase,
  SHARDS,
  shardOf,
  unreachableD1,
} from "../support/shards";
import { request } from "../support/worker";

const address = () => `${uniqueId("user")}@example.com`.toLowerCase();

afterEach(() => {
  vi.useRealTimers();
});

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("asking for a sign-in link", () => {
  it("answers a known and an unknown address alike, and mails only the known one", async () => {
    const { partnerId } = await seedTeam();
    const known = address();
    await inviteByOperator(partnerId, known, "Developer");
    const before = await lastMailId(known);
    const unknown = address();
    const [a, b] = await Promise.all([
      requestSignIn(known, uniqueIp()),
      requestSignIn(unknown, uniqueIp()),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const bodyA = (await a.text()).replace(known, "ADDRESS");
    const bodyB = (await b.text()).replace(unknown, "ADDRESS");
    expect(bodyA).toBe(bodyB);
    expect([...a.headers.keys()].sort()).toEqual([...b.headers.keys()].sort());
    expect(a.headers.getSetCookie()).toEqual([]);

    const mail = await nextMail(known, before);
    expect(linksIn(mail)).toHaveLength(1);
    expect(mail.text).toContain("works once, for 15 minutes");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await outboxFor(unknown)).toEqual([]);
  });

  it("treats addresses case-insensitively", async () => {
    const { partnerId } = await seedTeam();
    const email = address();
    await inviteByOperator(partnerId, email, "Developer");
    const before = await lastMailId(email);
    expect((await requestSignIn(`  ${email.toUpperCase()} `, uniqueIp())).status).toBe(200);
    expect(linksIn(await nextMail(email, before))).toHaveLength(1);
  });

  it("asks again for something that is not an address, without mailing", async () => {
    const res = await requestSignIn("not an address", uniqueIp());
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Enter an email address");
    expect(html).toContain('value="not an address"');
  });

  it("mails one link per partner to an address that belongs to two", async () => {
    const [first, second] = [await seedTeam(), await seedTeam()];
    const email = address();
    await inviteByOperator(first.partnerId, email, "Developer");
    await inviteByOperator(second.partnerId, email, "Admin");
    const before = await lastMailId(email);
    await requestSignIn(email, uniqueIp());
    const links = linksIn(await nextMail(email, before));
    expect(links).toHaveLength(2);
    const roles = [];
    for (const link of links) {
      const ip = uniqueIp();
      const cookie = sessionCookieOf(await confirmLink(link, ip)) ?? "";
      const page = await request("/dashboard/sandbox/keys", { headers: { cookie } });
      roles.push(/\((Admin|Developer)\)/.exec(await page.text())?.[1]);
    }
    expect(roles.sort()).toEqual(["Admin", "Developer"]);
  });

  it("refuses a post from another site, or one that hides its origin", async () => {
    const email = address();
    const foreign = formInit({ email }, { origin: "https://evil.example" });
    expect((await request("/dashboard/sign-in", foreign)).status).toBe(403);
    const hidden = formInit({ email });
    delete (hidden.headers as Record<string, string>).origin;
    expect((await request("/dashboard/sign-in", hidden)).status).toBe(403);
  });
});

describe("a mailed sign-in link", () => {
  async function freshLink(): Promise<{ email: string; link: string; partnerId: string }> {
    const { partnerId } = await seedTeam();
    const email = address();
    await inviteByOperator(partnerId, email, "Developer");
    const before = await lastMailId(email);
    await requestSignIn(email, uniqueIp());
    const [link] = linksIn(await nextMail(email, before));
    return { email, link: link as string, partnerId };
  }

  it("is not spent by opening it: the page only asks to confirm", async () => {
    const { email, link } = await freshLink();
    const path = new URL(link).pathname + new URL(link).search;
    for (let i = 0; i < 3; i++) {
      const page = await request(path);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(email);
      expect(html).toContain('method="post" action="/dashboard/sign-in/confirm"');
      expect(page.headers.getSetCookie()).toEqual([]);
    }
    const res = await confirmLink(link, uniqueIp());
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/sandbox/keys");
  });

  it("works once", async () => {
    const { link } = await freshLink();
    expect((await confirmLink(link, uniqueIp())).status).toBe(303);
    const again = await request(
      "/dashboard/sign-in/confirm",
      formInit({ token: tokenOf(link) }, { "cf-connecting-ip": uniqueIp() }),
    );
    expect(again.status).toBe(400);
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await again.text()).toContain("This link cannot be used");
  });

  it("works once even when two posts race", async () => {
    const { link } = await freshLink();
    const post = () => request("/dashboard/sign-in/confirm", formInit({ token: tokenOf(link) }));
    const statuses = (await Promise.all([post(), post(), post()])).map((r) => r.status).sort();
    expect(statuses).toEqual([303, 400, 400]);
  });

  it("expires 15 minutes after it was mailed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { link } = await freshLink();
    const path = new URL(link).pathname + new URL(link).search;
    vi.setSystemTime(start + 14 * 60_000);
    expect((await request(path)).status).toBe(200);
    vi.setSystemTime(start + 15 * 60_000 + 1000);
    expect((await request(path)).status).toBe(400);
    const post = await request("/dashboard/sign-in/confirm", formInit({ token: tokenOf(link) }));
    expect(post.status).toBe(400);
  });

  it("is spent, with every other link of its user, by a sign-in", async () => {
    const { email, link: older } = await freshLink();
    const before = await lastMailId(email);
    await requestSignIn(email, uniqueIp());
    const [newer] = linksIn(await nextMail(email, before));
    expect((await confirmLink(newer as string, uniqueIp())).status).toBe(303);
    const res = await request("/dashboard/sign-in/confirm", formInit({ token: tokenOf(older) }));
    expect(res.status).toBe(400);
  });

  it("refuses altered, foreign and malformed tokens alike", async () => {
    const { link } = await freshLink();
    const token = tokenOf(link);
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const bad of [altered, "x".repeat(43), "short", "", `${token}x`]) {
      const res = await request("/dashboard/sign-in/confirm", formInit({ token: bad }));
      expect(res.status, bad).toBe(400);
      const page = await request(`/dashboard/sign-in/confirm?token=${encodeURIComponent(bad)}`);
      expect(page.status, bad).toBe(400);
    }
  });

  it("is stored only as a hash, bound to its user", async () => {
    const { email, link } = await freshLink();
    const token = tokenOf(link);
    const row = await firstOnAnyShard<{ token_hash: string; email: string }>(
      "SELECT t.token_hash, u.email FROM sign_in_tokens t JOIN users u ON u.user_id = t.user_id WHERE t.token_hash = ?",
      await sha256Hex(token),
    );
    expect(row?.email).toBe(email);
    const plain = await firstOnAnyShard<{ n: number }>(
      "SELECT count(*) AS n FROM sign_in_tokens WHERE token_hash = ?",
      token,
    );
    expect(plain?.n).toBe(0);
  });
});

describe("the session a sign-in opens", () => {
  it("is a __Host- cookie: HttpOnly, Secure, SameSite=Lax, Path=/, no Domain", async () => {
    const { partnerId } = await seedTeam();
    const email = address();
    await inviteByOperator(partnerId, email, "Developer");
    const before = await lastMailId(email);
    await requestSignIn(email, uniqueIp());
    const [link] = linksIn(await nextMail(email, before));
    const res = await confirmLink(link as string, uniqueIp());
    const header = res.headers.getSetCookie().find((c) => c.startsWith("__Host-session=")) ?? "";
    const [pair, ...attributes] = header.split(/;\s*/);
    // The code of the partner's shard, then 256 random bits.
    expect(pair).toMatch(
      new RegExp(`^__Host-session=${await shardOf(partnerId)}[A-Za-z0-9_-]{43}$`),
    );
    const names = attributes.map((a) => a.split("=")[0]?.toLowerCase());
    expect(names).toEqual(expect.arrayContaining(["path", "secure", "httponly", "samesite"]));
    expect(names).not.toContain("domain");
    expect(attributes).toContain("Path=/");
    expect(attributes).toContain("SameSite=Lax");
  });

  it("has a new id at every sign-in, and the previous session of that browser ends", async () => {
    const team = await seedTeam();
    const first = team.developer;
    const before = await lastMailId(first.email);
    await requestSignIn(first.email, first.ip);
    const [link] = linksIn(await nextMail(first.email, before));
    const res = await request(
      "/dashboard/sign-in/confirm",
      formInit({ token: tokenOf(link as string) }, { cookie: first.cookie }),
    );
    const second = sessionCookieOf(res);
    expect(second).not.toBeNull();
    expect(second).not.toBe(first.cookie);
    expect((await first.get("/dashboard/sandbox/keys")).status).toBe(303);
    const page = await request("/dashboard/sandbox/keys", { headers: { cookie: second ?? "" } });
    expect(page.status).toBe(200);
  });

  it("is stored only as a hash", async () => {
    const team = await seedTeam();
    const id = team.admin.cookie.split("=")[1] ?? "";
    const db = await partnerDatabase(team.partnerId);
    const count = "SELECT count(*) AS n FROM sessions WHERE session_hash = ?";
    const stored = await db
      .prepare(count)
      .bind(await sha256Hex(id))
      .first<{ n: number }>();
    const plain = await db.prepare(count).bind(id).first<{ n: number }>();
    expect([stored?.n, plain?.n]).toEqual([1, 0]);
  });
});

/**
 * Waits, when needed, until the wall-clock minute has 20 s left at least: the local limiter's
 * windows are wall-clock minutes, and a sequence that crossed one would start over midway.
 */
async function withinOneWindow(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - into + 50));
}

describe("sign-in rate limits", () => {
  it("answers 429 to the fourth request for one address within a minute, known or not", async () => {
    const { partnerId } = await seedTeam();
    const known = address();
    await inviteByOperator(partnerId, known, "Developer");
    await withinOneWindow();
    for (const email of [known, address()]) {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await requestSignIn(email, uniqueIp())).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    }
    const limited = await requestSignIn(known, uniqueIp());
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.text()).toContain("Wait a minute");
  }, 40_000);

  it("answers 429 to the eleventh request from one client IP within a minute", async () => {
    const ip = uniqueIp();
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await requestSignIn(address(), ip)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    // Another client is not affected.
    expect((await requestSignIn(address(), uniqueIp())).status).toBe(200);
  });

  it("mails nothing for a refused request", async () => {
    const { partnerId } = await seedTeam();
    const email = address();
    await inviteByOperator(partnerId, email, "Developer");
    const ip = uniqueIp();
    await withinOneWindow();
    for (let i = 0; i < 3; i++) await requestSignIn(email, ip);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sent = (await outboxFor(email)).length;
    expect((await requestSignIn(email, ip)).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await outboxFor(email)).length).toBe(sent);
  }, 40_000);
});

describe("signing in after removal", () => {
  it("mails nothing to a removed user", async () => {
    const team = await seedTeam();
    const email = team.developer.email;
    const res = await team.admin.post(`/dashboard/team/${team.developerId}/remove`);
    expect(res.status).toBe(303);
    const before = await lastMailId(email);
    expect((await requestSignIn(email, uniqueIp())).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastMailId(email)).toBe(before);
  });

  it("lets a signed-in user sign in again after signing out", async () => {
    const team = await seedTeam();
    await team.developer.post("/dashboard/sign-out");
    const again = await signIn(team.developer.email);
    expect((await again.get("/dashboard/sandbox/keys")).status).toBe(200);
  });
});

// A sign-in carries only an address: the directory says which partners (on which shards) it
// belongs to; the link and the session then name their shard and never ask the directory again.
describe("signing in to partners on different shards", () => {
  it("mails one link per partner, each opening a session on that partner's shard", async () => {
    const email = address();
    const partners: { partnerId: string; shard: string }[] = [];
    for (const shard of SHARDS) {
      const partnerId = uniqueId("partner");
      const jurisdiction = shardJurisdiction(env, shard);
      await importData({
        partners: [
          { partner_id: partnerId, name: `Partner on ${shard}`, shard, jurisdiction, products: [] },
        ],
      });
      await inviteByOperator(partnerId, email, "Admin");
      partners.push({ partnerId, shard });
    }
    const before = await lastMailId(email);
    expect((await requestSignIn(email, uniqueIp())).status).toBe(200);
    // One mail per jurisdiction: the partners without one share a mail, the `eu` ones another.
    const jurisdictions = new Set(SHARDS.map((shard) => shardJurisdiction(env, shard)));
    let mail = await nextMail(email, before);
    for (let attempt = 0; attempt < 100; attempt++) {
      const mails = (await outboxFor(email)).filter((m) => m.id > before);
      if (mails.length === jurisdictions.size) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const mails = (await outboxFor(email)).filter((m) => m.id > before);
    expect(mails).toHaveLength(jurisdictions.size);
    mail = { ...mail, text: mails.map((m) => m.text).join("\n") };
    const links = linksIn(mail);
    expect(links).toHaveLength(SHARDS.length);
    for (const { shard } of partners) expect(mail.text).toContain(`Partner on ${shard}`);
    for (const one of mails) {
      const named = partners.filter((p) => one.text.includes(`Partner on ${p.shard}`));
      expect(new Set(named.map((p) => shardJurisdiction(env, p.shard))).size).toBe(1);
    }

    const shardsSignedIn: string[] = [];
    for (const link of links) {
      const ip = uniqueIp();
      const res = await confirmLink(link, ip);
      expect(res.status).toBe(303);
      const cookie = sessionCookieOf(res) as string;
      const code = cookie.slice("__Host-session=".length, "__Host-session=".length + 2);
      shardsSignedIn.push(code);
      // The session's pages are served with the directory down: the cookie names the shard.
      const page = await fetchWithEnv(
        "/dashboard/sandbox/keys",
        { headers: { cookie, "cf-connecting-ip": ip } },
        { DIRECTORY: unreachableD1() },
      );
      expect(page.status).toBe(200);
      const partner = partners.find((p) => p.shard === code);
      expect(await page.text()).toContain(`Partner on ${partner?.shard}`);
    }
    expect(shardsSignedIn.sort()).toEqual([...SHARDS].sort());
  });

  it("answers 503 while the directory is down, the same for any address, mailing nothing", async () => {
    const known = address();
    const team = await seedTeam();
    await inviteByOperator(team.partnerId, known, "Developer");
    const before = await lastMailId(known);
    const ask = (email: string) =>
      fetchWithEnv(
        "/dashboard/sign-in",
        formInit({ email }, { "cf-connecting-ip": uniqueIp(), "x-request-id": "directory-down" }),
        { DIRECTORY: unreachableD1() },
      );
    const [a, b] = await Promise.all([ask(known), ask(address())]);
    expect([a.status, b.status]).toEqual([503, 503]);
    expect(a.headers.get("retry-after")).toBe("1");
    expect(await a.text()).toBe(await b.text());
    expect(await lastMailId(known)).toBe(before);
  });
});
