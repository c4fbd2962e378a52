// Where partners live, as the operator sees it: an import places new partners on the shard it
// names (or by the default rule), keeps partners created together on one shard, refuses an import
// that reaches partners on different shards, and stays one atomic batch on its shard; the reads
// that fan out over every shard answer whole or 503 with Retry-After.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardJurisdiction } from "../../src/db/shards";
import { api, type ErrorBody, expectJson, operator } from "../support/api";
import { fetchWithEnv } from "../support/app-env";
import { StorageProbe } from "../support/faulty-storage";
import {
  createKey,
  type ImportPayload,
  importData,
  newAccountImport,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import { otherShard, SHARDS, shardDatabase, shardOf, unreachableD1 } from "../support/shards";
import { OPERATOR_TOKEN } from "../support/worker";

/** Calls the operator API with bindings laid over the test environment. */
function operatorWithEnv(
  method: string,
  path: string,
  overrides: Record<string, unknown>,
  body?: unknown,
): Promise<Response> {
  const headers = { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" };
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  return fetchWithEnv(`/operator/v1${path}`, init, overrides);
}

/** A new partner with one product, a customer and an account with `statements` statements. */
const newPartner = (options: { shard?: string; statements?: number } = {}): ImportPayload =>
  newAccountImport({ statements: 2, ...options }).payload;

const partnerIdOf = (payload: ImportPayload) => payload.partners?.[0]?.partner_id as string;

/** Rows of every partner table on one shard: what an import must leave alone elsewhere. */
async function shardCounts(shard: string): Promise<Record<string, number>> {
  const tables = ["partners", "products", "customers", "accounts", "statements", "events"];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await shardDatabase(shard)
      .prepare(`SELECT count(*) AS n FROM ${table}`)
      .first<{ n: number }>();
    counts[table] = row?.n ?? 0;
  }
  return counts;
}

/** Whether shard `shard` holds the partner's row. */
async function holds(shard: string, partnerId: string): Promise<boolean> {
  const row = await shardDatabase(shard)
    .prepare("SELECT count(*) AS n FROM partners WHERE partner_id = ?")
    .bind(partnerId)
    .first<{ n: number }>();
  return (row?.n ?? 0) > 0;
}

describe("placing partners", () => {
  it("creates a partner on the shard its import names, and shows it only to the operator", async () => {
    for (const shard of SHARDS) {
      const payload = newPartner({ shard });
      await importData(payload);
      const partnerId = partnerIdOf(payload);
      const partner = await expectJson<Record<string, unknown>>(
        await operator("GET", `/partners/${partnerId}`),
        200,
      );
      expect(partner).toMatchObject({ partner_id: partnerId, name: "Test Partner", shard });
      expect(await holds(shard, partnerId)).toBe(true);
      expect(await holds(otherShard(shard), partnerId)).toBe(false);
      // The partner's own API never names it: not in bodies, not in headers.
      const { apiKey } = await createKey(partnerId, "sandbox", ["ACCOUNT_READ"]);
      const customerId = payload.customers?.[0]?.customer_id as string;
      const accountId = payload.accounts?.[0]?.account_id as string;
      const res = await api(statementsPath({ customerId, accountId }), { key: apiKey });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toMatch(/"shard"|DB_/);
      for (const [name, value] of res.headers) expect(`${name}: ${value}`).not.toMatch(/shard/i);
    }
  });

  it("places a partner whose import names no shard on the shard with the fewest partners", async () => {
    const counts = await env.DIRECTORY.prepare(
      "SELECT shard, count(*) AS n FROM partner_shards GROUP BY shard",
    ).all<{ shard: string; n: number }>();
    const held = new Map(counts.results.map((r) => [r.shard, r.n]));
    // Among the shards without a jurisdiction: a partner without one goes only there.
    const open = SHARDS.filter((shard) => shardJurisdiction(env, shard) === "none");
    const emptiest = [...open].sort((a, b) => (held.get(a) ?? 0) - (held.get(b) ?? 0))[0];
    const payload = newPartner();
    await importData(payload);
    expect(await shardOf(partnerIdOf(payload))).toBe(emptiest);
  });

  it("keeps partners created together in one import on one shard: the import stays atomic", async () => {
    const [a, b] = [newPartner(), newPartner()] as [ImportPayload, ImportPayload];
    const both: ImportPayload = {
      partners: [...(a.partners ?? []), ...(b.partners ?? [])],
      customers: [...(a.customers ?? []), ...(b.customers ?? [])],
      accounts: [...(a.accounts ?? []), ...(b.accounts ?? [])],
      statements: [...(a.statements ?? []), ...(b.statements ?? [])],
    };
    await importData(both);
    expect(await shardOf(partnerIdOf(a))).toBe(await shardOf(partnerIdOf(b)));
  });

  it("places hundreds of partners of one import at once, all on one shard", async () => {
    const ids = Array.from({ length: 300 }, () => uniqueId("partner"));
    await importData({
      partners: ids.map((partner_id) => ({ partner_id, name: "Many", products: [] })),
    });
    const rows = await env.DIRECTORY.prepare(
      "SELECT DISTINCT shard FROM partner_shards WHERE partner_id IN (SELECT value FROM json_each(?))",
    )
      .bind(JSON.stringify(ids))
      .all<{ shard: string }>();
    expect(rows.results).toHaveLength(1);
    expect(await shardOf(ids[299] as string)).toBe(rows.results[0]?.shard);
  });

  it("refuses a shard the deployment lacks, naming the shards it has", async () => {
    const payload = newPartner({ shard: "zz" });
    const body = await expectJson<ErrorBody>(await operator("POST", "/import", payload), 400);
    expect(body.error.type).toBe("INVALID_REQUEST_ERROR");
    expect(body.error.message).toContain('no shard "zz"');
    for (const shard of SHARDS) expect(body.error.message).toContain(shard);
    const missing = await operator("GET", `/partners/${partnerIdOf(payload)}`);
    expect(missing.status).toBe(404);
  });

  it("does not move a partner when an import names another shard for it", async () => {
    const f = await seedAccount({ shard: SHARDS[0] });
    const res = await operator("POST", "/import", {
      partners: [{ partner_id: f.partnerId, name: "Test Partner", shard: SHARDS[1] }],
    });
    const body = await expectJson<ErrorBody>(res, 400);
    expect(body.error.message).toContain(`lives on shard ${SHARDS[0]}`);
    expect(await shardOf(f.partnerId)).toBe(SHARDS[0]);
  });
});

describe("an import across shards", () => {
  it("is refused with 400 naming each partner and its shard, writing nothing", async () => {
    const [x, y] = [SHARDS[0] as string, SHARDS[1] as string];
    const onX = await seedAccount({ shard: x });
    const onY = await seedAccount({ shard: y });
    const before = [await shardCounts(x), await shardCounts(y)];
    const res = await operator("POST", "/import", {
      accounts: [
        { account_id: uniqueId("acc"), customer_id: onX.customerId, status: "OPEN" },
        { account_id: uniqueId("acc"), customer_id: onY.customerId, status: "OPEN" },
      ],
    });
    const body = await expectJson<ErrorBody>(res, 400);
    expect(body.error.type).toBe("INVALID_REQUEST_ERROR");
    expect(body.error.message).toContain(`"${onX.partnerId}" (shard ${x})`);
    expect(body.error.message).toContain(`"${onY.partnerId}" (shard ${y})`);
    expect([await shardCounts(x), await shardCounts(y)]).toEqual(before);
  });

  it("refuses with 409 an id that a partner on another shard holds", async () => {
    const onX = await seedAccount({ shard: SHARDS[0] });
    const payload = newPartner({ shard: SHARDS[1] });
    const customer = payload.customers?.[0];
    if (customer) customer.customer_id = onX.customerId;
    const account = payload.accounts?.[0];
    if (account) account.customer_id = onX.customerId;
    const body = await expectJson<ErrorBody>(await operator("POST", "/import", payload), 409);
    expect(body.error.message).toContain(
      "a customer's partner, environment and product never change",
    );
    expect(await holds(SHARDS[1] as string, partnerIdOf(payload))).toBe(false);
  });

  it("waits (503, Retry-After) while a shard it must check cannot be read", async () => {
    const payload = newPartner({ shard: SHARDS[0] });
    const res = await operatorWithEnv(
      "POST",
      "/import",
      { [`DB_${SHARDS[1]}`]: unreachableD1() },
      payload,
    );
    const body = await expectJson<ErrorBody>(res, 503);
    expect(body.error.type).toBe("SERVICE_UNAVAILABLE_ERROR");
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await holds(SHARDS[0] as string, partnerIdOf(payload))).toBe(false);
    await importData(payload);
    expect(await shardOf(partnerIdOf(payload))).toBe(SHARDS[0]);
  });
});

