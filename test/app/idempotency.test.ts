// Idempotency-Key on partner POSTs: a retry replays the first response without a second effect;
// another request under the same key is refused (422), a running one answers 409; keys belong to
// the API key that sent them (in its partner and environment), last 24 hours, and survive a
// crashed run through their lock expiry.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { idempotencyKeyHash, openResponse, requestFingerprint } from "../../src/domain/idempotency";
import { SCOPES } from "../../src/domain/scopes";
import { createSecretSealer } from "../../src/webhook-endpoints/secret-sealing";
import { api, expectJson } from "../support/api";
import { fetchWithEnv } from "../support/app-env";
import { NEWEST_RELEASED, OLDEST } from "../support/bundle-versions";
import { holdingBatch } from "../support/faulty-storage";
import { createKey, type Fixture, seedAccount } from "../support/fixtures";
import { partnerDatabase, partnerShardOverride } from "../support/shards";
import { request } from "../support/worker";

interface CreatedKey {
  key_id: string;
  api_key: string;
  scopes: string[];
}

function post(
  f: Fixture | { key: string },
  path: string,
  key: string,
  body?: unknown,
  version?: string,
) {
  return api(path, {
    key: f.key,
    method: "POST",
    headers: { "Idempotency-Key": key },
    ...(body === undefined ? {} : { body }),
    ...(version ? { version } : {}),
  });
}

