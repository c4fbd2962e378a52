// Read replicas: every request is one D1 session whose first round trip reads the primary, so
// revocation, hiding and new imports are never served stale; the bookmark each response saw is
// logged, and it never goes back from one request to the next. (Locally there is one database
// instance: these tests hold the session rules and the bookmark handling, not replica routing.)
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { createKey, type Fixture, seedAccount, statementsPath } from "../support/fixtures";
import type { RequestLog } from "../support/request-log";
import { SHARDS, shardDatabase } from "../support/shards";
import { request } from "../support/worker";

interface Page {
  data: { statement_id: string }[];
}

let sequence = 0;

/** Runs `send` with a fresh request id and returns its response and that request's log line. */
async function logged(
  send: (headers: Record<string, string>) => Promise<Response>,
): Promise<{ res: Response; log: RequestLog }> {
  sequence += 1;
  const requestId = `replica-${sequence}-${Date.now()}`;
  const spy = vi.spyOn(console, "log");
  try {
    const res = await send({ "x-request-id": requestId });
    const line = spy.mock.calls
      .map(([first]) => (typeof first === "string" ? first : ""))
      .find((text) => text.includes(`"request_id":"${requestId}"`));
    if (line === undefined) throw new Error(`no log line for request ${requestId}`);
    return { res, log: JSON.parse(line) as RequestLog };
  } finally {
    spy.mockRestore();
  }
}

const bookmarkOf = (log: RequestLog) => {
  expect(log.d1_bookmark, JSON.stringify(log)).toEqual(expect.any(String));
  return log.d1_bookmark as string;
};

const read = (f: Fixture, key = f.key) =>
  logged((headers) => api(statementsPath(f), { key, headers }));

describe("D1 sessions", () => {
  let f: Fixture;

  beforeAll(async () => {
    f = await seedAccount({ statements: 3 });
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("opens every database a request touches in one first-primary session", async () => {
    const bindings = [...SHARDS.map(shardDatabase), env.DIRECTORY];
    const spies = bindings.map((binding) => vi.spyOn(binding, "withSession"));
    const calls = () => spies.flatMap((spy) => spy.mock.calls);
    const page = await expectJson<{ data: { pdf_url?: string }[] }>(
      await api(statementsPath(f, "?limit=1"), { key: f.key }),
      200,
    );
    await api(`/v2/customers/${f.customerId}/accounts`, { key: f.key });
    await operator("POST", "/import", {});
    await request("/files/statements/st_unknown/pdf?expires=1&signature=x");
    expect(page.data).toHaveLength(1);
    // Four requests (and the reference documents the contract check fetches), each opening the
    // shards it reads (the import every shard, and the directory) once each.
    expect(calls().length).toBeGreaterThanOrEqual(4);
    expect(new Set(calls().map((args) => args.join()))).toEqual(new Set(["first-primary"]));
  });

  it("logs the bookmark a response saw, and the next request never sees an older one", async () => {
    const first = await read(f);
    const second = await read(f);
    expect(bookmarkOf(second.log) >= bookmarkOf(first.log)).toBe(true);
  });

  it("serves a hide on the very next read: that read's bookmark is at least the write's", async () => {
    const before = await expectJson<Page>(await api(statementsPath(f), { key: f.key }), 200);
    const hidden = before.data[0]?.statement_id as string;
    const hide = await logged((headers) =>
      operator("POST", `/statements/${hidden}/hide`, undefined, headers),
    );
    expect(hide.res.status).toBe(204);
    const after = await read(f);
    const page = await expectJson<Page>(after.res, 200);
    expect(page.data.map((s) => s.statement_id)).not.toContain(hidden);
    expect(bookmarkOf(after.log) >= bookmarkOf(hide.log)).toBe(true);
  });

  it("fails a revoked key on the very next request, whose bookmark follows the revocation", async () => {
    const { apiKey, keyId } = await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"]);
    expect((await api(statementsPath(f), { key: apiKey })).status).toBe(200);
    const revoke = await logged((headers) =>
      operator("DELETE", `/keys/${keyId}`, undefined, headers),
    );
    expect(revoke.res.status).toBe(204);
    const next = await read(f, apiKey);
    expect(next.res.status).toBe(401);
    expect(bookmarkOf(next.log) >= bookmarkOf(revoke.log)).toBe(true);
  });

  it("counts no replica round trips against the local databases", async () => {
    const { log } = await read(f);
    expect(log.d1_replica_trips).toBe(0);
    expect(log.d1_queries).toBe(1);
  });
});
