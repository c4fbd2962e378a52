// Statements the renderer's tests and bench render: every line, a quiet cycle, other currencies,
// an overdue account. Plain data; a logo is attached by whoever has its bytes.
import type { ProductLogo, StatementDocumentInput } from "../src/statement-document";

const acme = { display_name: "Acme Card", accent_colour: "#1f6feb" };

/** Every line of the statement, in US dollars, overdue. */
export const EVERY_LINE: StatementDocumentInput = {
  statement: {
    statement_id: "st_2026_09",
    period_start_date: "2026-09-01T00:00:00Z",
    period_end_date: "2026-09-30T23:59:59Z",
    due_date: "2026-10-25T00:00:00Z",
    currency: "USD",
    statement_balance: 123456,
    minimum_due: 4500,
    previous_balance: 98765,
    purchases: 43210,
    payments: -20000,
    credits: -1500,
    refunds: -2599,
    interest: 1980,
    fees: 3900,
    overdue_amount: 2500,
  },
  account: { account_id: "acc_visa_01", masked_number: "•••• 4242" },
  customer: { customer_id: "cus_0001", display_name: "Sam Lee" },
  product: acme,
};

/** A quiet cycle: no activity, so most lines are absent; no due date, no minimum. */
export const QUIET_CYCLE: StatementDocumentInput = {
  statement: {
    statement_id: "st_quiet",
    period_end_date: "2026-10-31T23:59:59Z",
    currency: "USD",
    statement_balance: 0,
    previous_balance: 0,
  },
  account: { account_id: "acc_quiet" },
  customer: { customer_id: "cus_quiet" },
  product: { display_name: "Quiet Card", accent_colour: "#ffd166" },
};

/** Yen: no minor unit. Current (overdue 0). */
export const YEN: StatementDocumentInput = {
  statement: {
    statement_id: "st_jp",
    period_start_date: "2026-08-16T00:00:00+09:00",
    period_end_date: "2026-09-15T23:59:59+09:00",
    due_date: "2026-10-10T00:00:00+09:00",
    currency: "JPY",
    statement_balance: 1234567,
    minimum_due: 50000,
    previous_balance: 300000,
    purchases: 1034567,
    payments: -100000,
    overdue_amount: 0,
  },
  account: { account_id: "acc_jp_7" },
  customer: { customer_id: "cus_jp", display_name: "Aiko Tanaka" },
  product: { display_name: "Sakura Card", accent_colour: "#c2185b" },
};

/** Kuwaiti dinar: three decimals; overdue, with a credit and fees. */
export const DINAR: StatementDocumentInput = {
  statement: {
    statement_id: "st_kw",
    period_start_date: "2026-09-01T00:00:00+03:00",
    period_end_date: "2026-09-30T23:59:59+03:00",
    due_date: "2026-10-20T00:00:00+03:00",
    currency: "KWD",
    statement_balance: 250125,
    minimum_due: 12506,
    previous_balance: 240000,
    purchases: 15000,
    credits: -5000,
    fees: 125,
    overdue_amount: 10000,
  },
  account: { account_id: "acc_kw", masked_number: "•••• 9001" },
  customer: { customer_id: "cus_kw" },
  product: { display_name: "Gulf Platinum", accent_colour: "#00695c" },
};

/** A code ISO 4217 does not list: two decimals, and the code shown. */
export const UNKNOWN_CURRENCY: StatementDocumentInput = {
  statement: {
    statement_id: "st_xx",
    period_end_date: "2026-09-30T23:59:59Z",
    currency: "XBT",
    statement_balance: 1050,
    purchases: 1050,
  },
  account: { account_id: "acc_xx" },
  customer: { customer_id: "cus_xx" },
  product: acme,
};

export function withLogo(input: StatementDocumentInput, logo: ProductLogo): StatementDocumentInput {
  return { ...input, product: { ...input.product, logo } };
}