async function keyCount(partnerId: string): Promise<number> {
  const row = await (await partnerDatabase(partnerId))
    .prepare("SELECT count(*) AS n FROM api_keys WHERE partner_id = ?")
    .bind(partnerId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("Idempotency-Key", () => {
  it("replays POST /v2/keys without minting a second key", async () => {
    const f = await seedAccount();
    const before = await keyCount(f.partnerId);
    const first = await post(f, "/v2/keys", "key-rotation-1", { name: "rotation" });
    const created = await expectJson<CreatedKey>(first, 201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await post(f, "/v2/keys", "key-rotation-1", { name: "rotation" });
    expect(await expectJson<CreatedKey>(again, 201)).toEqual(created);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("x-service-version")).toBe(OLDEST);
    expect(await keyCount(f.partnerId)).toBe(before + 1);
    // The stored response is sealed: the new key's plaintext is nowhere in the table.
    const db = await partnerDatabase(f.partnerId);
    const { results } = await db.prepare("SELECT response FROM idempotency_keys").all<{
      response: string | null;
    }>();
    expect(results.some((r) => r.response?.includes(created.api_key))).toBe(false);
    expect(JSON.stringify(results)).not.toContain("key-rotation-1");
    // It opens with the Idempotency-Key, the key that sent it and the service's secret, never with
    // the Idempotency-Key alone nor for another key of the partner.
    const owner = { partnerId: f.partnerId, environment: "sandbox", caller: `key:${f.keyId}` };
    const stored = await db
      .prepare("SELECT response FROM idempotency_keys WHERE key_hash = ?")
      .bind(await idempotencyKeyHash(owner, "key-rotation-1"))
      .first<{ response: string }>();
    const sealed = stored?.response ?? "";
    expect(await openResponse(owner, "key-rotation-1", [""], sealed)).toBeNull();
    const opened = await openResponse(owner, "key-rotation-1", [env.SIGNING_SECRET], sealed);
    const otherKey = { ...owner, caller: `key:${created.key_id}` };
    expect(await openResponse(otherKey, "key-rotation-1", [env.SIGNING_SECRET], sealed)).toBeNull();
    expect(opened?.status).toBe(201);
    expect(JSON.parse(opened?.body ?? "{}")).toMatchObject({ api_key: created.api_key });
  });

  it("refuses a body over 1 MiB with 400 and holds nothing under its key", async () => {
    const f = await seedAccount();
    const before = await keyCount(f.partnerId);
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024) });
    expect((await post(f, "/v2/keys", "too-big-1", big)).status).toBe(400);
    expect(await keyCount(f.partnerId)).toBe(before);
    // The key is free: a well-formed request under it runs.
    expect((await post(f, "/v2/keys", "too-big-1", { name: "after" })).status).toBe(201);
  });

  it("refuses the same key for another body, path or version with 422", async () => {
    const f = await seedAccount();
    await expectJson(await post(f, "/v2/keys", "reuse-1", { name: "a" }), 201);
    const cases = [
      post(f, "/v2/keys", "reuse-1", { name: "b" }),
      post(f, `/v2/customers/${f.customerId}/link`, "reuse-1", { partner_customer_id: "x" }),
      post(f, "/v2/keys", "reuse-1", { name: "a" }, NEWEST_RELEASED),
    ];
    for (const res of await Promise.all(cases)) {
      const body = await expectJson<{ error: { type: string; param: string } }>(res, 422);
      expect(body.error).toMatchObject({
        type: "IDEMPOTENCY_KEY_REUSED_ERROR",
        param: "Idempotency-Key",
      });
    }
  });

  it("keeps keys apart per partner and environment", async () => {
    const f = await seedAccount();
    const other = await seedAccount();
    const live = (await createKey(f.partnerId, "production", [])).apiKey;
    const mine = await expectJson<CreatedKey>(await post(f, "/v2/keys", "shared-key"), 201);
    const theirs = await expectJson<CreatedKey>(await post(other, "/v2/keys", "shared-key"), 201);
    const production = await expectJson<CreatedKey>(
      await post({ key: live }, "/v2/keys", "shared-key"),
      201,
    );
    expect(new Set([mine.key_id, theirs.key_id, production.key_id]).size).toBe(3);
  });

  it("never replays one key's response to another key of the same partner", async () => {
    // A key with every scope and a key with none, of one partner and environment.
    const rich = await seedAccount({ scopes: [...SCOPES] });
    const bare = { key: (await createKey(rich.partnerId, "sandbox", [])).apiKey };
    const idem = "create-key-2026-05-01";
    const minted = await expectJson<CreatedKey>(await post(rich, "/v2/keys", idem), 201);
    expect(minted.scopes).toEqual([...SCOPES]);
    const other = await post(bare, "/v2/keys", idem);
    expect(other.headers.get("Idempotent-Replayed")).toBeNull();
    const own = await expectJson<CreatedKey>(other, 201);
    expect(own.key_id).not.toBe(minted.key_id);
    expect(own.api_key).not.toBe(minted.api_key);
    expect(own.scopes).toEqual([]);
    // Each key still replays its own response.
    const again = await post(bare, "/v2/keys", idem);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await expectJson(again, 201)).toEqual(own);
    const richAgain = await post(rich, "/v2/keys", idem);
    expect(await expectJson(richAgain, 201)).toEqual(minted);
  });

  it("answers 409 while the first request runs, and takes over once its lock has passed", async () => {
    const f = await seedAccount();
    // A run that crashed after reserving the key: its reservation is all that is left.
    const now = Date.now();
    const keyHash = await idempotencyKeyHash(
      { partnerId: f.partnerId, environment: "sandbox", caller: `key:${f.keyId}` },
      "crashed-run",
    );
    const fingerprint = await keysFingerprint();
    await (await partnerDatabase(f.partnerId))
      .prepare(
        `INSERT INTO idempotency_keys (key_hash, fingerprint, state, locked_until, lock_token,
         created_at, expires_at) VALUES (?, ?, 'running', ?, 'crashed', ?, ?)`,
      )
      .bind(
        keyHash,
        fingerprint,
        new Date(now + 60_000).toISOString(),
        new Date(now).toISOString(),
        new Date(now + 86_400_000).toISOString(),
      )
      .run();
    const busy = await post(f, "/v2/keys", "crashed-run", { name: "n" }, "latest");
    expect(busy.headers.get("Retry-After")).toBe("1");
    expect(await expectJson(busy, 409)).toMatchObject({
      error: { type: "IDEMPOTENCY_KEY_IN_USE_ERROR", param: "Idempotency-Key" },
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now + 61_000);
    const taken = await post(f, "/v2/keys", "crashed-run", { name: "n" }, "latest");
    const created = await expectJson<CreatedKey>(taken, 201);
    const replay = await post(f, "/v2/keys", "crashed-run", { name: "n" }, "latest");
    expect(await expectJson(replay, 201)).toEqual(created);
  });

  it("replays an error answer too, and runs again after 24 hours", async () => {
    const f = await seedAccount();
    const path = "/v2/customers/cus_nobody/link";
    const first = await post(f, path, "link-1", { partner_customer_id: "p-1" });
    const error = await expectJson(first, 404);
    const again = await post(f, path, "link-1", { partner_customer_id: "p-1" });
    expect(await expectJson(again, 404)).toEqual(error);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");

    const created = await expectJson<CreatedKey>(await post(f, "/v2/keys", "daily"), 201);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 24 * 3600_000 + 1000);
    const later = await expectJson<CreatedKey>(await post(f, "/v2/keys", "daily"), 201);
    expect(later.key_id).not.toBe(created.key_id);
  });

  it("creates one webhook endpoint and rolls its secret once per key", async () => {
    const f = await seedAccount();
    const body = { url: "https://hooks.example.com/idempotent" };
    const [a, b] = [
      await post(f, "/v2/webhook_endpoints", "endpoint-1", body),
      await post(f, "/v2/webhook_endpoints", "endpoint-1", body),
    ];
    const created = await expectJson<{ webhook_endpoint_id: string; secret: string }>(a, 201);
    expect(await expectJson(b, 201)).toEqual(created);
    const list = await expectJson<{ data: unknown[] }>(
      await api("/v2/webhook_endpoints", { key: f.key }),
      200,
    );
    expect(list.data).toHaveLength(1);

    const roll = `/v2/webhook_endpoints/${created.webhook_endpoint_id}/roll_secret`;
    const rolled = await expectJson<{ secret: string }>(await post(f, roll, "roll-1"), 200);
    expect(await expectJson(await post(f, roll, "roll-1"), 200)).toEqual(rolled);
    // Rolled once: the stored secret is the rolled one, the previous one the first (both sealed).
    const row = await (await partnerDatabase(f.partnerId))
      .prepare(
        `SELECT secret, secret_key_id, previous_secret, previous_secret_key_id
         FROM webhook_endpoints WHERE endpoint_id = ?`,
      )
      .bind(created.webhook_endpoint_id)
      .first<Record<string, string>>();
    const sealer = createSecretSealer(env.SIGNING_SECRET);
    const open = (sealed = "", keyId = "") =>
      sealer.open(sealed, keyId, created.webhook_endpoint_id);
    expect(await open(row?.secret, row?.secret_key_id)).toBe(rolled.secret);
    expect(await open(row?.previous_secret, row?.previous_secret_key_id)).toBe(created.secret);
  });

  it("can be sent and its replay seen from a browser on another origin", async () => {
    const preflight = await request("/v2/keys", {
      method: "OPTIONS",
      headers: {
        origin: "https://partner.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, idempotency-key",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(
      "idempotency-key",
    );
    const f = await seedAccount();
    const headers = {
      authorization: `Bearer ${f.key}`,
      origin: "https://partner.example",
      "Idempotency-Key": "from-a-browser",
    };
    await request("/v2/keys", { method: "POST", headers });
    const replay = await request("/v2/keys", { method: "POST", headers });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.headers.get("access-control-expose-headers")?.toLowerCase()).toContain(
      "idempotent-replayed",
    );
  });

  it.each([
    ["empty", ""],
    ["too long", "k".repeat(256)],
    ["with spaces", "two words"],
  ])("refuses a key that is %s", async (_, key) => {
    const f = await seedAccount();
    const res = await post(f, "/v2/keys", key, undefined, "latest");
    expect(await expectJson(res, 400)).toMatchObject({
      error: { type: "INVALID_REQUEST_ERROR", param: "Idempotency-Key" },
    });
  });
});

