// What a page of the card programme's lists costs in D1, read from the Worker's per-request log
// line as test/statements/cost.test.ts reads a statements page's: the rows the reference and
// docs/scale.md state (the key lookup's, the customer's where the list checks it, and the page's
// `limit + 1`), at limit 10 and 100, and an order event create's writes in one batch.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api, expectJson } from "../support/api";
import { cardItem, importCards } from "../support/cards";
import { type Fixture, seedAccount } from "../support/fixtures";

interface RequestLog {
  status: number;
  d1_queries: number;
  d1_rows_read: number;
  d1_rows_written: number;
}

/** More than the largest page, so that every page is full and has more after it. */
const ROWS = 105;
const SCOPES = ["ORDER_READ", "ORDER_WRITE", "TRANSACTION_INTENT_READ", "TRANSACTION_INTENT_WRITE"];

const logged: string[] = [];
beforeAll(() => {
  vi.spyOn(console, "log").mockImplementation((line: unknown) => {
    logged.push(typeof line === "string" ? line : "");
  });
});
afterAll(() => {
  vi.restoreAllMocks();
});

let sequence = 0;

/** Sends a request and answers its status, body and the Worker's log line of its D1 figures. */
async function withLog(
  f: Fixture,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: { data?: unknown[]; has_more?: boolean }; log: RequestLog }> {
  sequence += 1;
  const requestId = `list-cost-${sequence}-${Date.now()}`;
  const res = await api(path, { key: f.key, headers: { "x-request-id": requestId }, ...init });
  const body = (await res.json()) as { data?: unknown[]; has_more?: boolean };
  const line = logged.find(
    (text) => text.includes(`"request_id":"${requestId}"`) && text.includes('"d1_queries"'),
  );
  if (line === undefined) throw new Error(`no log line for request ${requestId}`);
  return { status: res.status, body, log: JSON.parse(line) as RequestLog };
}

describe("the card programme's lists and writes in D1", () => {
  let f: Fixture;
  let orderId: string;

  beforeAll(async () => {
    f = await seedAccount({ scopes: SCOPES });
    await importCards(...Array.from({ length: ROWS }, () => cardItem(f)));
    for (let n = 0; n < ROWS; n++) {
      const order = await api("/v2/orders", {
        key: f.key,
        method: "POST",
        body: {
          partner_order_id: `cost_${n}`,
          customer_id: f.customerId,
          currency: "USD",
          total_amount: 1_000,
        },
      });
      orderId = (await expectJson<{ order_id: string }>(order, 201)).order_id;
      const intent = await api("/v2/transaction_intents", {
        key: f.key,
        method: "POST",
        body: { customer_id: f.customerId, amount: 1_000, currency: "USD" },
      });
      expect(intent.status).toBe(201);
    }
    // Two hundred and ten writes: longer than a hook's default on a busy machine.
  }, 120_000);

  // Beyond the page's `limit + 1` rows: the key and its partner, and the customer where the list
  // checks it (the cards and intents lists); on a continuation, what reading the cursor costs (the
  // cards list finds its card by its key, index entry and row; the others page from the id).
  const lists = [
    ["payment methods", 3, 2, (f: Fixture) => `/v2/payment_methods?customer_id=${f.customerId}&`],
    ["orders", 2, 0, () => "/v2/orders?"],
    [
      "a customer's intents",
      3,
      0,
      (f: Fixture) => `/v2/customers/${f.customerId}/transaction_intents?`,
    ],
  ] as const;
  for (const [name, beyond, cursor, path] of lists) {
    for (const limit of [10, 100]) {
      it(`${name}: a page of ${limit} reads at most limit + ${beyond + 1} rows in one round trip`, async () => {
        const { status, body, log } = await withLog(f, `${path(f)}limit=${limit}`);
        expect(status).toBe(200);
        expect(body.data).toHaveLength(limit);
        expect(body.has_more).toBe(true);
        // The page (with the customer's row where the list checks it) rides in the key lookup.
        expect(log.d1_queries).toBe(1);
        expect(log.d1_rows_read).toBeLessThanOrEqual(limit + 1 + beyond);
      });
    }
    it(`${name}: a continuation is one round trip as well, reading at most ${cursor} rows more`, async () => {
      const first = await withLog(f, `${path(f)}limit=10`);
      const last = first.body.data?.at(-1) as Record<string, string> | undefined;
      const id = last?.payment_method_id ?? last?.order_id ?? last?.intent_id;
      const { status, body, log } = await withLog(f, `${path(f)}limit=10&starting_after=${id}`);
      expect(status).toBe(200);
      expect(body.data).toHaveLength(10);
      expect(log.d1_queries).toBe(1);
      expect(log.d1_rows_read).toBeLessThanOrEqual(10 + 1 + beyond + cursor);
    });
  }

  it("an order event create writes its event, its order's sum and its budget's count in one batch", async () => {
    const { status, log } = await withLog(f, "/v2/order_events", {
      method: "POST",
      body: { order_id: orderId, type: "CAPTURED", amount: 10, network_transaction_id: "ntx_cost" },
    });
    expect(status).toBe(201);
    // The key lookup, then one batch: the event's insert (guarded by its order's room and, this
    // key being a sandbox key, by the partner's sandbox budgets; its currency read from the
    // order), the order's sum, today's usage row and the audit row. No read before the write: 18
    // rows read in all (the key lookup's, the guards' and the partner's usage rows of the expiry
    // window, here a few) and 11 written (the event's row and its index entries, the order's sum,
    // the usage row, the audit row).
    expect(log.d1_queries).toBe(2);
    expect(log.d1_rows_read).toBeLessThanOrEqual(18);
    expect(log.d1_rows_written).toBeLessThanOrEqual(11);
  });
});