describe("an import interrupted on its shard", () => {
  it("writes nothing there, leaves the other shard untouched, and succeeds when sent again", async () => {
    const target = SHARDS[1] as string;
    const other = otherShard(target);
    // A first import of the same shape, with every call of the target shard recorded.
    const counting = new StorageProbe();
    const dry = await operatorWithEnv(
      "POST",
      "/import",
      { [`DB_${target}`]: counting.db(shardDatabase(target)) },
      newPartner({ shard: target, statements: 5 }),
    );
    expect(dry.status).toBe(200);
    const writeBatch =
      counting.calls.findIndex(
        (call) =>
          call.op === "batch" && call.sql.some((s) => /insert into "?statements"?\s/i.test(s)),
      ) + 1;
    expect(writeBatch).toBeGreaterThan(0);

    const payload = newPartner({ shard: target, statements: 5 });
    const before = { target: await shardCounts(target), other: await shardCounts(other) };
    const broken = new StorageProbe(writeBatch, "mid-batch");
    const res = await operatorWithEnv(
      "POST",
      "/import",
      { [`DB_${target}`]: broken.db(shardDatabase(target)) },
      payload,
    );
    expect(res.status).toBe(503);
    expect(broken.calls[writeBatch - 1]?.op).toBe("batch");
    expect(await shardCounts(target)).toEqual(before.target);
    expect(await shardCounts(other)).toEqual(before.other);
    expect((await operator("GET", `/partners/${partnerIdOf(payload)}`)).status).toBe(404);

    await importData(payload);
    expect(await shardOf(partnerIdOf(payload))).toBe(target);
    const after = await shardCounts(target);
    expect(after.statements).toBe((before.target.statements ?? 0) + 5);
    expect(await shardCounts(other)).toEqual(before.other);
  });
});

