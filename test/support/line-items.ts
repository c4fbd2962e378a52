// Statements that carry line items, rates and year-to-date totals whose figures add up, built for
// the operator import; and reading a statement's line items as a partner does.
import { expect } from "vitest";
import { api, expectJson } from "./api";
import type { StatementInput } from "./fixtures";

export type LineItemInput = NonNullable<StatementInput["line_items"]>[number];

export interface LineItemPage {
  data: (LineItemInput & Record<string, unknown>)[];
  has_more: boolean;
  next_page_token?: string;
}

/** `posted_at` of day `day` (0-based) of 2024 month `month`, at `second` past noon. */
export function postedAt(month: number, day: number, second = 0): string {
  return new Date(Date.UTC(2024, month - 1, 1 + day, 12, 0, second)).toISOString();
}

/**
 * A closed statement of 2024 month `month` carrying `purchases` purchases (one a day, cycling
 * through the month), a payment, a refund, interest and a fee, with totals, balances, rates and
 * year-to-date totals that add up. Ids are `<statement>_li_<nnnn>`.
 */
export function statementWithLineItems(
  accountId: string,
  month: number,
  options: { purchases?: number; id?: string } = {},
): StatementInput {
  const statementId = options.id ?? `${accountId}_st_${String(month).padStart(3, "0")}`;
  const id = (n: number) => `${statementId}_li_${String(n).padStart(4, "0")}`;
  const count = options.purchases ?? 5;
  const items: LineItemInput[] = [];
  for (let i = 0; i < count; i++) {
    items.push({
      line_item_id: id(i),
      type: "PURCHASE",
      posted_at: postedAt(month, i % 28, i % 60),
      transaction_date: postedAt(month, i % 28, 0),
      description: `COFFEE ROASTERS #${i}`,
      amount: 100 + i,
      merchant: { name: "Coffee Roasters", category_code: "5814", city: "Portland", country: "US" },
      card_last4: "4242",
    });
  }
  items.push(
    {
      line_item_id: id(9000),
      type: "PAYMENT",
      posted_at: postedAt(month, 10),
      description: "PAYMENT - THANK YOU",
      amount: -3000,
    },
    {
      line_item_id: id(9001),
      type: "REFUND",
      posted_at: postedAt(month, 12),
      description: "HOTEL DU LAC REFUND",
      amount: -200,
      merchant: { name: "Hotel du Lac", category_code: "7011", country: "CH" },
      original_amount: -190,
      original_currency: "CHF",
    },
    {
      line_item_id: id(9002),
      type: "INTEREST",
      posted_at: postedAt(month, 27),
      description: "INTEREST CHARGE ON PURCHASES",
      amount: 150,
    },
    {
      line_item_id: id(9003),
      type: "FEE",
      posted_at: postedAt(month, 20),
      description: "LATE FEE",
      amount: 50,
    },
  );
  const purchases = items.filter((i) => i.type === "PURCHASE").reduce((n, i) => n + i.amount, 0);
  const start = new Date(Date.UTC(2024, month - 1, 1));
  const end = new Date(Date.UTC(2024, month, 0, 23, 59, 59));
  const previous = 9000;
  const total = items.reduce((n, i) => n + i.amount, 0);
  return {
    statement_id: statementId,
    account_id: accountId,
    period_start_date: start.toISOString(),
    period_end_date: end.toISOString(),
    due_date: new Date(Date.UTC(2024, month, 25)).toISOString(),
    currency: "USD",
    statement_balance: previous + total,
    minimum_due: 2500,
    previous_balance: previous,
    ...(count > 0 ? { purchases } : {}),
    payments: -3000,
    refunds: -200,
    interest: 150,
    fees: 50,
    overdue_amount: 0,
    line_items: items,
    interest_rates: [
      {
        balance_type: "PURCHASES",
        annual_percentage_rate: "24.99",
        balance_subject_to_interest: 7200,
        interest: 150,
      },
    ],
    year_to_date: { fees: 50 * month, interest: 150 * month },
  };
}

/** The path of a statement, or of its line items. */
export function statementPath(
  f: { customerId: string; accountId: string },
  statementId: string,
  rest = "",
): string {
  return `/v2/customers/${f.customerId}/accounts/${f.accountId}/statements/${statementId}${rest}`;
}

/** Every line item of a statement, page by page (with `query`, e.g. `type=FEE&limit=3`). */
export async function allLineItems(
  f: { customerId: string; accountId: string; key: string },
  statementId: string,
  query = "limit=100",
): Promise<{ items: LineItemPage["data"]; pages: number }> {
  const items: LineItemPage["data"] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const after = token ? `&starting_after=${token}` : "";
    const page = await expectJson<LineItemPage>(
      await api(statementPath(f, statementId, `/line_items?${query}${after}`), { key: f.key }),
      200,
    );
    pages += 1;
    items.push(...page.data);
    expect(page.has_more).toBe(page.next_page_token !== undefined);
    token = page.next_page_token;
  } while (token);
  return { items, pages };
}
