// API keys in the dashboard over HTTP: create with chosen scopes (shown once, stored masked),
// roll with a grace period enforced by the key lookup on the request clock, revoke with every key
// minted from it, and the list with creators, status and last use.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_LIVE_KEYS } from "../../src/domain/key-record";
import { api, expectJson, operator } from "../support/api";
import { type DashboardClient, seedTeam, signIn } from "../support/dashboard";
import { createKey, seedAccount, statementsPath, storeKeys } from "../support/fixtures";
import { partnerDatabase } from "../support/shards";

afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 3_600_000;

/** A team whose partner also has a sandbox account with statements and an operator key. */
async function teamWithData() {
  const f = await seedAccount({ statements: 3, scopes: ["ACCOUNT_READ", "AUTHORIZED_USER_READ"] });
  return { f, team: await seedTeam(f.partnerId) };
}

/** Creates a key in the page; returns its plaintext and id as the page showed them. */
async function createInPage(
  client: DashboardClient,
  environment: "sandbox" | "production",
  fields: Record<string, string | string[]>,
): Promise<{ apiKey: string; keyId: string; html: string }> {
  const res = await client.post(`/dashboard/${environment}/keys`, fields);
  const html = await res.text();
  expect(res.status, html).toBe(201);
  const apiKey = /id="new-key"[^>]*value="([^"]+)"/.exec(html)?.[1] ?? "";
  const keyId = /<dt>Key id<\/dt><dd><code>(key_\w+)<\/code>/.exec(html)?.[1] ?? "";
  return { apiKey, keyId, html };
}

interface ListedKey {
  key_id: string;
  masked_key: string;
  status: string;
  scopes: string[];
  created_by: { type: string; email?: string; key_id?: string } | null;
  parent_key_id: string | null;
  expires_at: string | null;
  last_used_on: string | null;
}

async function operatorKeys(partnerId: string): Promise<ListedKey[]> {
  const res = await operator("GET", `/partners/${partnerId}/keys?limit=100`);
  return (await expectJson<{ data: ListedKey[] }>(res, 200)).data;
}

/** Mints a key with `POST /v2/keys` from `key`. */
async function mint(key: string): Promise<{ key_id: string; api_key: string }> {
  return expectJson(await api("/v2/keys", { key, method: "POST", body: { name: "minted" } }), 201);
}

/** A dashboard key, a child minted from it, and a grandchild minted from the child. */
async function family() {
  const { f, team } = await teamWithData();
  const parent = await createInPage(team.admin, "sandbox", { scopes: ["ACCOUNT_READ"] });
  const child = await mint(parent.apiKey);
  const grandchild = await mint(child.api_key);
  return { f, team, parent, child, grandchild };
}

