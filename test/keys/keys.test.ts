import { describe, expect, it } from "vitest";
import { MAX_LIVE_KEYS } from "../../src/domain/key-record";
import { SCOPES } from "../../src/domain/scopes";
import { api, expectJson, operator } from "../support/api";
import { fetchWithEnv } from "../support/app-env";
import { ALL_VERSIONS, OLDEST, SANDBOX_ONLY, versionsWith } from "../support/bundle-versions";
import { holdingBatch } from "../support/faulty-storage";
import {
  createKey,
  importData,
  seedAccount,
  statementsPath,
  storeKeys,
  uniqueId,
} from "../support/fixtures";
import { partnerDatabase, partnerShardOverride } from "../support/shards";

interface CreatedKey {
  key_id: string;
  api_key: string;
  environment: string;
  scopes: string[];
  created_at: string;
  name?: string;
}

const createVia = (key: string, body?: unknown, options: { version?: string } = {}) =>
  api("/v2/keys", { key, method: "POST", ...(body === undefined ? {} : { body }), ...options });

describe("POST /v2/keys", () => {
  it("refuses a body over 1 MiB with a 400 before reading it all", async () => {
    const f = await seedAccount();
    const body = JSON.stringify({ name: "x".repeat(1024 * 1024) });
    const res = await api("/v2/keys", { key: f.key, method: "POST", body });
    const error = await expectJson<{ details: string[] }>(res, 400);
    expect(error.details).toEqual(["The request body is too large."]);
  });

  it("creates a key with exactly the creating key's scopes, shown once", async () => {
    const scopes = ["ACCOUNT_READ", "AUTHORIZED_USER_READ", "ORDER_WRITE"];
    const f = await seedAccount({ scopes });
    const before = Date.now();
    const res = await createVia(f.key);
    const created = await expectJson<CreatedKey>(res, 201);
    expect(res.headers.get("x-service-version")).toBe(OLDEST);
    expect(Object.keys(created).sort()).toEqual([
      "api_key",
      "created_at",
      "environment",
      "key_id",
      "scopes",
    ]);
    expect(created.api_key).toMatch(/^sk_sandbox_[0-9A-Za-z]{38,}$/);
    expect(created.key_id).toMatch(/^key_/);
    expect(created.environment).toBe("sandbox");
    expect(created.scopes).toEqual(scopes);
    expect(Date.parse(created.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(created.api_key).not.toBe(f.key);
  });

  it("makes a key usable at once, for the same partner's data", async () => {
    const f = await seedAccount({ statements: 2 });
    const created = await expectJson<CreatedKey>(await createVia(f.key), 201);
    const res = await api(statementsPath(f), { key: created.api_key });
    const body = await expectJson<{ data: unknown[] }>(res, 200);
    expect(body.data).toHaveLength(2);
    const customer = await api(`/v2/customers/${f.customerId}`, { key: created.api_key });
    expect(await expectJson(customer, 200)).toEqual({ customer_id: f.customerId });
  });

  it("creates keys without scopes from a key without scopes", async () => {
    const f = await seedAccount({ scopes: [] });
    const created = await expectJson<CreatedKey>(await createVia(f.key), 201);
    expect(created.scopes).toEqual([]);
    const res = await api(statementsPath(f), { key: created.api_key });
    expect(await expectJson(res, 403)).toEqual({
      error: { type: "FORBIDDEN_ERROR", message: "forbidden" },
    });
  });

  it("passes every scope on, and a child of a child still has them all", async () => {
    const f = await seedAccount({ scopes: [...SCOPES] });
    const child = await expectJson<CreatedKey>(await createVia(f.key), 201);
    const grandchild = await expectJson<CreatedKey>(await createVia(child.api_key), 201);
    expect(child.scopes).toEqual([...SCOPES]);
    expect(grandchild.scopes).toEqual([...SCOPES]);
  });

  it("keeps a name when one is given", async () => {
    const f = await seedAccount();
    const created = await expectJson<CreatedKey>(
      await createVia(f.key, { name: "Billing export" }),
      201,
    );
    expect(created.name).toBe("Billing export");
    expect(created.scopes).toEqual(["ACCOUNT_READ"]);
    const empty = await expectJson<CreatedKey>(await createVia(f.key, {}), 201);
    expect(empty.name).toBeUndefined();
  });

  it.each([
    ["scopes naming the same scopes", { scopes: ["ACCOUNT_READ"] }],
    ["scopes naming more scopes", { scopes: [...SCOPES] }],
    ["an empty scopes list", { scopes: [] }],
    ["scopes set to null", { scopes: null }],
    ["scopes next to a name", { name: "x", scopes: ["ACCOUNT_READ"] }],
  ])("refuses a body with %s", async (_, body) => {
    const f = await seedAccount();
    const res = await createVia(f.key, body);
    const error = await expectJson(res, 400);
    expect(error).toMatchObject({
      path: "/v2/keys",
      details: [expect.stringContaining("scopes")],
      error: "Bad Request",
      status: 400,
    });
  });

  it.each([
    ["an empty name", { name: "" }],
    ["a 256-character name", { name: "n".repeat(256) }],
    ["a numeric name", { name: 7 }],
    ["an unknown field", { label: "x" }],
    ["a JSON array", "[]"],
    ["a JSON null", "null"],
    ["a JSON number", "1"],
    ["malformed JSON", "{"],
  ])("refuses %s in the validation shape", async (_, body) => {
    const f = await seedAccount();
    const res = await createVia(f.key, body);
    expect(await expectJson(res, 400)).toMatchObject({ path: "/v2/keys", error: "Bad Request" });
  });

  it.each(versionsWith("useApiErrorEnvelopeForAllErrors"))(
    "refuses scopes with the ApiError envelope in %s",
    async (version) => {
      const f = await seedAccount();
      const res = await createVia(f.key, { scopes: [] }, { version });
      expect(res.headers.get("x-service-version")).toBe(version);
      expect(await expectJson(res, 400)).toEqual({
        error: {
          type: "INVALID_REQUEST_ERROR",
          message: expect.stringContaining("scopes"),
          param: "scopes",
          details: [expect.stringContaining("scopes")],
        },
      });
    },
  );

  it.each(ALL_VERSIONS)("answers 201 in %s", async (version) => {
    const f = await seedAccount();
    const res = await createVia(f.key, undefined, { version });
    expect(res.headers.get("x-service-version")).toBe(version);
    expect(await expectJson<CreatedKey>(res, 201)).toMatchObject({ scopes: ["ACCOUNT_READ"] });
  });

  it("needs a valid key", async () => {
    const res = await api("/v2/keys", { method: "POST" });
    expect(res.status).toBe(401);
    const f = await seedAccount();
    expect((await operator("DELETE", `/keys/${f.keyId}`)).status).toBe(204);
    expect((await createVia(f.key)).status).toBe(401);
  });

  it("gives production keys from production keys, blind to sandbox data", async () => {
    const f = await seedAccount({ statements: 1 });
    const liveCustomer = uniqueId("cus");
    await importData({
      customers: [
        {
          customer_id: liveCustomer,
          partner_id: f.partnerId,
          environment: "production",
          merchant_key: f.merchantKey,
        },
      ],
    });
    const parent = await createKey(f.partnerId, "production", ["ACCOUNT_READ"]);
    const res = await createVia(parent.apiKey);
    const created = await expectJson<CreatedKey>(res, 201);
    expect(created.environment).toBe("production");
    expect(created.api_key).toMatch(/^sk_live_/);

    const live = { key: created.api_key };
    const sandboxCustomer = await api(`/v2/customers/${f.customerId}`, live);
    expect(await expectJson(sandboxCustomer, 404)).toMatchObject({
      type: "CUSTOMER_NOT_FOUND_ERROR",
    });
    expect((await api(`/v2/customers/${f.customerId}/accounts`, live)).status).toBe(404);
    expect((await api(statementsPath(f), live)).status).toBe(404);
    const listed = await expectJson(await api("/v2/customers", live), 200);
    expect(listed).toEqual({ data: [{ customer_id: liveCustomer }], has_more: false });
    // An unreleased version is for sandbox keys only.
    const unreleased = await api("/v2/customers", { ...live, version: SANDBOX_ONLY });
    expect(await expectJson(unreleased, 400)).toMatchObject({
      error: { type: "BAD_REQUEST_ERROR" },
    });
  });
});

describe("bounds on keys", () => {
  it(`refuses a key past ${MAX_LIVE_KEYS} live keys per environment, counting live ones only`, async () => {
    const f = await seedAccount();
    await storeKeys(f.partnerId, "sandbox", 5, "revoked");
    await storeKeys(f.partnerId, "sandbox", 5, "expired");
    const stored = await storeKeys(f.partnerId, "sandbox", MAX_LIVE_KEYS - 2);
    expect((await createVia(f.key)).status).toBe(201);
    const refused = await createVia(f.key, { name: "one too many" });
    const error = await expectJson<{ details: string[] }>(refused, 400);
    expect(error.details).toEqual([
      `An environment has at most ${MAX_LIVE_KEYS} live API keys; revoke keys you no longer use.`,
    ]);
    // Production keys are counted apart.
    const live = await createKey(f.partnerId, "production", []);
    expect((await createVia(live.apiKey)).status).toBe(201);
    // Revoking a key frees its place.
    expect((await operator("DELETE", `/keys/${stored[0]}`)).status).toBe(204);
    expect((await createVia(f.key)).status).toBe(201);
    expect((await createVia(f.key)).status).toBe(400);
  });

  it("applies the same bound to keys the operator creates", async () => {
    const f = await seedAccount();
    await storeKeys(f.partnerId, "sandbox", MAX_LIVE_KEYS - 1);
    const res = await operator("POST", `/partners/${f.partnerId}/keys`, {
      environment: "sandbox",
      scopes: [],
    });
    expect(await expectJson(res, 400)).toMatchObject({
      error: { type: "INVALID_REQUEST_ERROR", message: expect.stringContaining("at most") },
    });
  });

  it("mints no live key when its creator is revoked while the request runs", async () => {
    const f = await seedAccount();
    const { probe, held, release } = holdingBatch(/^\s*insert\s+into\s+"?api_keys/i);
    const minting = fetchWithEnv(
      "/v2/keys",
      { method: "POST", headers: { authorization: `Bearer ${f.key}` } },
      await partnerShardOverride(f.partnerId, (db) => probe.db(db)),
    );
    await held;
    expect((await operator("DELETE", `/keys/${f.keyId}`)).status).toBe(204);
    release();
    expect(await expectJson(await minting, 401)).toMatchObject({
      error: { type: "UNAUTHORIZED_ERROR" },
    });
    const children = await (await partnerDatabase(f.partnerId))
      .prepare("SELECT count(*) AS n FROM api_keys WHERE parent_key_id = ? AND revoked_at IS NULL")
      .bind(f.keyId)
      .first<{ n: number }>();
    expect(children?.n).toBe(0);
  });
});
