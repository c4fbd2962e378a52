// Every partner API request of a key is recorded, after its response and without a D1 write in
// its path: what is recorded of reads, writes and errors (bodies with secrets redacted, success
// bodies never), how the version was chosen, idempotent replays, what recording costs the request,
// and the record's way through the queue into the partner's storage.
import { createExecutionContext, createScheduledController, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import type { RequestLogRecord } from "../../src/domain/request-log";
import { createApp } from "../../src/index";
import { runMaintenance } from "../../src/jobs";
import { consumeRequestLogs } from "../../src/request-logs/consumer";
import { api, expectJson } from "../support/api";
import { executionContext } from "../support/app-env";
import { OLDEST, RELEASED_VERSIONS } from "../support/bundle-versions";
import { seedAccount, statementsPath, uniqueId } from "../support/fixtures";
import { withRequestLog } from "../support/request-log";
import {
  delivery,
  keptQueue,
  loggedRequest,
  logRecord,
  newRequestId,
  requestIdOf,
  storedRequests,
} from "../support/request-logs";
import { countOnEveryShard, SHARDS, shardDatabase, shardOf } from "../support/shards";
import { BASE } from "../support/worker";

/** The service's app, of its own: its isolate state (usage counters, records) starts empty. */
const app = createApp(bundle);

const STATEMENTS_ROUTE = "/v2/customers/:customer_id/accounts/:account_id/statements";

describe("a recorded request", () => {
  it("has its time, ids, key, route, version, cost and client", async () => {
    const f = await seedAccount({ statements: 5 });
    const id = newRequestId();
    const before = new Date().toISOString();
    const res = await api(statementsPath(f, "?limit=2"), {
      key: f.key,
      headers: {
        "x-request-id": id,
        "user-agent": "acme-sdk/1.2",
        "cf-connecting-ip": "203.0.113.9",
      },
    });
    expect(res.status).toBe(200);
    const row = await loggedRequest(id);
    expect(row).toMatchObject({
      partner_id: f.partnerId,
      environment: "sandbox",
      request_id: id,
      key_id: f.keyId,
      key_name: null,
      method: "GET",
      path: statementsPath(f, "?limit=2"),
      route: STATEMENTS_ROUTE,
      status: 200,
      status_class: 2,
      error_type: null,
      error_message: null,
      version: OLDEST,
      version_source: "saved",
      d1_round_trips: 1,
      d1_rows_read: 2 + 4,
      idempotency_key: null,
      idempotent_replayed: 0,
      client_ip: "203.0.113.9",
      user_agent: "acme-sdk/1.2",
      request_body: null,
      response_body: null,
    });
    expect(row.at >= before && row.at <= new Date().toISOString()).toBe(true);
    expect(row.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it("has the latency its log line reports: one measurement from the request's start", async () => {
    const f = await seedAccount({ statements: 1 });
    const id = newRequestId();
    const { res, log } = await withRequestLog(() =>
      api(statementsPath(f), { key: f.key, headers: { "x-request-id": id } }),
    );
    expect(res.status).toBe(200);
    const row = await loggedRequest(id);
    // The record keeps whole milliseconds, the line two decimals, of the same figure.
    expect(Math.abs(row.latency_ms - log.duration_ms)).toBeLessThanOrEqual(0.5);
  });

  it("says the version came from the header when one was sent, and names the key", async () => {
    const f = await seedAccount({ statements: 1 });
    const minted = await expectJson<{ api_key: string; key_id: string }>(
      await api("/v2/keys", { key: f.key, method: "POST", body: { name: "Reporting job" } }),
      201,
    );
    const version = RELEASED_VERSIONS.find((v) => v !== OLDEST) ?? OLDEST;
    const id = newRequestId();
    await api(statementsPath(f), {
      key: minted.api_key,
      version,
      headers: { "x-request-id": id },
    });
    const row = await loggedRequest(id);
    expect(row).toMatchObject({
      key_id: minted.key_id,
      key_name: "Reporting job",
      version,
      version_source: "header",
    });
  });

  it("keeps an error's type, message and body as sent in the request's version", async () => {
    const f = await seedAccount();
    const missing = await api(`/v2/customers/cus_nobody/accounts/${f.accountId}/statements`, {
      key: f.key,
      headers: { "x-request-id": newRequestId() },
    });
    expect(missing.status).toBe(404);
    const body = await missing.text();
    const row = await loggedRequest(requestIdOf(missing));
    expect(row).toMatchObject({
      status: 404,
      status_class: 4,
      error_type: "CUSTOMER_NOT_FOUND_ERROR",
      error_message: 'No such customer: "cus_nobody"',
      response_body: body,
      version: OLDEST,
    });
  });

  it("records a refused version with the refusal, and no version", async () => {
    const f = await seedAccount();
    const res = await api(statementsPath(f), { key: f.key, version: "1999-01-01" });
    expect(res.status).toBe(400);
    const row = await loggedRequest(requestIdOf(res));
    expect(row).toMatchObject({
      status: 400,
      error_type: "BAD_REQUEST_ERROR",
      version: null,
      version_source: null,
      route: STATEMENTS_ROUTE,
    });
    expect(row.error_message).toContain('"1999-01-01"');
  });

  it("keeps a write's body with its secrets redacted, and no success body", async () => {
    const f = await seedAccount();
    const created = await api("/v2/keys", {
      key: f.key,
      method: "POST",
      body: { name: "nightly" },
      headers: { "x-request-id": newRequestId() },
    });
    const minted = await expectJson<{ api_key: string }>(created, 201);
    const refused = await api(`/v2/customers/${f.customerId}/link`, {
      key: f.key,
      method: "POST",
      body: {
        partner_customer_id: "p-1",
        api_key: minted.api_key,
        client_secret: "s3cr3t",
        nested: { refresh_token: "rt-123", note: `key ${minted.api_key} and whsec_abc123` },
      },
    });
    expect(refused.status).toBe(400);
    const [row, kept] = await Promise.all(
      [created, refused].map((res) => loggedRequest(requestIdOf(res))),
    );
    if (!row || !kept) throw new Error("not logged");
    expect(JSON.parse(row.request_body ?? "")).toEqual({ name: "nightly" });
    // The answer held the new key: a success body is never kept.
    expect(row.response_body).toBeNull();
    expect(JSON.stringify(row)).not.toContain(minted.api_key);
    expect(JSON.parse(kept.request_body ?? "")).toEqual({
      partner_customer_id: "p-1",
      api_key: "[REDACTED]",
      client_secret: "[REDACTED]",
      nested: { refresh_token: "[REDACTED]", note: "key [REDACTED] and [REDACTED]" },
    });
    expect(kept.response_body).toBe(await refused.text());
    expect(JSON.stringify(kept)).not.toContain(minted.api_key);
    expect(JSON.stringify(kept)).not.toContain("s3cr3t");
  });

  it("masks credentials in a body that is not JSON, and in the query", async () => {
    const f = await seedAccount();
    const link = `/v2/customers/${f.customerId}/link`;
    const [form, text, query] = await Promise.all([
      api(link, {
        key: f.key,
        method: "POST",
        body: "partner_customer_id=p-2&password=hunter2",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      api(link, {
        key: f.key,
        method: "POST",
        body: 'oops {"secret": "abc", token=xyz, Bearer sk_live_123',
        headers: { "content-type": "text/plain" },
      }),
      api(`${statementsPath(f)}?limit=1&api_key=sk_live_abc&note=ok`, { key: f.key }),
    ]);
    expect([form.status, text.status]).toEqual([400, 400]);
    const [formRow, textRow, queryRow] = await Promise.all(
      [form, text, query].map((res) => loggedRequest(requestIdOf(res))),
    );
    expect(formRow?.request_body).toBe("partner_customer_id=p-2&password=%5BREDACTED%5D");
    expect(textRow?.request_body).toBe('oops {"secret": [REDACTED], token=[REDACTED], [REDACTED]');
    expect(queryRow?.path).toBe(`${statementsPath(f)}?limit=1&api_key=%5BREDACTED%5D&note=ok`);
  });

  it("keeps the path as sent: percent-escapes as they came, an empty query dropped", async () => {
    const f = await seedAccount({ statements: 1 });
    const escaped = statementsPath(f).replace("/statements", "/st%61tements%2Fx");
    const [bare, odd] = await Promise.all([
      api(`${statementsPath(f)}?`, { key: f.key }),
      api(`${escaped}?note=a.b`, { key: f.key }),
    ]);
    expect([bare.status, odd.status]).toEqual([200, 404]);
    const [bareRow, oddRow] = await Promise.all(
      [bare, odd].map((res) => loggedRequest(requestIdOf(res))),
    );
    expect(bareRow?.path).toBe(statementsPath(f));
    expect(oddRow?.path).toBe(`${escaped}?note=a.b`);
    expect(oddRow?.route).toBe("(unmatched)");
  });

  it("cuts a long body, and keeps only the size of one too large to read", async () => {
    const f = await seedAccount();
    const link = `/v2/customers/${f.customerId}/link`;
    const [long, huge] = await Promise.all(
      [20_000, 100_000].map((length) =>
        api(link, {
          key: f.key,
          method: "POST",
          body: { partner_customer_id: "x".repeat(length) },
        }),
      ),
    );
    expect(long?.status).toBe(400);
    const [longRow, hugeRow] = await Promise.all(
      [long, huge].map((res) => loggedRequest(requestIdOf(res as Response))),
    );
    const kept = longRow?.request_body ?? "";
    expect(kept.startsWith('{"partner_customer_id":"xxx')).toBe(true);
    expect(kept).toMatch(/… \(cut: \d+ more bytes\)$/);
    expect(kept.length).toBeLessThan(8 * 1024 + 64);
    expect(hugeRow?.request_body).toMatch(/^\[body of (\d+|more than \d+) bytes: not kept\]$/);
  });

  it("records the Idempotency-Key as a short hash of it, never the key, and marks a replay", async () => {
    const f = await seedAccount();
    const idempotencyKey = crypto.randomUUID();
    const send = () =>
      api("/v2/keys", {
        key: f.key,
        method: "POST",
        headers: { "Idempotency-Key": idempotencyKey },
      });
    const first = await send();
    const again = await send();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // What `printf %s "$KEY" | sha256sum | cut -c1-16` prints.
    const digest = [
      ...new Uint8Array(
        await crypto.subtle.digest("SHA-256", new TextEncoder().encode(idempotencyKey)),
      ),
    ]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("")
      .slice(0, 16);
    const firstRow = await loggedRequest(requestIdOf(first));
    expect(JSON.stringify(firstRow)).not.toContain(idempotencyKey);
    expect(firstRow).toMatchObject({
      idempotency_key: digest,
      idempotent_replayed: 0,
      status: 201,
    });
    expect(await loggedRequest(requestIdOf(again))).toMatchObject({
      idempotency_key: digest,
      idempotent_replayed: 1,
      status: 201,
      response_body: null,
    });
  });
});

/** A D1 binding that counts the calls made through it (prepare, batch, withSession). */
function countingDatabase(binding: D1Database): { db: D1Database; calls: () => number } {
  let calls = 0;
  const count = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (property === "batch" || property === "prepare") calls += 1;
          const result = value.apply(object, args);
          return property === "withSession" ? count(result) : result;
        };
      },
    });
  return { db: count(binding), calls: () => calls };
}

/** GET `path` with `key` from `service`, its request log sent to `queue`. */
async function readPage(
  service: typeof app,
  path: string,
  key: string,
  queue: Queue,
  ctx: ExecutionContext,
): Promise<Response> {
  return service.fetch(
    new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${key}` } }),
    { ...env, REQUEST_LOGS: queue },
    ctx,
  );
}

describe("recording costs the request nothing", () => {
  it("makes no D1 call of its own and never waits for the queue", async () => {
    const f = await seedAccount({ statements: 3 });
    // The key's last-used day is written on its first request of the day: done here first.
    await api(statementsPath(f), { key: f.key });
    const sent: string[] = [];
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queue = {
      async send(body: string) {
        sent.push(body);
        await stalled;
      },
    } as unknown as Queue;
    const shard = await shardOf(f.partnerId);
    const counted = countingDatabase(shardDatabase(shard));
    const ctx = executionContext();
    const res = await app.fetch(
      new Request(`${BASE}${statementsPath(f, "?limit=2")}`, {
        headers: { authorization: `Bearer ${f.key}` },
      }),
      { ...env, [`DB_${shard}`]: counted.db, REQUEST_LOGS: queue },
      ctx,
    );
    // The response is out while the queue has not answered.
    expect(res.status).toBe(200);
    const inRequest = counted.calls();
    expect(inRequest).toBe(1);
    await Promise.resolve();
    release();
    await ctx.settled();
    expect(counted.calls()).toBe(inRequest);
    const [message] = sent;
    const records = JSON.parse(message ?? "[]") as RequestLogRecord[];
    expect(records.map((r) => r.request_id)).toEqual([requestIdOf(res)]);
    expect(records[0]).toMatchObject({ d1_round_trips: 1, d1_rows_read: 6, status: 200 });
  });

  it("sends the records of overlapping requests together", async () => {
    const f = await seedAccount({ statements: 1 });
    await api(statementsPath(f), { key: f.key });
    const { queue, sent } = keptQueue(20);
    const ctx = executionContext();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => readPage(app, statementsPath(f), f.key, queue, ctx)),
    );
    await ctx.settled();
    const ids = sent.flatMap((m) => (JSON.parse(m) as RequestLogRecord[]).map((r) => r.request_id));
    expect(ids.sort()).toEqual(responses.map(requestIdOf).sort());
    expect(sent.length).toBeLessThan(8);
  });

  it("sends the records of requests that end a moment apart in one message", async () => {
    const f = await seedAccount({ statements: 1 });
    await api(statementsPath(f), { key: f.key });
    const { queue, sent } = keptQueue();
    // A window long enough for a loaded machine; the service's own is 50 ms.
    const gathering = createApp(bundle, { requestLogGatherMs: 2_000 });
    const contexts = [executionContext(), executionContext(), executionContext()];
    const responses: Response[] = [];
    // One request after another, none overlapping: the first record waits for the others.
    for (const ctx of contexts) {
      responses.push(await readPage(gathering, statementsPath(f), f.key, queue, ctx));
    }
    // The first request keeps the send alive until the records that joined it are sent too.
    await contexts[0]?.settled();
    expect(sent).toHaveLength(1);
    const ids = (JSON.parse(sent[0] ?? "[]") as RequestLogRecord[]).map((r) => r.request_id);
    expect(ids).toEqual(responses.map(requestIdOf));
  });
});

async function dayCount(partnerId: string): Promise<number> {
  return countOnEveryShard(
    "SELECT coalesce(sum(requests), 0) AS n FROM request_log_days WHERE partner_id = ?",
    partnerId,
  );
}

describe("the queue's consumer", () => {
  it("stores and counts a record once, however often it is delivered", async () => {
    const partnerId = uniqueId("partner");
    const one = logRecord(partnerId, new Date());
    const message = JSON.stringify([one]);
    const first = delivery([message, message]);
    await consumeRequestLogs(first, env);
    await consumeRequestLogs(delivery([message]), env);
    expect((await storedRequests(one.request_id)).length).toBe(1);
    expect(await dayCount(partnerId)).toBe(1);
  });

  it("acknowledges a delivery and drops what is not a record, saying so", async () => {
    const partnerId = uniqueId("partner");
    const good = logRecord(partnerId, new Date());
    const batch = delivery(["not json", JSON.stringify([{ log_id: 1 }, good]), "{}"]);
    await consumeRequestLogs(batch, env);
    const result = await getQueueResult(batch, createExecutionContext());
    expect([...result.explicitAcks].sort()).toEqual(["m0", "m1", "m2"]);
    expect(result.retryMessages).toEqual([]);
    expect((await storedRequests(good.request_id)).length).toBe(1);
    expect(await dayCount(partnerId)).toBe(1);
  });
  it("writes a partner's records on the shard it moved to, not the one the record names", async () => {
    const partnerId = uniqueId("partner");
    const [from, to] = SHARDS as [string, string];
    // What a finished move leaves on the shard it left: the partner's row, forwarding.
    await shardDatabase(from)
      .prepare(
        "INSERT INTO partners (partner_id, name, saved_version_sandbox, " +
          "saved_version_production, created_at, moved_to) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .bind(partnerId, "Moved", OLDEST, OLDEST, new Date().toISOString(), to)
      .run();
    const stayed = logRecord(uniqueId("partner"), new Date(), { shard: from });
    const moved = logRecord(partnerId, new Date(), { shard: from });
    await consumeRequestLogs(delivery([JSON.stringify([stayed, moved])]), env);
    const onShard = (shard: string, requestId: string) =>
      shardDatabase(shard)
        .prepare("SELECT count(*) AS n FROM request_logs WHERE request_id = ?")
        .bind(requestId)
        .first<number>("n");
    expect(await onShard(to, moved.request_id)).toBe(1);
    expect(await onShard(from, moved.request_id)).toBe(0);
    expect(await onShard(from, stayed.request_id)).toBe(1);
  });

  it("asks for the delivery again when a shard cannot be written, still writing the others", async () => {
    const good = logRecord(uniqueId("partner"), new Date());
    // A shard code no database is bound as: its write fails.
    const stranded = logRecord(uniqueId("partner"), new Date(), { shard: "zz" });
    const batch = delivery([JSON.stringify([good, stranded])]);
    await consumeRequestLogs(batch, env);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["m0"]);
    expect((await storedRequests(good.request_id)).length).toBe(1);
    expect(await storedRequests(stranded.request_id)).toEqual([]);
  });
});

describe("retention", () => {
  it("keeps 30 days: the maintenance cron purges older requests and their daily counts", async () => {
    const partnerId = uniqueId("partner");
    const now = Date.now();
    const days = (n: number) => new Date(now - n * 86_400_000);
    const old = logRecord(partnerId, days(31));
    const kept = logRecord(partnerId, days(29));
    await consumeRequestLogs(delivery([JSON.stringify([old, kept])]), env);
    expect(await dayCount(partnerId)).toBe(2);
    await runMaintenance(
      createScheduledController({ scheduledTime: now, cron: "*/5 * * * *" }),
      env,
    );
    expect(await storedRequests(old.request_id)).toEqual([]);
    expect((await storedRequests(kept.request_id)).length).toBe(1);
    expect(await dayCount(partnerId)).toBe(1);
  });
});