describe("creating a key", () => {
  it("shows the plaintext once, with the chosen scopes, and the key works at once", async () => {
    const { f, team } = await teamWithData();
    const { apiKey, keyId, html } = await createInPage(team.developer, "sandbox", {
      name: "billing job",
      scopes: ["ACCOUNT_READ"],
    });
    expect(apiKey).toMatch(/^sk_sandbox_/);
    expect(html).toContain("shown only this once");
    expect(html).toContain('data-copy="new-key"');
    const res = await api(statementsPath(f), { key: apiKey });
    expect((await expectJson<{ data: unknown[] }>(res, 200)).data).toHaveLength(3);

    const list = await (await team.developer.get("/dashboard/sandbox/keys")).text();
    expect(list).not.toContain(apiKey);
    expect(list).toContain(`sk_sandbox_…${apiKey.slice(-4)}`);
    expect(list).toContain("billing job");
    expect(list).toContain(team.developer.email);
    const listed = (await operatorKeys(f.partnerId)).find((k) => k.key_id === keyId);
    expect(listed).toMatchObject({
      masked_key: `sk_sandbox_…${apiKey.slice(-4)}`,
      scopes: ["ACCOUNT_READ"],
      status: "active",
      created_by: { type: "user", email: team.developer.email },
    });
  });

  it("offers only the scopes the operator granted, and refuses any other", async () => {
    const { f, team } = await teamWithData();
    const page = await (await team.admin.get("/dashboard/sandbox/keys")).text();
    const offered = [...page.matchAll(/name="scopes" value="(\w+)"/g)].map((m) => m[1]);
    expect(offered).toEqual(["ACCOUNT_READ", "AUTHORIZED_USER_READ"]);
    const before = (await operatorKeys(f.partnerId)).length;
    const res = await team.admin.post("/dashboard/sandbox/keys", {
      scopes: ["ACCOUNT_READ", "PCI_DETAILS_READ"],
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("PCI_DETAILS_READ");
    expect((await operatorKeys(f.partnerId)).length).toBe(before);
    const long = await team.admin.post("/dashboard/sandbox/keys", { name: "n".repeat(256) });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("255 characters at most");
    expect((await operatorKeys(f.partnerId)).length).toBe(before);
    // Production has no operator key: nothing is granted there.
    const live = await (await team.admin.get("/dashboard/production/keys")).text();
    expect(live).toContain("granted no scope in production");
  });

  it("names who created each key: the operator, a user, or the key that minted it", async () => {
    const { f, team } = await teamWithData();
    const { keyId } = await createInPage(team.admin, "sandbox", { scopes: ["ACCOUNT_READ"] });
    const minted = await expectJson<{ key_id: string }>(
      await api("/v2/keys", { key: f.key, method: "POST" }),
      201,
    );
    const keys = await operatorKeys(f.partnerId);
    const by = (id: string) => keys.find((k) => k.key_id === id);
    expect(by(f.keyId)?.created_by).toEqual({ type: "operator" });
    expect(by(keyId)?.created_by).toEqual({
      type: "user",
      user_id: team.adminId,
      email: team.admin.email,
    });
    expect(by(minted.key_id)).toMatchObject({
      created_by: { type: "key", key_id: f.keyId },
      parent_key_id: f.keyId,
    });
    const page = await (await team.admin.get("/dashboard/sandbox/keys")).text();
    expect(page).toContain(`Key <code>${f.keyId}</code>`);
    expect(page).toContain("Operator");
  });

  it("shows only the prefix of a key made before the last four were kept", async () => {
    const { f, team } = await teamWithData();
    await (await partnerDatabase(f.partnerId))
      .prepare("UPDATE api_keys SET masked_key = NULL WHERE key_id = ?")
      .bind(f.keyId)
      .run();
    const page = await (await team.admin.get("/dashboard/sandbox/keys")).text();
    const row = page.slice(page.indexOf(`<tr id="${f.keyId}"`));
    expect(row.slice(0, row.indexOf("</tr>"))).toContain("<code>sk_sandbox_…</code>");
  });
});

describe("rolling a key", () => {
  for (const [grace, ms] of [
    ["1h", HOUR],
    ["24h", 24 * HOUR],
    ["7d", 7 * 24 * HOUR],
  ] as const) {
    it(`keeps the old key working for ${grace}, then only the new one`, async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const start = Date.now();
      const { f, team } = await teamWithData();
      const res = await team.admin.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, {
        expires: grace,
      });
      const html = await res.text();
      expect(res.status, html).toBe(201);
      const newKey = /id="new-key"[^>]*value="([^"]+)"/.exec(html)?.[1] ?? "";
      expect(html).toContain(new Date(start + ms).toISOString().slice(0, 16).replace("T", " "));

      vi.setSystemTime(start + ms - 1000);
      expect((await api(statementsPath(f), { key: f.key })).status).toBe(200);
      vi.setSystemTime(start + ms + 1000);
      const old = await api(statementsPath(f), { key: f.key });
      expect(old.status).toBe(401);
      expect(old.headers.get("www-authenticate")).toContain("Bearer");
      expect((await api(statementsPath(f), { key: newKey })).status).toBe(200);
      const keys = await operatorKeys(f.partnerId);
      expect(keys.find((k) => k.key_id === f.keyId)?.status).toBe("expired");
    });
  }

  it("with `now`, stops the old key at once; the new one has the same scopes", async () => {
    const { f, team } = await teamWithData();
    const res = await team.developer.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, {
      expires: "now",
    });
    const newKey = /id="new-key"[^>]*value="([^"]+)"/.exec(await res.text())?.[1] ?? "";
    expect((await api(statementsPath(f), { key: f.key })).status).toBe(401);
    const customer = await api(`/v2/customers/${f.customerId}`, { key: newKey });
    const body = await expectJson<{ authorized_users?: unknown }>(customer, 200);
    expect(body.authorized_users).toEqual([]);
  });

  it("never lengthens an expiry the old key already had", async () => {
    const { f, team } = await teamWithData();
    await team.admin.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, { expires: "1h" });
    const first = (await operatorKeys(f.partnerId)).find((k) => k.key_id === f.keyId)?.expires_at;
    const again = await team.admin.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, {
      expires: "7d",
    });
    expect(again.status).toBe(201);
    const second = (await operatorKeys(f.partnerId)).find((k) => k.key_id === f.keyId)?.expires_at;
    expect(second).toBe(first);
  });

  it("refuses a revoked or expired key, an unknown key and an unknown grace", async () => {
    const { f, team } = await teamWithData();
    expect(
      (await team.admin.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, { expires: "2d" })).status,
    ).toBe(400);
    expect(
      (await team.admin.post("/dashboard/sandbox/keys/key_nope/roll", { expires: "1h" })).status,
    ).toBe(404);
    // A sandbox key is not found under production.
    expect(
      (await team.admin.post(`/dashboard/production/keys/${f.keyId}/roll`, { expires: "1h" }))
        .status,
    ).toBe(404);
    await team.admin.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, { expires: "now" });
    const before = (await operatorKeys(f.partnerId)).length;
    const res = await team.admin.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, { expires: "1h" });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("only a live key can be rolled");
    expect((await operatorKeys(f.partnerId)).length).toBe(before);
  });
});

