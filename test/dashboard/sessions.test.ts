// Sessions and page security over HTTP: idle timeout and absolute lifetime with the movable
// clock, sign-out (here and everywhere), CSRF and Origin checks on every form, and the headers
// every dashboard response carries.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formInit, seedTeam, signIn, uniqueIp } from "../support/dashboard";
import { BASE, request } from "../support/worker";

afterEach(() => {
  vi.useRealTimers();
});

const MINUTE = 60_000;

describe("without a session", () => {
  it("sends every page to sign-in", async () => {
    for (const path of [
      "/dashboard/sandbox/keys",
      "/dashboard/production/version",
      "/dashboard/team",
      "/dashboard/audit",
      "/dashboard/nowhere",
    ]) {
      const res = await request(path, { redirect: "manual" });
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location"), path).toBe("/dashboard/sign-in");
    }
    const root = await request("/dashboard", { redirect: "manual" });
    expect(root.headers.get("location")).toBe("/dashboard/sandbox/keys");
  });

  it("ends a forged or unknown cookie like no cookie, and clears it", async () => {
    for (const cookie of ["__Host-session=forged", `__Host-session=${"A".repeat(43)}`]) {
      const res = await request("/dashboard/sandbox/keys", {
        headers: { cookie },
        redirect: "manual",
      });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toMatch(/^\/dashboard\/sign-in/);
    }
    const known = await request("/dashboard/sandbox/keys", {
      headers: { cookie: `__Host-session=${"A".repeat(43)}` },
      redirect: "manual",
    });
    expect(known.headers.getSetCookie().join()).toMatch(/__Host-session=;/);
  });

  it("refuses a form post with a redirect to sign-in, changing nothing", async () => {
    const res = await request(
      "/dashboard/sandbox/keys",
      formInit({ name: "x", csrf: "whatever" }, { "cf-connecting-ip": uniqueIp() }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/sign-in");
  });
});

describe("session lifetime", () => {
  it("ends after 30 idle minutes, and each request moves the idle timeout on", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { admin } = await seedTeam();
    for (const minutes of [29, 58, 87]) {
      vi.setSystemTime(start + minutes * MINUTE);
      expect((await admin.get("/dashboard/sandbox/keys")).status, `${minutes} min`).toBe(200);
    }
    vi.setSystemTime(start + (87 + 31) * MINUTE);
    const ended = await admin.get("/dashboard/sandbox/keys");
    expect(ended.status).toBe(303);
    expect(ended.headers.get("location")).toBe("/dashboard/sign-in?notice=session-ended");
  });

  it("ends 12 hours after sign-in however busy", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { admin } = await seedTeam();
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
      vi.setSystemTime(start + minutes * MINUTE);
      expect((await admin.get("/dashboard/sandbox/keys")).status, `${minutes} min`).toBe(200);
    }
    vi.setSystemTime(start + 12 * 60 * MINUTE + 1000);
    expect((await admin.get("/dashboard/sandbox/keys")).status).toBe(303);
  });
});

describe("signing out", () => {
  it("ends this session and clears its cookie", async () => {
    const team = await seedTeam();
    const other = await signIn(team.admin.email);
    const res = await team.admin.post("/dashboard/sign-out");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/sign-in?notice=signed-out");
    expect(res.headers.getSetCookie().join()).toMatch(/__Host-session=;/);
    expect((await team.admin.get("/dashboard/sandbox/keys")).status).toBe(303);
    expect((await other.get("/dashboard/sandbox/keys")).status).toBe(200);
  });

  it("everywhere ends every session of the user, and only theirs", async () => {
    const team = await seedTeam();
    const other = await signIn(team.admin.email);
    const res = await other.post("/dashboard/sign-out", { everywhere: "1" });
    expect(res.headers.get("location")).toBe("/dashboard/sign-in?notice=signed-out-everywhere");
    expect((await team.admin.get("/dashboard/sandbox/keys")).status).toBe(303);
    expect((await other.get("/dashboard/sandbox/keys")).status).toBe(303);
    expect((await team.developer.get("/dashboard/sandbox/keys")).status).toBe(200);
  });
});

