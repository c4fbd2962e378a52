// Requests reach their partner's shard by what they carry: a key's shard code picks the D1 binding
// its unchanged lookup runs on (no directory, no other shard), page tokens and PDF links sign the
// code they name, and a shard that fails takes down only its own partners' requests.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { generateApiKey, hashApiKey, parseApiKey, withChecksum } from "../../src/domain/api-keys";
import { fromBase64Url, toBase64Url } from "../../src/domain/encoding";
import { createSigner } from "../../src/domain/signing";
import app from "../../src/index";
import { api, expectJson, operator } from "../support/api";
import { fetchWithEnv } from "../support/app-env";
import { type Fixture, pdfBytes, seedAccount, statementsPath, uniqueId } from "../support/fixtures";
import { otherShard, SHARDS, shardDatabase, shardOf, unreachableD1 } from "../support/shards";
import { request } from "../support/worker";

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

/** Every line the Worker logs while this file runs. */
const logged: string[] = [];
beforeAll(() => {
  vi.spyOn(console, "log").mockImplementation((line: unknown) => {
    logged.push(typeof line === "string" ? line : "");
  });
});
afterAll(() => vi.restoreAllMocks());

interface RequestLog {
  status: number;
  shard?: string;
  d1_queries: number;
  d1_rows_read: number;
}

function requestLog(requestId: string): RequestLog {
  const line = logged.find(
    (text) => text.includes(`"request_id":"${requestId}"`) && text.includes('"d1_queries"'),
  );
  if (line === undefined) throw new Error(`no log line for request ${requestId}`);
  return JSON.parse(line) as RequestLog;
}

/** A partner on each shard, with statements. */
const onShard = new Map<string, Fixture>();
beforeAll(async () => {
  for (const shard of SHARDS) onShard.set(shard, await seedAccount({ shard, statements: 3 }));
});
const partnerOn = (shard: string) => onShard.get(shard) as Fixture;

/** The key with its shard code replaced by `shard`, checksum recomputed: well-formed, forged. */
function withShardCode(key: string, shard: string): string {
  const prefix = key.startsWith("sk_live_") ? "sk_live_" : "sk_sandbox_";
  const body = key.slice(0, -6);
  return withChecksum(prefix + shard + body.slice(prefix.length + 2));
}

describe("routing by the key's shard code", () => {
  it("issues keys naming their partner's shard, and places partners where the import says", async () => {
    for (const shard of SHARDS) {
      const f = partnerOn(shard);
      expect(await shardOf(f.partnerId)).toBe(shard);
      expect(parseApiKey(f.key)?.shard).toBe(shard);
      const row = await shardDatabase(shard)
        .prepare("SELECT count(*) AS n FROM partners WHERE partner_id = ?")
        .bind(f.partnerId)
        .first<{ n: number }>();
      expect(row?.n).toBe(1);
      for (const other of SHARDS.filter((s) => s !== shard)) {
        const elsewhere = await shardDatabase(other)
          .prepare("SELECT count(*) AS n FROM partners WHERE partner_id = ?")
          .bind(f.partnerId)
          .first<{ n: number }>();
        expect(elsewhere?.n).toBe(0);
      }
    }
  });

  it("reads only the key's shard: every other database may be down", async () => {
    for (const shard of SHARDS) {
      const f = partnerOn(shard);
      const down: Record<string, unknown> = { DIRECTORY: unreachableD1() };
      for (const other of SHARDS.filter((s) => s !== shard)) down[`DB_${other}`] = unreachableD1();
      const requestId = `route-${shard}-${Date.now()}`;
      const res = await fetchWithEnv(
        statementsPath(f),
        { headers: { authorization: `Bearer ${f.key}`, "x-request-id": requestId } },
        down,
      );
      const page = await expectJson<{ data: unknown[] }>(res, 200);
      expect(page.data).toHaveLength(3);
      const log = requestLog(requestId);
      expect(log.shard).toBe(shard);
      expect(log.d1_queries).toBe(1);
    }
  });

  it("answers a forged shard code as an unknown key: 401, nothing read on the real shard", async () => {
    const shard = SHARDS[1] as string;
    const f = partnerOn(shard);
    const forged = withShardCode(f.key, otherShard(shard));
    expect(parseApiKey(forged)?.shard).toBe(otherShard(shard));
    // Changing the code back gives the real key: only the code differs.
    expect(withShardCode(forged, shard)).toBe(f.key);
    const requestId = `forged-${Date.now()}`;
    // The partner's real shard is unreachable: a request that touched it would be a 503.
    const res = await fetchWithEnv(
      statementsPath(f),
      { headers: { authorization: `Bearer ${forged}`, "x-request-id": requestId } },
      { [`DB_${shard}`]: unreachableD1() },
    );
    const body = await expectJson(res, 401);
    const plainUnknown = await api(statementsPath(f), { key: generateApiKey("sandbox", shard) });
    expect(body).toEqual(await expectJson(plainUnknown, 401));
    expect(res.headers.get("www-authenticate")).toBe(plainUnknown.headers.get("www-authenticate"));
    const log = requestLog(requestId);
    expect(log.d1_queries).toBe(1);
    expect(log.d1_rows_read).toBe(0);
  });

  it("answers a key naming a shard this deployment lacks as unknown, reading nothing", async () => {
    const f = partnerOn(SHARDS[0] as string);
    const requestId = `no-shard-${Date.now()}`;
    const res = await api(statementsPath(f), {
      key: withShardCode(f.key, "zz"),
      headers: { "x-request-id": requestId },
    });
    expect(res.status).toBe(401);
    expect(requestLog(requestId).d1_queries).toBe(0);
  });

  it("keeps keys issued before shards (no code) working on the first shard", async () => {
    const first = SHARDS[0] as string;
    const f = partnerOn(first);
    // A key of the old format: 32 random characters, no code; stored as a key of this partner.
    const old = withChecksum(`sk_sandbox_${"Ab3".repeat(10)}Zz`);
    expect(parseApiKey(old)?.shard).toBe(first);
    await shardDatabase(first)
      .prepare(
        `INSERT INTO api_keys (key_id, key_hash, partner_id, environment, scopes, created_at,
         created_by) VALUES (?, ?, ?, 'sandbox', '["ACCOUNT_READ"]', ?, 'operator')`,
      )
      .bind(uniqueId("key"), await hashApiKey(old), f.partnerId, new Date().toISOString())
      .run();
    expect((await api(statementsPath(f), { key: old })).status).toBe(200);
  });
});