describe("revoking a key", () => {
  it("lists the keys minted from it before asking, then revokes them all by default", async () => {
    const { f, team, parent, child, grandchild } = await family();
    const page = await (
      await team.admin.get(`/dashboard/sandbox/keys/${parent.keyId}/revoke`)
    ).text();
    expect(page).toContain("2 keys were");
    expect(page).toContain(child.key_id);
    expect(page).toContain(grandchild.key_id);
    expect(page).toMatch(/name="cascade" value="1" checked/);

    const res = await team.admin.post(`/dashboard/sandbox/keys/${parent.keyId}/revoke`, {
      cascade: "1",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/sandbox/keys?revoked=3");
    for (const key of [parent.apiKey, child.api_key, grandchild.api_key]) {
      expect((await api(statementsPath(f), { key })).status).toBe(401);
    }
    expect((await api(statementsPath(f), { key: f.key })).status).toBe(200);
    const notice = await (await team.admin.get(res.headers.get("location") ?? "")).text();
    expect(notice).toContain("Revoked 3 keys.");
  });

  it("revokes only the key itself when the box is unticked", async () => {
    const { f, team, parent, child } = await family();
    await team.admin.post(`/dashboard/sandbox/keys/${parent.keyId}/revoke`, {});
    expect((await api(statementsPath(f), { key: parent.apiKey })).status).toBe(401);
    expect((await api(statementsPath(f), { key: child.api_key })).status).toBe(200);
    // Revoking it again with the box ticked reaches what is left below it.
    const again = await team.admin.post(`/dashboard/sandbox/keys/${parent.keyId}/revoke`, {
      cascade: "1",
    });
    expect(again.headers.get("location")).toBe("/dashboard/sandbox/keys?revoked=2");
  });

  it("through the operator API, cascades by default and not with cascade=false", async () => {
    const { f, parent, child, grandchild } = await family();
    expect((await operator("DELETE", `/keys/${child.key_id}?cascade=false`)).status).toBe(204);
    expect((await api(statementsPath(f), { key: grandchild.api_key })).status).toBe(200);
    expect((await operator("DELETE", `/keys/${parent.keyId}`)).status).toBe(204);
    expect((await api(statementsPath(f), { key: grandchild.api_key })).status).toBe(401);
    expect((await operator("DELETE", `/keys/${parent.keyId}?cascade=maybe`)).status).toBe(400);
    expect((await operator("DELETE", `/keys/${parent.keyId}`)).status).toBe(204);
  });

  it("keeps a rolled key's replacement under the same parent", async () => {
    const { f, team, parent, child } = await family();
    const rolled = await team.admin.post(`/dashboard/sandbox/keys/${child.key_id}/roll`, {
      expires: "1h",
    });
    const replacement = /id="new-key"[^>]*value="([^"]+)"/.exec(await rolled.text())?.[1] ?? "";
    await team.admin.post(`/dashboard/sandbox/keys/${parent.keyId}/revoke`, { cascade: "1" });
    expect((await api(statementsPath(f), { key: replacement })).status).toBe(401);
  });
});