describe("forms", () => {
  /** How many keys the sandbox page lists. */
  async function keyCount(client: Awaited<ReturnType<typeof seedTeam>>["admin"]) {
    const html = await (await client.get("/dashboard/sandbox/keys")).text();
    return (html.match(/<tr id="key_/g) ?? []).length;
  }

  it("refuses a post without the session's CSRF token, or with another session's", async () => {
    const team = await seedTeam();
    const theirs = await team.developer.csrf();
    for (const csrf of ["", "forged", theirs]) {
      const res = await team.admin.post("/dashboard/sandbox/keys", { name: "k", csrf });
      expect(res.status, csrf).toBe(403);
      expect(await res.text()).toContain("This form has expired");
    }
    expect(await keyCount(team.admin)).toBe(0);
  });

  it("refuses a post from another origin, or without one, even with a valid token", async () => {
    const team = await seedTeam();
    const csrf = await team.admin.csrf();
    const foreign = await team.admin.post(
      "/dashboard/sandbox/keys",
      { name: "k", csrf },
      { origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    const init = formInit({ name: "k", csrf }, { cookie: team.admin.cookie });
    delete (init.headers as Record<string, string>).origin;
    expect((await request("/dashboard/sandbox/keys", init)).status).toBe(403);
    expect(await keyCount(team.admin)).toBe(0);
  });

  it("accepts only URL-encoded forms of a bounded size", async () => {
    const team = await seedTeam();
    const csrf = await team.admin.csrf();
    const json = await request("/dashboard/sandbox/keys", {
      method: "POST",
      headers: {
        origin: "http://api.test",
        cookie: team.admin.cookie,
        "content-type": "application/json",
      },
      body: JSON.stringify({ name: "k", csrf }),
    });
    expect(json.status).toBe(415);
    const big = await team.admin.post("/dashboard/sandbox/keys", {
      name: "x".repeat(20_000),
      csrf,
    });
    expect(big.status).toBe(413);
    expect(await keyCount(team.admin)).toBe(0);
  });
});

describe("headers of every dashboard response", () => {
  it("forbid framing, caching, sniffing and inline script, on pages, errors and redirects", async () => {
    const team = await seedTeam();
    const responses = await Promise.all([
      request("/dashboard/sign-in"),
      request("/dashboard", { redirect: "manual" }),
      request("/dashboard/sandbox/keys", { redirect: "manual" }),
      // The stylesheet and script are static assets, served before the Worker.
      env.ASSETS.fetch(new Request(`${BASE}/dashboard/assets/dashboard.js`)),
      env.ASSETS.fetch(new Request(`${BASE}/dashboard/assets/dashboard.css`)),
      team.admin.get("/dashboard/sandbox/keys"),
      team.admin.get("/dashboard/production/version"),
      team.admin.get("/dashboard/team"),
      team.admin.get("/dashboard/audit"),
      team.admin.get("/dashboard/staging/keys"),
      team.developer.get("/dashboard/team"),
      request("/dashboard/sign-in", formInit({ email: "a@example.com" }, { origin: "x" })),
    ]);
    expect(responses.map((r) => r.status)).toEqual([
      200, 303, 303, 200, 200, 200, 200, 200, 200, 404, 403, 403,
    ]);
    for (const res of responses) {
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin");
    }
  });

  it("come with pages that hold no inline script or event handler", async () => {
    const team = await seedTeam();
    for (const path of [
      "/dashboard/sandbox/keys",
      "/dashboard/production/keys",
      "/dashboard/sandbox/version",
      "/dashboard/team",
      "/dashboard/audit",
    ]) {
      const html = await (await team.admin.get(path)).text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/\son[a-z]+=/i);
      expect(html).not.toMatch(/\sstyle=/i);
    }
  });
});