/**
 * `POST /v2/keys {"name":"n"}` under `idem`, held just before the batch that mints the key until
 * `release()`: a request that is slow to finish. `held` resolves once it waits there.
 */
async function slowKeyCreation(f: Fixture, idem: string) {
  const { probe, held, release } = holdingBatch(/^\s*insert\s+into\s+"?api_keys/i);
  const shard = await partnerShardOverride(f.partnerId, (db) => probe.db(db));
  const response = fetchWithEnv(
    "/v2/keys",
    {
      method: "POST",
      headers: {
        authorization: `Bearer ${f.key}`,
        "content-type": "application/json",
        "Idempotency-Key": idem,
      },
      body: JSON.stringify({ name: "n" }),
    },
    shard,
  );
  return { held, release, response };
}

async function lockedUntil(f: Fixture, idem: string): Promise<number> {
  const owner = { partnerId: f.partnerId, environment: "sandbox", caller: `key:${f.keyId}` };
  const db = await partnerDatabase(f.partnerId);
  const row = await db
    .prepare("SELECT locked_until FROM idempotency_keys WHERE key_hash = ?")
    .bind(await idempotencyKeyHash(owner, idem))
    .first<{ locked_until: string | null }>();
  return Date.parse(row?.locked_until ?? "");
}

describe("a request slower than its lock", () => {
  it("commits nothing once a retry has taken its key over: the key is minted once", async () => {
    const f = await seedAccount();
    const before = await keyCount(f.partnerId);
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const slow = await slowKeyCreation(f, "slow-1");
    await slow.held;
    // Its lock passes (no renewal ran: only the clock moved), and a retry takes the key over.
    vi.setSystemTime(start + 61_000);
    const retried = await expectJson<CreatedKey>(
      await post(f, "/v2/keys", "slow-1", { name: "n" }),
      201,
    );
    slow.release();
    const first = await slow.response;
    expect(await expectJson(first, 409)).toMatchObject({
      error: { type: "IDEMPOTENCY_KEY_IN_USE_ERROR", param: "Idempotency-Key" },
    });
    expect(await keyCount(f.partnerId)).toBe(before + 1);
    const replay = await post(f, "/v2/keys", "slow-1", { name: "n" });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await expectJson(replay, 201)).toEqual(retried);
  });

  it("renews its lock while it works, so a retry meanwhile answers 409 and runs nothing", async () => {
    const f = await seedAccount();
    const before = await keyCount(f.partnerId);
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    const start = Date.now();
    const slow = await slowKeyCreation(f, "slow-2");
    await slow.held;
    await vi.advanceTimersByTimeAsync(61_000);
    // The renewals land in the database: the lock now ends after the moved clock.
    await vi.waitFor(async () => {
      expect(await lockedUntil(f, "slow-2")).toBeGreaterThan(start + 61_000);
    });
    const busy = await post(f, "/v2/keys", "slow-2", { name: "n" });
    expect(await expectJson(busy, 409)).toMatchObject({
      error: { type: "IDEMPOTENCY_KEY_IN_USE_ERROR" },
    });
    slow.release();
    const created = await expectJson<CreatedKey>(await slow.response, 201);
    expect(await keyCount(f.partnerId)).toBe(before + 1);
    const replay = await post(f, "/v2/keys", "slow-2", { name: "n" });
    expect(await expectJson(replay, 201)).toEqual(created);
  });
});

/** The fingerprint of `POST /v2/keys {"name":"n"}` in `latest` (keys belong to no product). */
function keysFingerprint(): Promise<string> {
  return requestFingerprint(
    { method: "POST", path: "/v2/keys", version: "latest", merchantKey: "" },
    new TextEncoder().encode(JSON.stringify({ name: "n" })),
  );
}