describe("page tokens and PDF links name their shard, signed", () => {
  it("refuses a page token whose shard code was altered, as any forged token", async () => {
    const shard = SHARDS[1] as string;
    const f = partnerOn(shard);
    const first = await expectJson<{ next_page_token: string }>(
      await api(statementsPath(f, "?limit=1"), { key: f.key }),
      200,
    );
    const [payload, mac, kid] = first.next_page_token.split(".") as [string, string, string];
    const triple = JSON.parse(new TextDecoder().decode(fromBase64Url(payload) as Uint8Array));
    expect(triple[2]).toBe(shard);
    triple[2] = otherShard(shard);
    const altered = toBase64Url(new TextEncoder().encode(JSON.stringify(triple)));
    const forgedShard = await api(
      statementsPath(f, `?limit=1&starting_after=${altered}.${mac}.${kid}`),
      { key: f.key },
    );
    const flipped = `${mac[0] === "A" ? "B" : "A"}${mac.slice(1)}`;
    const forgedMac = await api(
      statementsPath(f, `?limit=1&starting_after=${payload}.${flipped}.${kid}`),
      { key: f.key },
    );
    // The same answer (older versions stamp their errors with the instant: left out).
    const untimed = async (res: Response) => ({ ...(await expectJson(res, 400)), timestamp: 0 });
    expect(await untimed(forgedShard)).toEqual(await untimed(forgedMac));
    const next = await api(statementsPath(f, `?limit=1&starting_after=${first.next_page_token}`), {
      key: f.key,
    });
    expect(next.status).toBe(200);
  });

  it("serves a PDF link from the shard it names, with no directory, and refuses an altered code", async () => {
    const shard = SHARDS[1] as string;
    const f = partnerOn(shard);
    const statementId = `${f.accountId}_st_003`;
    const upload = await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes("shard"), {
      "content-type": "application/pdf",
    });
    expect(upload.status).toBe(204);
    const { data } = await expectJson<{ data: { pdf_url?: string }[] }>(
      await api(statementsPath(f), { key: f.key }),
      200,
    );
    const url = new URL(data[0]?.pdf_url as string);
    const down: Record<string, unknown> = { DIRECTORY: unreachableD1() };
    for (const other of SHARDS.filter((s) => s !== shard)) down[`DB_${other}`] = unreachableD1();
    const served = await fetchWithEnv(`${url.pathname}${url.search}`, {}, down);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pdfBytes("shard"));

    const signature = url.searchParams.get("signature") as string;
    const bytes = fromBase64Url(signature) as Uint8Array;
    expect(new TextDecoder().decode(bytes.subarray(0, 2))).toBe(shard);
    bytes.set(new TextEncoder().encode(otherShard(shard)), 0);
    url.searchParams.set("signature", toBase64Url(bytes));
    const altered = await request(`${url.pathname}${url.search}`);
    const body = await expectJson<{ error: { type: string; message: string } }>(altered, 403);
    expect(body.error).toEqual({ type: "FORBIDDEN_ERROR", message: "This link is not valid." });
  });

  it("keeps page tokens and PDF links issued before shards (no code) working on the first shard", async () => {
    const shard = SHARDS[0] as string;
    const f = partnerOn(shard);
    const signer = createSigner(env.SIGNING_SECRET as string);
    const keyId = await signer.keyId();
    // A page token of the old format: its payload the position alone, a JSON pair.
    const first = await expectJson<{ data: { statement_id: string }[] }>(
      await api(statementsPath(f, "?limit=1"), { key: f.key }),
      200,
    );
    const [newest] = await shardDatabase(shard)
      .prepare("SELECT period_end_date AS p FROM statements WHERE statement_id = ?")
      .bind(first.data[0]?.statement_id)
      .raw<[string]>();
    const pair = [newest?.[0], first.data[0]?.statement_id];
    const payload = toBase64Url(new TextEncoder().encode(JSON.stringify(pair)));
    const binding = [f.partnerId, "sandbox", f.merchantKey, f.customerId, f.accountId];
    const mac = await signer.sign("statement-page:v1", [...binding, payload]);
    const next = await expectJson<{ data: { statement_id: string }[] }>(
      await api(statementsPath(f, `?limit=1&starting_after=${payload}.${mac}.${keyId}`), {
        key: f.key,
      }),
      200,
    );
    expect(next.data[0]?.statement_id).toBe(`${f.accountId}_st_002`);

    // A PDF link of the old format: its signature the MAC alone, with no shard code signed.
    const statementId = `${f.accountId}_st_001`;
    const upload = await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes("old"), {
      "content-type": "application/pdf",
    });
    expect(upload.status).toBe(204);
    const expires = String(Date.now() + 60_000);
    const signature = await signer.sign("statement-pdf:v1", [statementId, expires]);
    const path = `/files/statements/${statementId}/pdf`;
    const served = await request(`${path}?expires=${expires}&signature=${signature}&kid=${keyId}`);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pdfBytes("old"));
  });
});

