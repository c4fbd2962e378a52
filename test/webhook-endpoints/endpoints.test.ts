// /v2/webhook_endpoints: https URLs of public hosts only, pinned versions, secrets shown only when
// issued, one product of one environment per endpoint, and the usual 400/404 answers.
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { api, expectJson, operator } from "../support/api";
import { NEWEST_RELEASED } from "../support/bundle-versions";
import { type Fixture, seedAccount } from "../support/fixtures";
import { onEveryShard, partnerDatabase } from "../support/shards";

interface Endpoint {
  webhook_endpoint_id: string;
  url: string;
  api_version: string;
  status: string;
  created_at: string;
  secret?: string;
  description?: string;
}

function create(f: Fixture, body: unknown, version?: string) {
  return api("/v2/webhook_endpoints", {
    key: f.key,
    method: "POST",
    body,
    version: version ?? "latest",
  });
}

describe("webhook endpoints", () => {
  it.each(
    [
      ["http://hooks.example.com/x", "url must use https"],
      ["ftp://hooks.example.com/x", "url must be an absolute https URL"],
      ["/relative", "url must be an absolute https URL"],
      ["https://user:secret@hooks.example.com/x", "url must not carry credentials"],
      ["https://hooks.example.com/x#frag", "url must not have a fragment"],
      ["https://localhost/x", "public host"],
      ["https://api.localhost/x", "public host"],
      ["https://intranet/x", "public host"],
      ["https://printer.local/x", "public host"],
      ["https://metadata.google.internal/x", "public host"],
      ["https://127.0.0.1/x", "public host"],
      ["https://2130706433/x", "public host"], // 127.0.0.1 as one decimal number
      ["https://0x7f.1/x", "public host"], // 127.0.0.1 in hex and short form
      ["https://10.1.2.3/x", "public host"],
      ["https://172.20.0.1/x", "public host"],
      ["https://192.168.1.1/x", "public host"],
      ["https://169.254.169.254/latest/meta-data", "public host"],
      ["https://100.64.0.1/x", "public host"], // carrier-grade NAT
      ["https://0.0.0.0/x", "public host"],
      ["https://[::1]/x", "public host"],
      ["https://[::]/x", "public host"],
      ["https://[fe80::1]/x", "public host"],
      ["https://[fd00::1]/x", "public host"], // unique local
      ["https://[::ffff:10.0.0.1]/x", "public host"], // IPv4-mapped private
      ["https://[::ffff:169.254.169.254]/x", "public host"],
      ["https://[64:ff9b::a00:1]/x", "public host"], // NAT64 of 10.0.0.1
      [`https://hooks.example.com/${"x".repeat(2048)}`, "2048 characters"],
    ].map(([url = "", problem = ""]) => [
      url.length > 100 ? "a URL over 2048 characters" : url,
      url,
      problem,
    ]),
  )("refuses %s", async (_, url, problem) => {
    const f = await seedAccount();
    const body = await expectJson<{ error: { type: string; message: string; param: string } }>(
      await create(f, { url }),
      400,
    );
    expect(body.error.type).toBe("INVALID_REQUEST_ERROR");
    expect(body.error.param).toBe("url");
    expect(body.error.message).toContain(problem);
  });

  it.each([
    "https://hooks.example.com/webhooks?source=statements",
    "https://hooks.example.com:8443/x",
    "https://8.8.8.8/x",
    "https://[2606:4700:4700::1111]/x",
  ])("accepts %s", async (url) => {
    const f = await seedAccount();
    const endpoint = await expectJson<Endpoint>(await create(f, { url }), 201);
    expect(endpoint.url).toBe(url);
  });

  it("pins the request's version, or the one asked for, and shows the secret only when issued", async () => {
    const f = await seedAccount({ savedVersion: NEWEST_RELEASED });
    const byDefault = await expectJson<Endpoint>(
      await api("/v2/webhook_endpoints", {
        key: f.key,
        method: "POST",
        body: { url: "https://hooks.example.com/a", description: "ledger sync" },
      }),
      201,
    );
    expect(byDefault).toMatchObject({
      url: "https://hooks.example.com/a",
      description: "ledger sync",
      api_version: NEWEST_RELEASED,
      status: "enabled",
    });
    expect(byDefault.secret).toMatch(/^whsec_/);
    for (const version of bundle.supported("sandbox")) {
      const endpoint = await expectJson<Endpoint>(
        await create(f, { url: "https://hooks.example.com/b", api_version: version }),
        201,
      );
      expect(endpoint.api_version).toBe(version);
      await api(`/v2/webhook_endpoints/${endpoint.webhook_endpoint_id}`, {
        key: f.key,
        method: "DELETE",
      });
    }
    const read = await expectJson<Endpoint>(
      await api(`/v2/webhook_endpoints/${byDefault.webhook_endpoint_id}`, { key: f.key }),
      200,
    );
    expect(read).not.toHaveProperty("secret");
    const list = await expectJson<{ data: Endpoint[]; has_more: boolean }>(
      await api("/v2/webhook_endpoints", { key: f.key }),
      200,
    );
    expect(list.data.map((e) => e.webhook_endpoint_id)).toEqual([byDefault.webhook_endpoint_id]);
    for (const e of list.data) expect(e).not.toHaveProperty("secret");
  });

  it("refuses an unknown version, unknown fields, and a seventeenth endpoint", async () => {
    const f = await seedAccount();
    const badVersion = await expectJson<{ error: { param: string } }>(
      await create(f, { url: "https://hooks.example.com/a", api_version: "2024-01-01" }),
      400,
    );
    expect(badVersion.error.param).toBe("api_version");
    const unknown = await create(f, { url: "https://hooks.example.com/a", events: ["*"] });
    expect(unknown.status).toBe(400);
    const missing = await create(f, {});
    expect(missing.status).toBe(400);
    for (let i = 0; i < 16; i++) {
      expect((await create(f, { url: `https://hooks.example.com/${i}` })).status).toBe(201);
    }
    const over = await expectJson<{ error: { message: string } }>(
      await create(f, { url: "https://hooks.example.com/17" }),
      400,
    );
    expect(over.error.message).toContain("at most 16");
    // Pages of ids in creation order.
    const first = await expectJson<{ data: Endpoint[]; has_more: boolean }>(
      await api("/v2/webhook_endpoints?limit=10", { key: f.key }),
      200,
    );
    expect(first.has_more).toBe(true);
    const last = first.data.at(-1)?.webhook_endpoint_id;
    const rest = await expectJson<{ data: Endpoint[]; has_more: boolean }>(
      await api(`/v2/webhook_endpoints?limit=10&starting_after=${last}`, { key: f.key }),
      200,
    );
    expect(rest.data).toHaveLength(6);
    expect(rest.has_more).toBe(false);
    const urls = [...first.data, ...rest.data].map((e) => e.url);
    expect(urls).toEqual(Array.from({ length: 16 }, (_, i) => `https://hooks.example.com/${i}`));
  });

  it("holds the limit of 16 when creations race each other", async () => {
    const f = await seedAccount();
    for (let i = 0; i < 13; i++) {
      expect((await create(f, { url: `https://hooks.example.com/${i}` })).status).toBe(201);
    }
    const raced = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create(f, { url: `https://hooks.example.com/r${i}` })),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([201, 201, 201, 400, 400, 400, 400, 400]);
    const db = await partnerDatabase(f.partnerId);
    const stored = await db
      .prepare("SELECT count(*) AS n FROM webhook_endpoints WHERE partner_id = ?")
      .bind(f.partnerId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(16);
    const audited = await db
      .prepare("SELECT count(*) AS n FROM audit_events WHERE partner_id = ? AND action = ?")
      .bind(f.partnerId, "webhook_endpoint.created")
      .first<{ n: number }>();
    expect(audited?.n).toBe(16);
  });

  it("keeps endpoints to their product: another partner's is not found", async () => {
    const f = await seedAccount();
    const other = await seedAccount();
    const endpoint = await expectJson<Endpoint>(
      await create(f, { url: "https://hooks.example.com/mine" }),
      201,
    );
    const path = `/v2/webhook_endpoints/${endpoint.webhook_endpoint_id}`;
    for (const [method, suffix] of [
      ["GET", ""],
      ["DELETE", ""],
      ["POST", "/roll_secret"],
      ["POST", "/enable"],
    ] as const) {
      const res = await api(`${path}${suffix}`, { key: other.key, method, version: "latest" });
      expect(await expectJson(res, 404)).toEqual({
        error: {
          type: "NOT_FOUND_ERROR",
          message: expect.any(String),
          param: "webhook_endpoint_id",
        },
      });
    }
    expect((await api(path, { key: f.key })).status).toBe(200);
    expect((await api(path, { key: f.key, method: "DELETE" })).status).toBe(204);
    expect((await api(path, { key: f.key })).status).toBe(404);
  });

  it("bounds how long a rolled secret keeps signing", async () => {
    const f = await seedAccount();
    const endpoint = await expectJson<Endpoint>(
      await create(f, { url: "https://hooks.example.com/roll" }),
      201,
    );
    const path = `/v2/webhook_endpoints/${endpoint.webhook_endpoint_id}/roll_secret`;
    const tooLong = await api(path, {
      key: f.key,
      method: "POST",
      body: { previous_secret_expires_in: 8 * 86_400 },
    });
    expect(tooLong.status).toBe(400);
    const rolled = await expectJson<Endpoint & { previous_secret_expires_at: string }>(
      await api(path, { key: f.key, method: "POST" }),
      200,
    );
    const overlap = Date.parse(rolled.previous_secret_expires_at) - Date.now();
    expect(overlap).toBeGreaterThan(86_400_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(86_400_000);
    expect(rolled.secret).toMatch(/^whsec_/);
    expect(rolled.secret).not.toBe(endpoint.secret);
  });

  it("records each change in the partner's audit log, by the key that made it", async () => {
    const f = await seedAccount();
    const other = await seedAccount();
    const endpoint = await expectJson<Endpoint>(
      await create(f, { url: "https://hooks.example.com/audited", description: "ledger" }),
      201,
    );
    const id = endpoint.webhook_endpoint_id;
    const path = `/v2/webhook_endpoints/${id}`;
    const roll = { key: f.key, method: "POST", body: { previous_secret_expires_in: 60 } };
    expect((await api(`${path}/roll_secret`, roll)).status).toBe(200);
    const update = { key: f.key, method: "POST", body: { description: "ledger v2" } };
    expect((await api(path, update)).status).toBe(200);
    // Enabling an enabled endpoint changes nothing, so it records nothing.
    expect((await api(`${path}/enable`, { key: f.key, method: "POST" })).status).toBe(200);
    // Disabled as the delivery consumer disables it after days of failures
    // (test/webhooks/delivery.test.ts), then enabled again.
    await onEveryShard(
      "UPDATE webhook_endpoints SET status = 'disabled', disabled_at = ?, disabled_reason = ? WHERE endpoint_id = ?",
      new Date().toISOString(),
      "Every delivery attempt failed for too long.",
      id,
    );
    expect((await api(`${path}/enable`, { key: f.key, method: "POST" })).status).toBe(200);
    // Another partner's key reaches nothing, so nothing is recorded for it.
    for (const [method, suffix, body] of [
      ["DELETE", "", undefined],
      ["POST", "", { description: "theirs" }],
      ["POST", "/roll_secret", undefined],
      ["POST", "/enable", undefined],
      ["POST", "/recover", { since: new Date(Date.now() - 3600_000).toISOString() }],
    ] as const) {
      const res = await api(`${path}${suffix}`, { key: other.key, method, body });
      expect(res.status, `${method} ${suffix}`).toBe(404);
    }
    expect((await api(path, { key: f.key, method: "DELETE" })).status).toBe(204);

    type Entry = { action: string; actor: { type: string; id: string }; details: object };
    const logOf = async (partnerId: string) =>
      (
        await expectJson<{ data: (Entry & { target: string; environment: string })[] }>(
          await operator("GET", `/partners/${partnerId}/audit?limit=100`),
          200,
        )
      ).data.filter((e) => e.action.startsWith("webhook_endpoint."));
    const log = await logOf(f.partnerId);
    expect(log.map((e) => e.action)).toEqual([
      "webhook_endpoint.deleted",
      "webhook_endpoint.enabled",
      "webhook_endpoint.updated",
      "webhook_endpoint.secret_rolled",
      "webhook_endpoint.created",
    ]);
    expect(log[2]?.details).toEqual({ description: "ledger v2" });
    for (const entry of log) {
      expect(entry).toMatchObject({
        actor: { type: "key", id: f.keyId },
        environment: "sandbox",
        target: id,
      });
    }
    expect(log.at(-1)?.details).toEqual({
      url: "https://hooks.example.com/audited",
      merchant_key: f.merchantKey,
      api_version: "latest",
      description: "ledger",
      enabled_events: ["*"],
    });
    expect(log[0]?.details).toEqual({
      url: "https://hooks.example.com/audited",
      merchant_key: f.merchantKey,
    });
    expect(log[1]?.details).toEqual({
      disabled_at: expect.any(String),
      disabled_reason: "Every delivery attempt failed for too long.",
    });
    expect(await logOf(other.partnerId)).toEqual([]);
  });
});