describe("operator reads across shards", () => {
  it("answer 503 with Retry-After naming the shard that failed, never a partial listing", async () => {
    const failing = SHARDS[1] as string;
    const down = { [`DB_${failing}`]: unreachableD1() };
    const res = await operatorWithEnv("GET", "/version-usage", down);
    const body = await expectJson<ErrorBody>(res, 503);
    expect(body.error.type).toBe("SERVICE_UNAVAILABLE_ERROR");
    expect(body.error.details).toEqual([`shard ${failing}`]);
    expect(res.headers.get("retry-after")).toBe("1");
    expect((await operator("GET", "/version-usage")).status).toBe(200);
  });

  it("find an id alone on every shard: 503 while one cannot be read, wherever the id is", async () => {
    const healthy = SHARDS[0] as string;
    const failing = otherShard(healthy);
    const f = await seedAccount({ shard: healthy, statements: 1 });
    const down = { [`DB_${failing}`]: unreachableD1() };
    const hidden = await operatorWithEnv("POST", `/statements/${f.accountId}_st_001/hide`, down);
    expect(hidden.status).toBe(503);
    expect(hidden.headers.get("retry-after")).toBe("1");
    expect((await operatorWithEnv("DELETE", `/keys/${f.keyId}`, down)).status).toBe(503);
    expect((await operator("POST", `/statements/${f.accountId}_st_001/hide`)).status).toBe(204);
    expect((await operator("POST", `/statements/${uniqueId("st")}/hide`)).status).toBe(404);
  });

  it("reach a partner named by id through the directory, not a fan-out", async () => {
    const f = await seedAccount({ shard: SHARDS[0] });
    const res = await operatorWithEnv("GET", `/partners/${f.partnerId}/keys`, {
      [`DB_${SHARDS[1]}`]: unreachableD1(),
    });
    expect(res.status).toBe(200);
  });

  it("answer 404 for a partner the directory places on a shard that does not hold it", async () => {
    // What an import leaves when it placed a new partner and its batch then failed.
    const placedOnly = uniqueId("placed");
    await env.DIRECTORY.prepare(
      "INSERT INTO partner_shards (partner_id, shard, created_at) VALUES (?, ?, ?)",
    )
      .bind(placedOnly, SHARDS[1], new Date().toISOString())
      .run();
    for (const partnerId of [placedOnly, uniqueId("nobody")]) {
      const path = `/partners/${partnerId}`;
      for (const res of [await operator("GET", path), await operator("GET", `${path}/keys`)]) {
        expect((await expectJson<ErrorBody>(res, 404)).error.message).toBe(
          `No such partner: ${JSON.stringify(partnerId)}`,
        );
      }
    }
  });
});
