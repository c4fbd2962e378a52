// A sandbox cycle computes its rewards from its purchases' merchant category codes and the
// product's categories: each purchase in the category holding its code, else in the catch-all;
// points per whole dollar, or cash back in the account's currency; none without categories.
import { describe, expect, it } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { type Fixture, seedAccount } from "../support/fixtures";
import type { Json } from "../support/json";

function simulate(f: Fixture, what: string, body: unknown) {
  return api(`/v2/simulations/${what}`, { key: f.key, method: "POST", body });
}

async function sandboxAccount(f: Fixture) {
  const customer = await expectJson<Json>(await simulate(f, "customers", {}), 201);
  return {
    customer_id: customer.customer_id as string,
    account_id: customer.accounts[0].account_id as string,
  };
}

const purchase = (id: string, amount: number, code?: string) => ({
  line_item_id: id,
  type: "PURCHASE",
  posted_at: "2026-05-10T12:00:00Z",
  description: id.toUpperCase(),
  amount,
  ...(code ? { merchant: { name: id, category_code: code } } : {}),
});

/** A cycle of May 2026 with these purchases and a refund (which earns nothing). */
function cycleOf(at: { customer_id: string; account_id: string }) {
  const line_items = [
    purchase("bistro", 4250, "5812"),
    purchase("cafe", 799, "5814"),
    purchase("grocer", 10000, "5411"),
    purchase("books", 2999),
    { ...purchase("refund", -500), type: "REFUND" },
  ];
  return {
    ...at,
    period_end_date: "2026-05-31T23:59:59Z",
    purchases: 4250 + 799 + 10000 + 2999,
    refunds: -500,
    line_items,
  };
}

async function withCategories(f: Fixture, categories: unknown[]) {
  const res = await operator("PATCH", `/products/${f.merchantKey}`, {
    rewards_categories: categories,
  });
  expect(res.status).toBe(200);
}

describe("a simulated cycle's rewards", () => {
  it("earn points per whole dollar by category, the rest in the catch-all", async () => {
    const f = await seedAccount();
    await withCategories(f, [
      {
        category_id: "dining",
        name: "Dining",
        merchant_category_codes: ["5812", "5814"],
        earn_rate: "3",
        earn_unit: "POINTS_PER_DOLLAR",
      },
      {
        category_id: "groceries",
        name: "Groceries",
        merchant_category_codes: ["5411"],
        earn_rate: "1.5",
        earn_unit: "POINTS_PER_DOLLAR",
      },
      {
        category_id: "everything",
        name: "Everything else",
        merchant_category_codes: [],
        earn_rate: "1",
        earn_unit: "POINTS_PER_DOLLAR",
      },
    ]);
    const at = await sandboxAccount(f);
    const s = await expectJson<Json>(await simulate(f, "statements", cycleOf(at)), 201);
    // Dining: $50.49 × 3 = 151.47 → 151; groceries: $100 × 1.5 = 150; the books: $29.99 → 29.
    const rewards = {
      unit: "POINTS",
      earned: 330,
      by_category: [
        { category_id: "dining", earned: 151 },
        { category_id: "groceries", earned: 150 },
        { category_id: "everything", earned: 29 },
      ],
    };
    expect(s.rewards).toEqual(rewards);
    const path = `/v2/customers/${at.customer_id}/accounts/${at.account_id}/statements`;
    const read = await expectJson<Json>(
      await api(`${path}/${s.statement_id}`, { key: f.key }),
      200,
    );
    expect(read.rewards).toEqual(rewards);
  });

  it("earn cash back in the account's currency, nothing outside the categories", async () => {
    const f = await seedAccount();
    await withCategories(f, [
      {
        category_id: "groceries",
        name: "Groceries",
        merchant_category_codes: ["5411"],
        earn_rate: "5",
        earn_unit: "PERCENT_CASH_BACK",
      },
    ]);
    const at = await sandboxAccount(f);
    const s = await expectJson<Json>(await simulate(f, "statements", cycleOf(at)), 201);
    expect(s.currency).toBe("USD");
    expect(s.rewards).toEqual({
      unit: "USD",
      earned: 500,
      by_category: [{ category_id: "groceries", earned: 500 }],
    });
  });

  it("are left out when the product has no categories", async () => {
    const f = await seedAccount();
    const at = await sandboxAccount(f);
    const s = await expectJson<Json>(await simulate(f, "statements", cycleOf(at)), 201);
    expect(s).not.toHaveProperty("rewards");
  });
});
