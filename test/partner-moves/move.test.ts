// Moving a partner to another shard while a client reads and imports: every row arrives once,
// writes meet 503 with Retry-After while the partner is frozen, reads never fail, and keys and
// sessions that name the old shard keep working through its forward.
import { env } from "cloudflare:workers";
import { getTableName } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseApiKey } from "../../src/domain/api-keys";
import { PARTNER_TABLES, SHARED_TABLES } from "../../src/partner-moves/partner-tables";
import { api, type ErrorBody, expectJson, operator } from "../support/api";
import { seedTeam } from "../support/dashboard";
import { createKey, importData, seedAccount, statementsPath } from "../support/fixtures";
import { SHARDS, shardDatabase, shardOf } from "../support/shards";
import { dailyStatement } from "../support/storage-fault-scenarios";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

interface MoveView {
  phase: string;
  rows_copied: number;
  tables: Record<string, { copied: number; source?: { rows: number }; target?: { rows: number } }>;
  retire_after: string | null;
}

/** `SELECT count(*) AS n …` on one shard. */
async function count(shard: string, sql: string, ...values: unknown[]): Promise<number> {
  const row = await shardDatabase(shard)
    .prepare(sql)
    .bind(...values)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Every statement id the partner API lists for the account, page by page. */
async function listAll(f: { customerId: string; accountId: string }, key: string) {
  const ids: string[] = [];
  let token: string | undefined;
  for (;;) {
    const query = `?limit=100${token ? `&starting_after=${token}` : ""}`;
    const page = await expectJson<{
      data: { statement_id: string }[];
      has_more: boolean;
      next_page_token?: string;
    }>(await api(statementsPath(f, query), { key }), 200);
    ids.push(...page.data.map((s) => s.statement_id));
    if (!page.has_more) return ids;
    token = page.next_page_token;
  }
}

/** Repeats a partner's move call until it is done (its old copy's retirement brought forward). */
async function finishMove(partnerId: string, to: string): Promise<MoveView> {
  const path = `/partners/${partnerId}/move`;
  let view: MoveView | null = null;
  for (let calls = 0; view?.phase !== "switched" && calls < 50; calls++) {
    view = await expectJson<MoveView>(await operator("POST", path, { shard: to }), 202);
  }
  expect(view?.phase).toBe("switched");
  await env.DIRECTORY.prepare(
    "UPDATE partner_moves SET retire_after = ? WHERE partner_id = ? AND finished_at IS NULL",
  )
    .bind(new Date(Date.now() - 1000).toISOString(), partnerId)
    .run();
  const done = await expectJson<MoveView>(await operator("POST", path, { shard: to }), 200);
  expect(done.phase).toBe("done");
  return done;
}

/** Every schema file of the shards: the shared tables (src/db/schema.ts) and each feature's. */
const SCHEMAS = import.meta.glob<Record<string, unknown>>("../../src/*/schema.ts", { eager: true });

describe("the partner tables", () => {
  it("name every table of the shard schema: a new table must say whether a move copies it", () => {
    const tables = Object.values(SCHEMAS)
      .flatMap((schema) => Object.values(schema))
      .filter(
        (value) =>
          typeof value === "object" && value !== null && Symbol.for("drizzle:Name") in value,
      )
      .map((table) => getTableName(table as never));
    const listed = [
      ...PARTNER_TABLES.map((t) => t.name),
      ...SHARED_TABLES.map((t) => getTableName(t)),
    ];
    expect([...tables].sort()).toEqual([...listed].sort());
  });
});

describe("moving a partner to another shard", () => {
  it("loses and duplicates nothing while a client reads and imports", {
    timeout: 120_000,
  }, async () => {
    const [from, to] = [SHARDS[0] as string, SHARDS[1] as string];
    const f = await seedAccount({ shard: from });
    const writer = f.key;
    const endpoint = await api("/v2/webhook_endpoints", {
      key: writer,
      method: "POST",
      body: { url: `${RECEIVER}/move/${f.partnerId}` },
    });
    const { webhook_endpoint_id: endpointId } = await expectJson<{ webhook_endpoint_id: string }>(
      endpoint,
      201,
    );
    await importData({
      statements: Array.from({ length: 40 }, (_, i) => dailyStatement(f.accountId, i)),
    });
    const team = await seedTeam(f.partnerId);
    const keysBefore = await count(
      from,
      "SELECT count(*) AS n FROM api_keys WHERE partner_id = ?",
      f.partnerId,
    );

    // A client reads and imports throughout.
    let running = true;
    const figures = { reads: 0, readsFailed: 0, importsRefused: 0, keyWritesRefused: 0 };
    const imported: string[] = [];
    const reader = (async () => {
      while (running) {
        const res = await api(statementsPath(f, "?limit=5"), { key: f.key });
        figures.reads += 1;
        if (res.status !== 200) figures.readsFailed += 1;
        await res.arrayBuffer();
      }
    })();
    let day = 100;
    const importer = (async () => {
      while (running) {
        const statement = dailyStatement(f.accountId, day);
        const res = await operator("POST", "/import", { statements: [statement] });
        if (res.status === 200) {
          imported.push(statement.statement_id);
          day += 1;
        } else {
          const body = await expectJson<ErrorBody>(res, 503);
          expect(body.error.type).toBe("SERVICE_UNAVAILABLE_ERROR");
          expect(res.headers.get("retry-after")).toBe("10");
          figures.importsRefused += 1;
        }
      }
    })();

    // The move, in small steps: the partner stays frozen across several calls.
    let view: MoveView | undefined;
    let calls = 0;
    try {
      while (calls < 200) {
        const res = await operator("POST", `/partners/${f.partnerId}/move`, {
          shard: to,
          max_rows: 25,
        });
        view = await expectJson<MoveView>(res, res.status === 200 ? 200 : 202);
        calls += 1;
        if (view.phase !== "copying" && view.phase !== "verifying") break;
        // Frozen: a partner write waits, a read is served.
        const write = await api("/v2/webhook_endpoints", {
          key: writer,
          method: "POST",
          body: { url: `${RECEIVER}/frozen` },
        });
        expect(write.status).toBe(503);
        expect(write.headers.get("retry-after")).toBe("10");
        figures.keyWritesRefused += 1;
        expect((await api(statementsPath(f), { key: f.key })).status).toBe(200);
      }
    } finally {
      running = false;
      await Promise.all([reader, importer]);
    }
    expect(view?.phase).toBe("switched");
    expect(calls).toBeGreaterThan(2);
    expect(await shardOf(f.partnerId)).toBe(to);

    // The old copy is retired once every PDF link naming it has expired.
    const done = await finishMove(f.partnerId, to);

    // Nothing lost, nothing duplicated: the statements, their events and their deliveries.
    const statements = 40 + imported.length;
    const listed = await listAll(f, f.key);
    expect(listed).toHaveLength(statements);
    expect(new Set(listed).size).toBe(statements);
    for (const id of imported) expect(listed).toContain(id);
    const onTarget = (sql: string) => count(to, sql, f.partnerId);
    const onSource = (sql: string) => count(from, sql, f.partnerId);
    const STATEMENTS = `SELECT count(*) AS n FROM statements s JOIN accounts a
      ON a.account_id = s.account_id WHERE a.partner_id = ?`;
    expect(await onTarget(STATEMENTS)).toBe(statements);
    expect(await onSource(STATEMENTS)).toBe(0);
    const EVENTS = "SELECT count(*) AS n FROM events WHERE partner_id = ?";
    expect(await onTarget(EVENTS)).toBe(statements);
    expect(await onSource(EVENTS)).toBe(0);
    const DELIVERIES = `SELECT count(*) AS n FROM webhook_deliveries d JOIN webhook_endpoints e
      ON e.endpoint_id = d.endpoint_id WHERE e.partner_id = ?`;
    expect(await onTarget(DELIVERIES)).toBe(statements);
    const DISTINCT_DELIVERIES = `SELECT count(DISTINCT d.event_id) AS n FROM webhook_deliveries d
      JOIN webhook_endpoints e ON e.endpoint_id = d.endpoint_id WHERE e.partner_id = ?`;
    expect(await onTarget(DISTINCT_DELIVERIES)).toBe(statements);
    const KEYS = "SELECT count(*) AS n FROM api_keys WHERE partner_id = ?";
    expect(await onTarget(KEYS)).toBe(keysBefore);
    // The old shard keeps the partner row and its credentials, forwarding to the new one.
    const forward = await shardDatabase(from)
      .prepare("SELECT moved_to, moving_to FROM partners WHERE partner_id = ?")
      .bind(f.partnerId)
      .first<{ moved_to: string; moving_to: string | null }>();
    expect(forward).toEqual({ moved_to: to, moving_to: null });
    expect(await count(from, "SELECT count(*) AS n FROM move_fences")).toBe(0);

    // Reads never failed; keys and sessions naming the old shard still work; new keys name the new.
    expect(figures.readsFailed).toBe(0);
    expect(parseApiKey(f.key)?.shard).toBe(from);
    expect((await api(statementsPath(f), { key: f.key })).status).toBe(200);
    const created = await api("/v2/webhook_endpoints", {
      key: writer,
      method: "POST",
      body: { url: `${RECEIVER}/after-move` },
    });
    const { webhook_endpoint_id: createdId } = await expectJson<{ webhook_endpoint_id: string }>(
      created,
      201,
    );
    // Imports are taken again, on the new shard.
    await importData({ statements: [dailyStatement(f.accountId, 999)] });
    expect((await team.admin.get("/dashboard/sandbox/keys")).status).toBe(200);
    const { apiKey: fresh } = await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"]);
    expect(parseApiKey(fresh)?.shard).toBe(to);

    // Deliveries still queued find no endpoint once the test is over.
    for (const id of [endpointId, createdId]) {
      const res = await api(`/v2/webhook_endpoints/${id}`, { key: writer, method: "DELETE" });
      expect(res.status).toBeLessThan(300);
    }
    console.info(
      `partner move: ${JSON.stringify({
        rows_moved: done.rows_copied,
        per_table: Object.fromEntries(
          Object.entries(done.tables).map(([name, t]) => [name, t.copied]),
        ),
        move_calls: calls + 1,
        imports_accepted: imported.length,
        imports_refused: figures.importsRefused,
        key_writes_refused: figures.keyWritesRefused,
        reads: figures.reads,
        reads_failed: figures.readsFailed,
        statements_lost: statements - new Set(listed).size,
      })}`,
    );
  });

  it("refuses a shard that does not exist, the partner's own shard, and an unknown partner", async () => {
    const f = await seedAccount({ shard: SHARDS[0] });
    const unknown = await operator("POST", `/partners/${f.partnerId}/move`, { shard: "zz" });
    expect((await expectJson<ErrorBody>(unknown, 400)).error.message).toContain('no shard "zz"');
    const same = await operator("POST", `/partners/${f.partnerId}/move`, { shard: SHARDS[0] });
    expect((await expectJson<ErrorBody>(same, 400)).error.message).toContain("already lives");
    const missing = await operator("POST", "/partners/nobody_here/move", { shard: SHARDS[1] });
    expect(missing.status).toBe(404);
    expect((await operator("GET", `/partners/${f.partnerId}/move`)).status).toBe(404);
  });

  it("refuses a bad body, a second target and a second move off the same shard while one is open", async () => {
    const [from, to] = [SHARDS[0] as string, SHARDS[1] as string];
    const moving = await seedAccount({ shard: from });
    const neighbour = await seedAccount({ shard: from });
    const path = `/partners/${moving.partnerId}/move`;

    const bad = await operator("POST", path, { shard: to, max_rows: 0 });
    expect((await expectJson<ErrorBody>(bad, 400)).error.message).toContain("max_rows");
    expect((await operator("GET", path)).status).toBe(404);

    // One row a call: the move stays open for the refusals below.
    const started = await expectJson<MoveView>(
      await operator("POST", path, { shard: to, max_rows: 1 }),
      202,
    );
    expect(started.phase).toBe("copying");
    expect((await expectJson<MoveView>(await operator("GET", path), 200)).phase).toBe("copying");

    const elsewhere = await operator("POST", path, { shard: from });
    expect((await expectJson<ErrorBody>(elsewhere, 409)).error.message).toContain(
      `being moved to shard ${to}`,
    );
    const second = await operator("POST", `/partners/${neighbour.partnerId}/move`, { shard: to });
    expect((await expectJson<ErrorBody>(second, 409)).error.message).toContain(
      "one move at a time per shard",
    );
    expect(await shardOf(neighbour.partnerId)).toBe(from);

    // Finished, the source takes the next move.
    await finishMove(moving.partnerId, to);
    await finishMove(neighbour.partnerId, to);
    expect(await shardOf(neighbour.partnerId)).toBe(to);
  });
});
