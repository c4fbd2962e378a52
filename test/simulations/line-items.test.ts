// A simulated cycle carries its line items, rate and year-to-date totals, as an imported statement
// does: made up to add up (purchases at merchants with their category codes, one abroad; the
// payment; interest an APR charged on the balance carried), split from totals that are asked
// for, or taken as given (their sums the totals, checked against the cycle), and read back
// through the line items route.
import { describe, expect, it } from "vitest";
import { api, type ErrorBody, expectJson } from "../support/api";
import { type Fixture, seedAccount } from "../support/fixtures";
import type { Json } from "../support/json";
import { allLineItems, statementPath } from "../support/line-items";

const TOTAL_OF: Record<string, string> = {
  PURCHASE: "purchases",
  PAYMENT: "payments",
  CREDIT: "credits",
  REFUND: "refunds",
  INTEREST: "interest",
  FEE: "fees",
};

function simulate(f: Fixture, what: string, body: unknown) {
  return api(`/v2/simulations/${what}`, { key: f.key, method: "POST", body });
}

async function sandboxAccount(f: Fixture) {
  const customer = await expectJson<Json>(await simulate(f, "customers", {}), 201);
  return {
    customerId: customer.customer_id as string,
    accountId: customer.accounts[0].account_id as string,
  };
}

/** The statement's line items add up: per type to its totals, and to the statement balance. */
async function expectLineItemsAddUp(
  f: Fixture,
  at: { customerId: string; accountId: string },
  s: Json,
) {
  const { items } = await allLineItems({ ...at, key: f.key }, s.statement_id);
  const sums: Record<string, number> = {};
  for (const item of items) {
    const total = TOTAL_OF[item.type] as string;
    sums[total] = (sums[total] ?? 0) + item.amount;
    expect(item.posted_at >= s.period_start_date && item.posted_at <= s.period_end_date).toBe(true);
  }
  for (const total of Object.values(TOTAL_OF)) expect(sums[total], total).toBe(s[total]);
  const all = items.reduce((n, item) => n + item.amount, 0);
  expect(s.previous_balance + all).toBe(s.statement_balance);
  return items;
}

