// No work before authentication: a key that is not live reads no statement, account or customer
// row, while a valid statements page stays at one round trip and limit + 4 rows. The expected
// figures are counted here from the data, row by row, and compared exactly with the request log,
// so a log that under-reports fails as surely as a request that over-reads.
import { describe, expect, it, vi } from "vitest";
import { generateApiKey } from "../../src/domain/api-keys";
import { api, expectJson, operator } from "../support/api";
import { seedAccount, statementsPath } from "../support/fixtures";
import type { RequestLog } from "../support/request-log";
import { shardOf } from "../support/shards";

/** Rows a statements request reads, counted from what it must visit. */
const ROWS = {
  /** The key's row: found through its hash, then found revoked. */
  key: 1,
  /** The key's partner (saved versions, products). */
  partner: 1,
  /** The account's row, which names its owner (first pages only). */
  account: 1,
  /** A continuation's seek lands on the token's own row, then steps past it. */
  tokenRow: 1,
};

let sequence = 0;

/** Sends a partner request and returns it with the log line of exactly that request. */
async function measured(path: string, key: string) {
  sequence += 1;
  const requestId = `auth-reads-${sequence}-${Date.now()}`;
  const { res, lines } = await withLogLines(() =>
    api(path, { key, headers: { "x-request-id": requestId } }),
  );
  const line = lines.find((text) => text.includes(`"request_id":"${requestId}"`));
  if (line === undefined) throw new Error(`no log line for request ${requestId}`);
  return { res, log: JSON.parse(line) as RequestLog };
}

async function withLogLines(send: () => Promise<Response>) {
  const spy = vi.spyOn(console, "log");
  try {
    const res = await send();
    return { res, lines: spy.mock.calls.map(([first]) => String(first)) };
  } finally {
    spy.mockRestore();
  }
}

describe("reads before authentication", () => {
  it("reads no row at all for a well-formed key that does not exist", async () => {
    const f = await seedAccount({ statements: 12 });
    const unknown = generateApiKey("sandbox", await shardOf(f.partnerId));
    const { res, log } = await measured(statementsPath(f), unknown);
    expect(res.status).toBe(401);
    expect(log.d1_queries).toBe(1);
    expect(log.d1_rows_read).toBe(0);
  });

  it("reads only the key's own row for a revoked key", async () => {
    const f = await seedAccount({ statements: 12 });
    expect((await operator("DELETE", `/keys/${f.keyId}`)).status).toBe(204);
    for (const query of ["", "?limit=3"]) {
      const { res, log } = await measured(statementsPath(f, query), f.key);
      expect(res.status).toBe(401);
      expect(log.d1_queries).toBe(1);
      expect(log.d1_rows_read).toBe(ROWS.key);
    }
  });

  it("reads only the key's own row for a revoked key continuing a listing", async () => {
    const f = await seedAccount({ statements: 12 });
    const first = await expectJson<{ next_page_token: string }>(
      await api(statementsPath(f, "?limit=3"), { key: f.key }),
      200,
    );
    expect((await operator("DELETE", `/keys/${f.keyId}`)).status).toBe(204);
    const { res, log } = await measured(
      statementsPath(f, `?limit=3&starting_after=${first.next_page_token}`),
      f.key,
    );
    expect(res.status).toBe(401);
    expect(log.d1_rows_read).toBe(ROWS.key);
  });

  it("reads nothing for a key whose checksum fails, not even the lookup", async () => {
    const f = await seedAccount({ statements: 1 });
    const forged = `${f.key.slice(0, -1)}${f.key.endsWith("A") ? "B" : "A"}`;
    const { res, log } = await measured(statementsPath(f), forged);
    expect(res.status).toBe(401);
    expect(log.d1_queries).toBe(0);
    expect(log.d1_rows_read).toBe(0);
  });

  it("reads the key, partner, account and limit + 1 statements for a valid first page", async () => {
    const f = await seedAccount({ statements: 12 });
    for (const limit of [1, 5, 10]) {
      const { res, log } = await measured(statementsPath(f, `?limit=${limit}`), f.key);
      const page = await expectJson<{ data: unknown[]; has_more: boolean }>(res, 200);
      expect(page.data).toHaveLength(limit);
      expect(log.d1_queries).toBe(1);
      expect(log.d1_rows_read).toBe(ROWS.key + ROWS.partner + ROWS.account + limit + 1);
      expect(log.d1_rows_read).toBe(limit + 4);
    }
  });

  it("reads the key, partner, the token's row and limit + 1 statements on a continuation", async () => {
    const f = await seedAccount({ statements: 12 });
    const first = await expectJson<{ next_page_token: string }>(
      await api(statementsPath(f, "?limit=4"), { key: f.key }),
      200,
    );
    const { res, log } = await measured(
      statementsPath(f, `?limit=4&starting_after=${first.next_page_token}`),
      f.key,
    );
    expect((await expectJson<{ data: unknown[] }>(res, 200)).data).toHaveLength(4);
    expect(log.d1_queries).toBe(1);
    expect(log.d1_rows_read).toBe(ROWS.key + ROWS.partner + ROWS.tokenRow + 4 + 1);
  });

  it("reads no customer or account row on other routes for a key that does not exist", async () => {
    const f = await seedAccount({ statements: 1 });
    const unknown = generateApiKey("sandbox", await shardOf(f.partnerId));
    for (const path of [
      `/v2/customers/${f.customerId}/accounts`,
      `/v2/customers/${f.customerId}`,
      "/v2/customers",
    ]) {
      const { res, log } = await measured(path, unknown);
      expect(res.status).toBe(401);
      expect(log.d1_rows_read).toBe(0);
    }
  });
});
