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

/** Merchants a busy cycle buys from: descriptor, name, MCC, city, country, and its currency. */
const MERCHANTS = [
  ["BLUE BOTTLE COFFEE #0412", "Blue Bottle Coffee", "5814", "Oakland", "US"],
  ["SAFEWAY #1839", "Safeway", "5411", "San Francisco", "US"],
  ["AMZN MKTP US*2K4LM0", "Amazon Marketplace", "5942", "Seattle", "US"],
  ["SHELL OIL 57442", "Shell", "5541", "Berkeley", "US"],
  ["UBER *TRIP", "Uber", "4121", "San Francisco", "US"],
  ["WALGREENS #4471", "Walgreens", "5912", "Oakland", "US"],
  ["TRADER JOE'S #127", "Trader Joe's", "5411", "Emeryville", "US"],
  ["NETFLIX.COM", "Netflix", "4899", "Los Gatos", "US"],
  ["BART CLIPPER", "Clipper", "4111", "Oakland", "US"],
  ["CHEZ PANISSE", "Chez Panisse", "5812", "Berkeley", "US"],
  ["LE PETIT CAFE PARIS", "Le Petit Café", "5814", "Paris", "FR", "EUR"],
  ["SNCF VOYAGEURS", "SNCF", "4112", "Paris", "FR", "EUR"],
  ["PRET A MANGER LONDON", "Pret A Manger", "5814", "London", "GB", "GBP"],
  ["TFL TRAVEL CH", "Transport for London", "4111", "London", "GB", "GBP"],
  ["FAMILYMART SHIBUYA", "FamilyMart", "5499", "Tokyo", "JP", "JPY"],
] as const;

/** Units of each foreign currency a dollar buys, and the currency's minor units. */
const FX: Record<string, { perDollar: number; digits: number }> = {
  EUR: { perDollar: 0.92, digits: 2 },
  GBP: { perDollar: 0.79, digits: 2 },
  JPY: { perDollar: 149.5, digits: 0 },
};

/** The sample's late-payment terms, repayment rule and address: what a product would set. */
export const SAMPLE_TERMS = {
  billing_rights_address: ["Acme Card Services", "PO Box 4500", "Wilmington, DE 19850"],
  late_payment: { late_fee: 4000, penalty_apr: "29.99" },
  minimum_payment: {
    percent_of_balance: "1",
    includes_interest_and_fees: false,
    minimum_amount: 2500,
  },
  credit_counseling_phone: "1-800-555-0199",
} satisfies Partial<StatementDocumentInput["product"]>;

/**
 * A periodic statement of September 2026 with `count` line items (none: the summary alone),
 * generated the same way each time, whose figures add up as the import requires: each type's
 * items sum to its total, the rates' interest to `interest`, previous balance plus items to the
 * new balance. One payment, a credit and a refund, fees, interest on purchases and on cash
 * advances, the rest purchases (some abroad, some with long descriptions); with the rates, the
 * year to date and the product's terms. Another `variant` draws other purchases (the bench renders
 * a different statement each time, as an isolate does).
 */