describe("a simulated cycle's line items", () => {
  it("are made up to add up: merchants with category codes, the payment, interest from an APR", async () => {
    const f = await seedAccount();
    const at = await sandboxAccount(f);
    const body = { customer_id: at.customerId, account_id: at.accountId };
    let previousYtd: Json = null;
    for (let cycle = 0; cycle < 8; cycle++) {
      const s = await expectJson<Json>(await simulate(f, "statements", body), 201);
      const items = await expectLineItemsAddUp(f, at, s);
      const purchases = items.filter((i) => i.type === "PURCHASE");
      expect(purchases.length).toBeGreaterThan(0);
      for (const p of purchases) {
        expect(p.merchant?.category_code).toMatch(/^[0-9]{4}$/);
        expect(p.merchant?.name).toBeTruthy();
        expect(p.card_last4).toBe("4242");
      }
      // One purchase abroad, in its own currency.
      if (purchases.length > 1) {
        expect(purchases.some((p) => p.original_currency === "CHF" && p.original_amount)).toBe(
          true,
        );
      }
      if (s.previous_balance > 0) {
        expect(items.filter((i) => i.type === "PAYMENT")).toHaveLength(1);
      }
      if (s.interest !== undefined) {
        const [rate] = s.interest_rates;
        expect(rate).toMatchObject({ balance_type: "PURCHASES", annual_percentage_rate: "24.99" });
        expect(s.interest).toBe(
          Math.max(1, Math.round((rate.balance_subject_to_interest * 0.2499) / 12)),
        );
        expect(items.find((i) => i.type === "INTEREST")?.amount).toBe(s.interest);
      } else {
        expect(s.interest_rates).toBeUndefined();
      }
      // The year to date: this cycle's, plus the year's earlier cycles'.
      const year = s.period_end_date.slice(0, 4);
      const sameYear = previousYtd && previousYtd.year === year;
      expect(s.year_to_date).toEqual({
        fees: (sameYear ? previousYtd.fees : 0) + (s.fees ?? 0),
        interest: (sameYear ? previousYtd.interest : 0) + (s.interest ?? 0),
      });
      previousYtd = { ...s.year_to_date, year };
      // The statement reads back the same through the statement route.
      const read = await expectJson<Json>(
        await api(statementPath(at, s.statement_id), { key: f.key }),
        200,
      );
      expect(read.interest_rates).toEqual(s.interest_rates);
      expect(read.year_to_date).toEqual(s.year_to_date);
    }
  });

  it("are split from the totals asked for", async () => {
    const f = await seedAccount();
    const at = await sandboxAccount(f);
    const s = await expectJson<Json>(
      await simulate(f, "statements", {
        customer_id: at.customerId,
        account_id: at.accountId,
        purchases: 12345,
        refunds: -345,
        credits: -100,
        interest: 99,
        fees: 2500,
      }),
      201,
    );
    const items = await expectLineItemsAddUp(f, at, s);
    expect(new Set(items.map((i) => i.type))).toEqual(
      new Set(["PURCHASE", "REFUND", "CREDIT", "INTEREST", "FEE"]),
    );
    expect(s.interest_rates[0]).toMatchObject({ annual_percentage_rate: "24.99", interest: 99 });
  });

  it("are taken as given, their sums the cycle's totals", async () => {
    const f = await seedAccount();
    const at = await sandboxAccount(f);
    const given = [
      {
        line_item_id: "coffee",
        type: "PURCHASE",
        posted_at: "2026-05-03T08:15:00+02:00",
        description: "HARBOR COFFEE",
        amount: 450,
        merchant: { name: "Harbor Coffee", category_code: "5814", country: "US" },
      },
      {
        line_item_id: "books",
        type: "PURCHASE",
        posted_at: "2026-05-10T12:00:00Z",
        transaction_date: "2026-05-09T12:00:00Z",
        description: "PAGE TURNER BOOKS",
        amount: 2999,
        card_last4: "1881",
      },
      {
        line_item_id: "refund",
        type: "REFUND",
        posted_at: "2026-05-20T12:00:00Z",
        description: "PAGE TURNER BOOKS REFUND",
        amount: -999,
      },
    ];
    const body = {
      customer_id: at.customerId,
      account_id: at.accountId,
      period_end_date: "2026-05-31T23:59:59Z",
      purchases: 3449,
      line_items: given,
    };
    const s = await expectJson<Json>(await simulate(f, "statements", body), 201);
    expect(s).toMatchObject({ purchases: 3449, refunds: -999, statement_balance: 2450 });
    expect(s.payments).toBeUndefined();
    const items = await expectLineItemsAddUp(f, at, s);
    expect(items.map((i) => i.line_item_id)).toEqual(["coffee", "books", "refund"]);
    expect(items[0]?.posted_at).toBe("2026-05-03T06:15:00.000Z");
  });

  it("refuses given line items that do not fit the cycle, naming the field", async () => {
    const f = await seedAccount();
    const at = await sandboxAccount(f);
    const base = {
      customer_id: at.customerId,
      account_id: at.accountId,
      period_end_date: "2026-05-31T23:59:59Z",
    };
    const item = {
      line_item_id: "a",
      type: "PURCHASE",
      posted_at: "2026-05-10T12:00:00Z",
      description: "SHOP",
      amount: 100,
    };
    for (const [line_items, extra, fragment] of [
      [
        [item],
        { purchases: 150 },
        "purchases is 150 but its line items sum to 100: a difference of 50",
      ],
      [[item, item], {}, 'line_items[1].line_item_id repeats "a"'],
      [
        [{ ...item, posted_at: "2026-06-01T00:00:00Z" }],
        {},
        "line_items[0].posted_at must be inside the cycle",
      ],
      [[{ ...item, amount: -100 }], {}, "must not be negative: a PURCHASE is a charge"],
      [
        [{ ...item, type: "PAYMENT" }],
        {},
        "must not be positive: a PAYMENT is money credited back",
      ],
      [
        [{ ...item, merchant: { name: "X", category_code: "12" } }],
        {},
        "must be a 4-digit merchant category code",
      ],
      [[{ ...item, original_amount: 90 }], {}, "send both or neither"],
    ] as const) {
      const res = await simulate(f, "statements", { ...base, ...extra, line_items });
      const body = await expectJson<ErrorBody & Json>(res, 400);
      const details: string[] = body.details ?? body.error.details;
      expect(details.join(" "), fragment).toContain(fragment);
    }
  });
});