describe("a failing shard", () => {
  it("makes only its partners' requests 503 while another shard's partner answers 200", async () => {
    const failing = SHARDS[1] as string;
    const healthy = SHARDS[0] as string;
    const down = { [`DB_${failing}`]: unreachableD1() };
    const [hurt, fine, hurtWrite] = await Promise.all([
      fetchWithEnv(statementsPath(partnerOn(failing)), bearer(partnerOn(failing).key), down),
      fetchWithEnv(statementsPath(partnerOn(healthy)), bearer(partnerOn(healthy).key), down),
      fetchWithEnv(
        "/v2/webhook_endpoints",
        {
          method: "POST",
          headers: {
            authorization: `Bearer ${partnerOn(failing).key}`,
            "content-type": "application/json",
          },
          body: JSON.stringify({ url: "https://example.com/hook" }),
        },
        down,
      ),
    ]);
    const error = await expectJson<{ error: { type: string; message: string } }>(hurt, 503);
    expect(error.error.type).toBe("SERVICE_UNAVAILABLE_ERROR");
    expect(JSON.stringify(error)).not.toMatch(/D1_ERROR|shard|DB_/);
    expect(hurt.headers.get("retry-after")).toBe("1");
    expect(hurtWrite.status).toBe(503);
    const page = await expectJson<{ data: unknown[] }>(fine, 200);
    expect(page.data).toHaveLength(3);
  });

  it("is skipped by the cron, which still maintains every other shard", async () => {
    const failing = SHARDS[1] as string;
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const insert = `INSERT INTO idempotency_keys (key_hash, fingerprint, state, created_at, expires_at)
      VALUES (?, 'f', 'completed', ?, ?)`;
    for (const shard of SHARDS) {
      await shardDatabase(shard)
        .prepare(insert)
        .bind(`cron-${shard}-${Date.now()}`, past, past)
        .run();
    }
    const expired = (shard: string) =>
      shardDatabase(shard)
        .prepare("SELECT count(*) AS n FROM idempotency_keys WHERE expires_at < ?")
        .bind(new Date().toISOString())
        .first<{ n: number }>()
        .then((r) => r?.n ?? 0);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await app.scheduled(
        createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }),
        { ...env, [`DB_${failing}`]: unreachableD1() },
      );
      expect(errors.mock.calls.map(([line]) => String(line)).join("\n")).toContain(
        `"shard":"${failing}"`,
      );
    } finally {
      errors.mockRestore();
    }
    for (const shard of SHARDS.filter((s) => s !== failing)) expect(await expired(shard)).toBe(0);
    expect(await expired(failing)).toBeGreaterThan(0);
    // Once it is back, the next run catches up.
    await app.scheduled(
      createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }),
      env,
    );
    expect(await expired(failing)).toBe(0);
  });
});
