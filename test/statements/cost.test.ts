// What a statements page costs in D1, on every shard, read from the Worker's per-request log line:
// one round trip (two only for a not-found) and at most limit + 4 rows read, on the first page and
// deep in a long listing, with key expiry checked and the key's last-used day kept (one write
// after the response, on a key's first request of a day).
// (The timed arms live in bench/; these bounds are deterministic, so they run with every test.)
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api, expectJson, operator } from "../support/api";
import {
  createKey,
  type Fixture,
  importData,
  monthlyStatement,
  type StatementInput,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import { SHARDS, shardOf } from "../support/shards";

interface RequestLog {
  request_id: string;
  status: number;
  d1_queries: number;
  d1_rows_read: number;
  d1_deferred_writes: number;
}

interface DeferredLog {
  request_id: string;
  deferred_write: string;
  rows_read: number;
  rows_written: number;
}

interface Page {
  data: { statement_id: string }[];
  has_more: boolean;
  next_page_token?: string;
}

const STATEMENTS = 1000;
/** The deep pages start after this many statements, with a full page of 100 and more beyond. */
const DEEP = 800;

/** One statement a day from 2020-01-01: enough closed cycles for a long listing. */
function dailyStatement(accountId: string, day: number): StatementInput {
  const start = Date.UTC(2020, 0, 1) + day * 86_400_000;
  return {
    statement_id: `${accountId}_d${String(day).padStart(4, "0")}`,
    account_id: accountId,
    period_start_date: new Date(start).toISOString(),
    period_end_date: new Date(start + 86_399_000).toISOString(),
    currency: "USD",
    statement_balance: 1000 + day,
    purchases: 1000 + day,
  };
}

let sequence = 0;

/** Rows read by a filtered page 600 statements deep, per limit (printed for the record). */
const filteredDeepRows: Record<string, number> = {};
afterAll(() => {
  if (Object.keys(filteredDeepRows).length > 0) {
    console.info(`rows read by a filtered page 600 deep: ${JSON.stringify(filteredDeepRows)}`);
  }
});

/** Every line the Worker logs while this file runs (request lines and deferred-write lines). */
const logged: string[] = [];

beforeAll(() => {
  vi.spyOn(console, "log").mockImplementation((line: unknown) => {
    logged.push(typeof line === "string" ? line : "");
  });
});

afterAll(() => {
  vi.restoreAllMocks();
});

/** The request's own log line (the one with its D1 figures). */
function requestLog(requestId: string): RequestLog {
  const line = logged.find(
    (text) => text.includes(`"request_id":"${requestId}"`) && text.includes('"d1_queries"'),
  );
  if (line === undefined) throw new Error(`no log line for request ${requestId}`);
  return JSON.parse(line) as RequestLog;
}

/** Sends a statements request and returns its body with the log line the Worker printed for it. */
async function pageWithLog(
  f: Fixture,
  query: string,
  key = f.key,
): Promise<{ page: Page; log: RequestLog; requestId: string }> {
  sequence += 1;
  const requestId = `cost-${sequence}-${Date.now()}`;
  const res = await api(statementsPath(f, query), {
    key,
    headers: { "x-request-id": requestId },
  });
  const page = await expectJson<Page>(res, 200);
  return { page, log: requestLog(requestId), requestId };
}

/** Waits for the line the deferred last-used write of a request logs once it has landed. */
async function deferredLog(requestId: string): Promise<DeferredLog> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const line = logged.find(
      (text) => text.includes(`"request_id":"${requestId}"`) && text.includes('"deferred_write":'),
    );
    if (line) return JSON.parse(line) as DeferredLog;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no deferred write logged for ${requestId}`);
}

// The same bounds on every shard: a partner pays the same wherever it lives.
describe.each(SHARDS)("cost of a statements page on shard %s", (shard) => {
  let f: Fixture;
  /** A page token positioned after the first DEEP statements. */
  let deepToken: string;

  beforeAll(async () => {
    f = await seedAccount({ shard });
    expect(await shardOf(f.partnerId)).toBe(shard);
    await importData({
      statements: Array.from({ length: STATEMENTS }, (_, day) => dailyStatement(f.accountId, day)),
    });
    // Hidden statements inside the deep window must not cost reads (the page index skips them).
    for (const day of ["0150", "0151", "0152"]) {
      const res = await operator("POST", `/statements/${f.accountId}_d${day}/hide`);
      expect(res.status).toBe(204);
    }
    let token: string | undefined;
    for (let seen = 0; seen < DEEP; seen += 100) {
      const query = `?limit=100${token ? `&starting_after=${token}` : ""}`;
      const { page } = await pageWithLog(f, query);
      expect(page.data).toHaveLength(100);
      token = page.next_page_token;
    }
    deepToken = token as string;
  });

  for (const limit of [10, 100]) {
    describe(`at limit=${limit}`, () => {
      it("reads at most limit + 4 rows in one round trip on the first page", async () => {
        const { page, log } = await pageWithLog(f, `?limit=${limit}`);
        expect(page.data).toHaveLength(limit);
        expect(page.has_more).toBe(true);
        expect(log.status).toBe(200);
        expect(log.d1_queries).toBe(1);
        expect(log.d1_rows_read).toBeLessThanOrEqual(limit + 4);
      });

      it(`reads at most limit + 4 rows in one round trip ${DEEP} statements deep`, async () => {
        const { page, log } = await pageWithLog(f, `?limit=${limit}&starting_after=${deepToken}`);
        expect(page.data).toHaveLength(limit);
        expect(page.has_more).toBe(true);
        expect(log.d1_queries).toBe(1);
        expect(log.d1_rows_read).toBeLessThanOrEqual(limit + 4);
      });

      it("reads exactly as many rows deep in the listing as on the first page", async () => {
        const first = await pageWithLog(f, `?limit=${limit}`);
        const deep = await pageWithLog(f, `?limit=${limit}&starting_after=${deepToken}`);
        expect(deep.log.d1_rows_read).toBe(first.log.d1_rows_read);
        expect(deep.log.d1_queries).toBe(first.log.d1_queries);
      });
    });
  }

  describe("with the key's last-used day", () => {
    for (const limit of [10, 100]) {
      it(`adds no round trip at limit=${limit}: one write after the response, once a day`, async () => {
        // A key of its own, never used: its first request of the day schedules the write.
        const { apiKey } = await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"]);
        const first = await pageWithLog(f, `?limit=${limit}`, apiKey);
        expect(first.log.d1_queries).toBe(1);
        expect(first.log.d1_rows_read).toBeLessThanOrEqual(limit + 4);
        expect(first.log.d1_deferred_writes).toBe(1);
        // The deferred write logs its own cost once it has landed: one row, by primary key.
        const deferred = await deferredLog(first.requestId);
        expect(deferred).toMatchObject({
          deferred_write: "api_keys.last_used_on",
          rows_written: 1,
        });
        expect(deferred.rows_read).toBeLessThanOrEqual(1);

        // The rest of the day: the key lookup already holds today, so nothing is written.
        const later = await pageWithLog(f, `?limit=${limit}`, apiKey);
        expect(later.log.d1_queries).toBe(1);
        expect(later.log.d1_rows_read).toBe(first.log.d1_rows_read);
        expect(later.log.d1_deferred_writes).toBe(0);
      });
    }

    it("writes again on the key's first request of the next day", async () => {
      const { apiKey } = await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"]);
      const today = await pageWithLog(f, "?limit=10", apiKey);
      await deferredLog(today.requestId);
      vi.useFakeTimers({ toFake: ["Date"] });
      try {
        vi.setSystemTime(Date.now() + 86_400_000);
        const tomorrow = await pageWithLog(f, "?limit=10", apiKey);
        expect(tomorrow.log.d1_deferred_writes).toBe(1);
        expect(tomorrow.log.d1_queries).toBe(1);
        await deferredLog(tomorrow.requestId);
        const again = await pageWithLog(f, "?limit=10", apiKey);
        expect(again.log.d1_deferred_writes).toBe(0);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  it("reads no more rows when statements hidden inside the page are skipped", async () => {
    // Newest first, so the deep token sits after day 200; 40 more reach day 160, right above the
    // hidden days 150..152.
    const above = await pageWithLog(f, `?limit=40&starting_after=${deepToken}`);
    expect(above.page.data.at(-1)?.statement_id).toBe(`${f.accountId}_d0160`);
    const token = above.page.next_page_token as string;
    const { page, log } = await pageWithLog(f, `?limit=10&starting_after=${token}`);
    expect(page.data.map((s) => s.statement_id.slice(f.accountId.length + 1))).toEqual([
      "d0159",
      "d0158",
      "d0157",
      "d0156",
      "d0155",
      "d0154",
      "d0153",
      "d0149",
      "d0148",
      "d0147",
    ]);
    expect(log.d1_queries).toBe(1);
    expect(log.d1_rows_read).toBeLessThanOrEqual(10 + 4);
  });

  it("reads no statement for a key that is not live: the page rides on the key's row", async () => {
    const { apiKey, keyId } = await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"]);
    expect((await operator("DELETE", `/keys/${keyId}`)).status).toBe(204);
    const res = await api(statementsPath(f, "?limit=100"), {
      key: apiKey,
      headers: { "x-request-id": `cost-revoked-${shard}` },
    });
    expect(res.status).toBe(401);
    const log = requestLog(`cost-revoked-${shard}`);
    expect(log.d1_queries).toBe(1);
    // At most the revoked key's own row: none of the account's statements.
    expect(log.d1_rows_read).toBeLessThanOrEqual(1);
  });

  describe("filtered by period end date", () => {
    /** Days 100..899: 800 statements, three of them hidden. */
    const day = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 86_400_000).toISOString();
    const FILTER = `&period_end_date_gte=${day(100)}&period_end_date_lt=${day(900)}`;
    /** A token 600 statements deep into the filtered listing. */
    let deepFiltered: string;

    beforeAll(async () => {
      let token: string | undefined;
      for (let seen = 0; seen < 600; seen += 100) {
        const query = `?limit=100${FILTER}${token ? `&starting_after=${token}` : ""}`;
        const { page } = await pageWithLog(f, query);
        expect(page.data).toHaveLength(100);
        token = page.next_page_token;
      }
      deepFiltered = token as string;
    });

    for (const limit of [10, 100]) {
      it(`reads at most limit + 4 rows in one round trip, first and 600 deep, at limit=${limit}`, async () => {
        const first = await pageWithLog(f, `?limit=${limit}${FILTER}`);
        expect(first.page.data[0]?.statement_id).toBe(`${f.accountId}_d0899`);
        const deep = await pageWithLog(
          f,
          `?limit=${limit}${FILTER}&starting_after=${deepFiltered}`,
        );
        expect(deep.page.data).toHaveLength(limit);
        for (const { log } of [first, deep]) {
          expect(log.d1_queries).toBe(1);
          expect(log.d1_rows_read).toBeLessThanOrEqual(limit + 4);
        }
        filteredDeepRows[`${shard}@${limit}`] = deep.log.d1_rows_read;
      });
    }

    it("stops at the lower bound: the last page reads nothing below it", async () => {
      // After 600 of the 797 visible statements, 197 remain: the second page from here is the
      // last, with 97 statements; below it lie 100 older statements the filter excludes.
      const next = await pageWithLog(f, `?limit=100${FILTER}&starting_after=${deepFiltered}`);
      const last = await pageWithLog(
        f,
        `?limit=100${FILTER}&starting_after=${next.page.next_page_token}`,
      );
      expect(last.page.data).toHaveLength(97);
      expect(last.page.data.at(-1)?.statement_id).toBe(`${f.accountId}_d0100`);
      expect(last.page.has_more).toBe(false);
      expect(last.log.d1_queries).toBe(1);
      expect(last.log.d1_rows_read).toBeLessThanOrEqual(100 + 4);
    });
  });

  it("pays a second round trip only to name the id that is not found", async () => {
    const path = statementsPath({ customerId: f.customerId, accountId: "acc_unknown" });
    const requestId = `cost-not-found-${shard}`;
    const res = await api(path, { key: f.key, headers: { "x-request-id": requestId } });
    expect(res.status).toBe(404);
    const log = requestLog(requestId);
    expect(log.d1_queries).toBe(2);
    expect(log.d1_rows_read).toBeLessThanOrEqual(4);
  });
});

// A page token proves that its listing was authorised when the first page was served. Whatever a
// continuation page skips to save reads, the token must not open another product's customers.
describe("page tokens and products", () => {
  it("never serves a customer's statements under another product's merchant key", async () => {
    const partnerId = uniqueId("partner");
    const [productA, productB] = [uniqueId("mk"), uniqueId("mk")];
    const customerId = uniqueId("cus");
    const accountId = uniqueId("acc");
    await importData({
      partners: [
        {
          partner_id: partnerId,
          name: "Two Products",
          products: [
            { merchant_key: productA, name: "Card A", documents: "uploaded" },
            { merchant_key: productB, name: "Card B", documents: "uploaded" },
          ],
        },
      ],
      customers: [
        {
          customer_id: customerId,
          partner_id: partnerId,
          environment: "sandbox",
          merchant_key: productA,
        },
      ],
      accounts: [{ account_id: accountId, customer_id: customerId }],
      statements: Array.from({ length: 12 }, (_, i) => monthlyStatement(accountId, i + 1)),
    });
    const { apiKey } = await createKey(partnerId, "sandbox", ["ACCOUNT_READ"]);
    const path = statementsPath({ customerId, accountId });
    const first = await expectJson<Page>(
      await api(`${path}?limit=5`, { key: apiKey, merchantKey: productA }),
      200,
    );
    expect(first.next_page_token).toBeDefined();

    const res = await api(`${path}?limit=5&starting_after=${first.next_page_token}`, {
      key: apiKey,
      merchantKey: productB,
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect([400, 404]).toContain(res.status);
    expect(body).not.toHaveProperty("data");
  });
});