describe("the key list", () => {
  it("records the day each key was last used", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.parse("2031-03-04T10:00:00Z");
    vi.setSystemTime(start);
    const { f, team } = await teamWithData();
    const lastUsed = async () =>
      (await operatorKeys(f.partnerId)).find((k) => k.key_id === f.keyId)?.last_used_on;
    expect(await lastUsed()).toBeNull();
    expect((await api(statementsPath(f), { key: f.key })).status).toBe(200);
    for (let i = 0; i < 50 && (await lastUsed()) !== "2031-03-04"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await lastUsed()).toBe("2031-03-04");
    vi.setSystemTime(start + 24 * HOUR);
    await api(statementsPath(f), { key: f.key });
    for (let i = 0; i < 50 && (await lastUsed()) !== "2031-03-05"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await lastUsed()).toBe("2031-03-05");
    // A day later the first session has ended: sign in again to look.
    const admin = await signIn(team.admin.email);
    const page = await (await admin.get("/dashboard/sandbox/keys")).text();
    expect(page).toContain("<td>2031-03-05</td>");
  });

  it("pages through many keys, newest first", async () => {
    const f = await seedAccount();
    const team = await seedTeam(f.partnerId);
    for (let i = 0; i < 51; i++) await createKey(f.partnerId, "sandbox", []);
    const first = await (await team.admin.get("/dashboard/sandbox/keys")).text();
    expect((first.match(/<tr id="key_/g) ?? []).length).toBe(50);
    const older = /href="(\/dashboard\/sandbox\/keys\?after=key_\w+)"/.exec(first)?.[1] ?? "";
    const second = await (await team.admin.get(older)).text();
    expect((second.match(/<tr id="key_/g) ?? []).length).toBe(2);
    expect(second).toContain(`id="${f.keyId}"`);
    expect((await team.admin.get("/dashboard/sandbox/keys?after=key_nope")).status).toBe(404);
  });

  it("lists another partner's data nowhere", async () => {
    const { team } = await teamWithData();
    const other = await seedAccount();
    const page = await (await team.admin.get("/dashboard/sandbox/keys")).text();
    expect(page).not.toContain(other.keyId);
  });
});

describe("key families", () => {
  const expiryOf = async (partnerId: string, keyId: string) =>
    (await operatorKeys(partnerId)).find((k) => k.key_id === keyId)?.expires_at;

  it("gives a key minted by an expiring key its creator's expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { f, team } = await teamWithData();
    // The leaked key is rolled: it keeps working for its grace period, and mints meanwhile.
    await team.admin.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, { expires: "24h" });
    const child = await mint(f.key);
    const expiry = await expiryOf(f.partnerId, f.keyId);
    expect(expiry).toBe(new Date(start + 24 * HOUR).toISOString());
    expect(await expiryOf(f.partnerId, child.key_id)).toBe(expiry);
    vi.setSystemTime(start + 24 * HOUR + 1000);
    expect((await api(statementsPath(f), { key: child.api_key })).status).toBe(401);
  });

  it("expires the keys minted from a rolled key with it, and the roll page says so", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { f, team, parent, child, grandchild } = await family();
    const page = await (
      await team.admin.get(`/dashboard/sandbox/keys/${parent.keyId}/roll`)
    ).text();
    expect(page).toContain("2 keys were minted from it");
    expect(page).toContain(child.key_id);
    expect(page).toContain(grandchild.key_id);
    const rolled = await team.admin.post(`/dashboard/sandbox/keys/${parent.keyId}/roll`, {
      expires: "1h",
    });
    const html = await rolled.text();
    expect(rolled.status, html).toBe(201);
    expect(html).toContain("2 keys minted from it expire with it");
    const replacement = /id="new-key"[^>]*value="([^"]+)"/.exec(html)?.[1] ?? "";
    const expiry = new Date(start + HOUR).toISOString();
    for (const key of [parent.keyId, child.key_id, grandchild.key_id]) {
      expect(await expiryOf(f.partnerId, key)).toBe(expiry);
    }
    vi.setSystemTime(start + HOUR + 1000);
    for (const key of [parent.apiKey, child.api_key, grandchild.api_key]) {
      expect((await api(statementsPath(f), { key })).status).toBe(401);
    }
    expect((await api(statementsPath(f), { key: replacement })).status).toBe(200);
    const audit = await expectJson<{
      data: { action: string; details: Record<string, unknown> }[];
    }>(await operator("GET", `/partners/${f.partnerId}/audit?limit=5`), 200);
    const roll = audit.data.find((e) => e.action === "key.rolled");
    expect([...((roll?.details.expired_with_it as string[]) ?? [])].sort()).toEqual(
      [child.key_id, grandchild.key_id].sort(),
    );
  });

  it("never lets a rolled key's replacement outlive the key that minted it", async () => {
    const { f, team, parent, child } = await family();
    await team.admin.post(`/dashboard/sandbox/keys/${parent.keyId}/roll`, { expires: "24h" });
    const parentExpiry = await expiryOf(f.partnerId, parent.keyId);
    const rolled = await team.admin.post(`/dashboard/sandbox/keys/${child.key_id}/roll`, {
      expires: "7d",
    });
    expect(rolled.status).toBe(201);
    const keys = await operatorKeys(f.partnerId);
    const replacement = keys.find(
      (k) => k.parent_key_id === parent.keyId && k.key_id !== child.key_id,
    );
    expect(replacement?.expires_at).toBe(parentExpiry);
  });
});