export function periodicStatement(count: number, variant = 0): StatementDocumentInput {
  let seed = 20260930 + count + variant * 7919;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const day = (n: number) => `2026-09-${String(n).padStart(2, "0")}`;
  const previous = 152340;
  const purchaseInterest = 2875;
  const cashInterest = 412;
  const items: NonNullable<StatementDocumentInput["statement"]["line_items"]> = [];
  const fixed = Math.min(count, 6);
  const kinds: string[] = ["PAYMENT", "INTEREST", "INTEREST", "FEE", "REFUND", "CREDIT"].slice(
    0,
    fixed,
  );
  for (let i = 0; i < count; i++) {
    const id = `li_${String(i + 1).padStart(4, "0")}`;
    const posted = 1 + Math.floor(random() * 29);
    const at = `${day(posted)}T${String(8 + (i % 12)).padStart(2, "0")}:15:00-07:00`;
    const kind = kinds[i] ?? (i % 40 === 39 ? "FEE" : "PURCHASE");
    if (kind === "PAYMENT") {
      items.push({
        line_item_id: id,
        type: "PAYMENT",
        posted_at: `${day(5)}T09:00:00-07:00`,
        description: "PAYMENT - THANK YOU",
        amount: -50000,
      });
    } else if (kind === "INTEREST") {
      const cash = items.some((item) => item.type === "INTEREST");
      items.push({
        line_item_id: id,
        type: "INTEREST",
        posted_at: "2026-09-30T23:59:00-07:00",
        description: cash ? "INTEREST CHARGE ON CASH ADVANCES" : "INTEREST CHARGE ON PURCHASES",
        amount: cash ? cashInterest : purchaseInterest,
      });
    } else if (kind === "FEE") {
      const late = !items.some((item) => item.type === "FEE");
      items.push({
        line_item_id: id,
        type: "FEE",
        posted_at: at,
        description: late ? "CASH ADVANCE FEE" : "FOREIGN TRANSACTION FEE",
        amount: late ? 1000 : 95 + Math.floor(random() * 300),
      });
    } else if (kind === "REFUND" || kind === "CREDIT") {
      items.push({
        line_item_id: id,
        type: kind,
        posted_at: at,
        transaction_date: day(Math.max(1, posted - 1)),
        description: kind === "REFUND" ? "AMZN MKTP US RETURN" : "STATEMENT CREDIT - DINING OFFER",
        amount: -(500 + Math.floor(random() * 4500)),
        ...(kind === "REFUND"
          ? {
              merchant: {
                name: "Amazon Marketplace",
                category_code: "5942",
                city: "Seattle",
                country: "US",
              },
            }
          : {}),
      });
    } else {
      const [descriptor, name, mcc, city, country, currency] = MERCHANTS[
        Math.floor(random() * MERCHANTS.length)
      ] as (typeof MERCHANTS)[number] & { 5?: string };
      const amount = 350 + Math.floor(random() * 24650);
      const fx = currency ? FX[currency] : undefined;
      const long = i % 17 === 16;
      items.push({
        line_item_id: id,
        type: "PURCHASE",
        posted_at: at,
        transaction_date: day(Math.max(1, posted - (i % 3))),
        description: long
          ? `${descriptor} ORDER 48213-${i} INCLUDES SHIPPING AND HANDLING, GIFT WRAPPING AND A SECOND ` +
            "DELIVERY ATTEMPT AFTER THE FIRST ONE FAILED"
          : descriptor,
        amount,
        merchant: { name, category_code: mcc, city, country },
        ...(fx && currency
          ? {
              original_amount: Math.round((amount / 100) * fx.perDollar * 10 ** fx.digits),
              original_currency: currency,
            }
          : {}),
        ...(i % 5 === 0 ? { card_last4: "4242" } : { card_last4: "1881" }),
      });
    }
  }
  items.sort((a, b) =>
    a.posted_at === b.posted_at
      ? a.line_item_id.localeCompare(b.line_item_id)
      : a.posted_at.localeCompare(b.posted_at),
  );
  const sum = (type: string) =>
    items.filter((item) => item.type === type).reduce((n, item) => n + item.amount, 0);
  const totals = Object.fromEntries(
    (
      [
        ["purchases", "PURCHASE"],
        ["payments", "PAYMENT"],
        ["credits", "CREDIT"],
        ["refunds", "REFUND"],
        ["interest", "INTEREST"],
        ["fees", "FEE"],
      ] as const
    ).flatMap(([field, type]) =>
      items.some((item) => item.type === type) ? [[field, sum(type)]] : [],
    ),
  );
  const balance = previous + items.reduce((n, item) => n + item.amount, 0);
  const interest = (totals.interest as number | undefined) ?? 0;
  const fees = (totals.fees as number | undefined) ?? 0;
  const statement: StatementDocumentInput["statement"] = {
    statement_id: "st_2026_09",
    period_start_date: "2026-09-01T00:00:00-07:00",
    period_end_date: "2026-09-30T23:59:59-07:00",
    due_date: "2026-10-25T00:00:00-07:00",
    currency: "USD",
    statement_balance: balance,
    minimum_due: Math.max(2500, Math.round(balance / 100) + interest + fees),
    previous_balance: previous,
    ...totals,
    interest_rates: [
      {
        balance_type: "PURCHASES",
        annual_percentage_rate: "24.99",
        balance_subject_to_interest: 141862,
        interest: count > 1 ? purchaseInterest : 0,
      },
      {
        balance_type: "CASH_ADVANCES",
        annual_percentage_rate: "29.99",
        balance_subject_to_interest: 16710,
        interest: count > 2 ? cashInterest : 0,
      },
    ],
    year_to_date: { fees: 8500 + fees, interest: 24116 + interest },
  };
  if (count > 0) statement.line_items = items;
  return {
    statement,
    account: { account_id: "acc_visa_01", masked_number: "•••• 4242" },
    customer: { customer_id: "cus_0001", display_name: "Sam Lee" },
    product: { ...acme, ...SAMPLE_TERMS },
  };
}

/** The product's rewards categories, as the service hands their names to the renderer. */
export const SAMPLE_CATEGORIES = [
  { category_id: "dining", name: "Dining" },
  { category_id: "groceries", name: "Groceries" },
  { category_id: "everything", name: "Everything else" },
];

/** `input` with rewards (points by category unless others are given) and the categories' names. */
export function withRewards(
  input: StatementDocumentInput,
  rewards: NonNullable<StatementDocumentInput["statement"]["rewards"]> = {
    unit: "POINTS",
    earned: 4851,
    redeemed: 2000,
    balance: 12345,
    by_category: [
      { category_id: "dining", earned: 3600 },
      { category_id: "groceries", earned: 1250 },
      { category_id: "everything", earned: 1 },
    ],
  },
): StatementDocumentInput {
  return {
    ...input,
    statement: { ...input.statement, rewards },
    product: { ...input.product, rewards_categories: SAMPLE_CATEGORIES },
  };
}