describe("the scopes the operator granted", () => {
  it("come from live operator keys only: a revoked one grants nothing more", async () => {
    const { f, team } = await teamWithData();
    const extra = await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ", "PCI_DETAILS_READ"]);
    const offered = async () => {
      const page = await (await team.admin.get("/dashboard/sandbox/keys")).text();
      return [...page.matchAll(/name="scopes" value="(\w+)"/g)].map((m) => m[1]);
    };
    expect(await offered()).toEqual(["ACCOUNT_READ", "PCI_DETAILS_READ", "AUTHORIZED_USER_READ"]);
    expect((await operator("DELETE", `/keys/${extra.keyId}`)).status).toBe(204);
    expect(await offered()).toEqual(["ACCOUNT_READ", "AUTHORIZED_USER_READ"]);
    const res = await team.admin.post("/dashboard/sandbox/keys", { scopes: ["PCI_DETAILS_READ"] });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("PCI_DETAILS_READ");
  });

  it("stay granted when the operator's key is rolled into a new one", async () => {
    const { f, team } = await teamWithData();
    const rolled = await team.admin.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, {
      expires: "now",
    });
    expect(rolled.status).toBe(201);
    const page = await (await team.admin.get("/dashboard/sandbox/keys")).text();
    const offered = [...page.matchAll(/name="scopes" value="(\w+)"/g)].map((m) => m[1]);
    expect(offered).toEqual(["ACCOUNT_READ", "AUTHORIZED_USER_READ"]);
  });
});

describe("the bound on live keys", () => {
  it(`refuses a key past ${MAX_LIVE_KEYS} live ones with a page saying why; rolls one for one`, async () => {
    const { f, team } = await teamWithData();
    await storeKeys(f.partnerId, "sandbox", MAX_LIVE_KEYS - 1);
    const res = await team.admin.post("/dashboard/sandbox/keys", { scopes: ["ACCOUNT_READ"] });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(`at most ${MAX_LIVE_KEYS} live API keys`);
    // A roll keeps the old key live for its grace period: one more live key, refused; rolling
    // with `now` replaces it one for one.
    const graceful = await team.admin.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, {
      expires: "1h",
    });
    expect(graceful.status).toBe(400);
    expect(await graceful.text()).toContain("expire now");
    const now = await team.admin.post(`/dashboard/sandbox/keys/${f.keyId}/roll`, {
      expires: "now",
    });
    expect(now.status).toBe(201);
  });
});
