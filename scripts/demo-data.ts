// The demo data `npm start` loads: two partners, sandbox and production customers, two years of
// monthly statements in the card-statement sign convention, and how each product presents its
// statement documents, which the service renders. Everything is deterministic, so loading it
// again changes nothing.

export type Environment = "sandbox" | "production";

/** A statement as `POST /operator/v1/import` takes it (CONTRACT §5). */
export interface DemoStatement {
  statement_id: string;
  account_id: string;
  period_start_date: string;
  period_end_date: string;
  due_date: string;
  currency: string;
  statement_balance: number;
  minimum_due?: number;
  previous_balance: number;
  purchases?: number;
  payments?: number;
  credits?: number;
  refunds?: number;
  interest?: number;
  fees?: number;
  overdue_amount?: number;
}

/** What one customer does in a billing cycle; amounts in cents. */
interface Cycle {
  purchases?: number;
  /** Paid toward the previous statement: all of it, its minimum, nothing, or an amount. */
  payment?: "full" | "minimum" | "none" | number;
  credits?: number;
  refunds?: number;
  fees?: number;
  /** No activity at all: only the balances are recorded. */
  quiet?: boolean;
}

interface DemoAccount {
  account_id: string;
  customer_id: string;
  credit_limit: number;
  /** Annual percentage rate charged on a balance carried past its due date. */
  apr: number;
  /** First cycle as [year, month (1-12)]; one statement per month from there. */
  first: [number, number];
  cycles: Cycle[];
}

/** An account a demo key reads, with the product header it needs (several products only). */
export interface DemoAccountRef {
  customer_id: string;
  account_id: string;
  merchant_key?: string;
}

/** A key `npm start` keeps for the demo; the first account is the one its curl lists. */
export interface DemoKey {
  /** Stable name in `.wrangler/demo-keys.json` and, upper-cased, the shell variable. */
  name: string;
  partner_id: string;
  environment: Environment;
  scopes: string[];
  accounts: [DemoAccountRef, ...DemoAccountRef[]];
}

export const DEMO_PARTNER = "demo_bank";
export const DEMO_CUSTOMER = "cus_demo_ava";
export const DEMO_ACCOUNT = "acc_demo_everyday";
export const DEMO_LIVE_CUSTOMER = "cus_live_noah";
export const DEMO_LIVE_ACCOUNT = "acc_live_noah";
export const MULTI_PRODUCT_PARTNER = "northwind";

/** A deterministic pseudo-random sequence (mulberry32), so every run builds the same figures. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` ordinary months of spending between `low` and `high` dollars, with the odd refund. */
function ordinaryCycles(seed: number, count: number, low: number, high: number): Cycle[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const cycle: Cycle = { purchases: Math.round((low + next() * (high - low)) * 100) };
    if (next() < 0.25) cycle.refunds = -Math.round((15 + next() * 75) * 100);
    return cycle;
  });
}

/** Replaces some months of a plan with scripted ones (keyed by their index in the plan). */
function withEvents(plan: Cycle[], events: Record<number, Cycle>): Cycle[] {
  return plan.map((cycle, i) => (events[i] ? { ...cycle, ...events[i] } : cycle));
}

const ANNUAL_FEE = 9500;
const CASHBACK_REDEMPTION = -2500;

const ACCOUNTS: DemoAccount[] = [
  {
    // Two years and two months of history: the account the printed curl lists.
    account_id: DEMO_ACCOUNT,
    customer_id: DEMO_CUSTOMER,
    credit_limit: 800_000,
    apr: 0.2499,
    first: [2024, 9],
    cycles: withEvents(ordinaryCycles(7, 26, 250, 1800), {
      0: { fees: ANNUAL_FEE },
      4: { payment: "minimum" },
      7: { credits: CASHBACK_REDEMPTION },
      10: { purchases: 364_218, fees: 4_126 },
      12: { fees: ANNUAL_FEE },
      // Paid in full, bought nothing, got a refund: the customer is ahead (a negative balance)...
      13: { purchases: 0, refunds: -4_599 },
      // ...and the next cycle is quiet: nothing happened, so almost nothing is recorded.
      14: { quiet: true },
      19: { credits: CASHBACK_REDEMPTION },
      21: { payment: "minimum" },
      24: { fees: ANNUAL_FEE },
    }),
  },
  {
    account_id: "acc_demo_travel",
    customer_id: DEMO_CUSTOMER,
    credit_limit: 1_500_000,
    apr: 0.2199,
    first: [2026, 5],
    cycles: withEvents(ordinaryCycles(11, 6, 400, 2400), {
      2: { fees: 3_870 },
      3: { fees: 1_244, payment: 150_000 },
    }),
  },
  {
    account_id: DEMO_LIVE_ACCOUNT,
    customer_id: DEMO_LIVE_CUSTOMER,
    credit_limit: 500_000,
    apr: 0.2499,
    first: [2026, 7],
    cycles: ordinaryCycles(23, 4, 150, 900),
  },
  {
    account_id: "acc_nw_lena",
    customer_id: "cus_nw_lena",
    credit_limit: 1_000_000,
    apr: 0.1899,
    first: [2026, 8],
    cycles: ordinaryCycles(31, 3, 300, 1500),
  },
  {
    account_id: "acc_nw_omar",
    customer_id: "cus_nw_omar",
    credit_limit: 300_000,
    apr: 0.2699,
    first: [2026, 8],
    cycles: withEvents(ordinaryCycles(37, 3, 100, 600), { 2: { credits: CASHBACK_REDEMPTION } }),
  },
];

/** Monthly cycle `index` after `first`: the 1st to the last day 23:59:59 UTC, due on the 25th. */
function cycleDates([year, month]: [number, number], index: number) {
  const start = new Date(Date.UTC(year, month - 1 + index, 1));
  const end = new Date(Date.UTC(year, month + index, 0, 23, 59, 59));
  const due = new Date(Date.UTC(year, month + index, 25));
  return { start, end, due };
}

const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");

/**
 * Runs an account's plan month by month. In every statement, statement_balance = previous_balance
 * + purchases + payments + credits + refunds + interest + fees; charges are positive, money
 * credited back is negative, and lines without activity are omitted.
 */
function statementsOf(account: DemoAccount): DemoStatement[] {
  const out: DemoStatement[] = [];
  let previous = 0;
  let previousMinimum = 0;
  account.cycles.forEach((cycle, i) => {
    const { start, end, due } = cycleDates(account.first, i);
    const statement: DemoStatement = {
      statement_id: `st_${account.account_id.replace(/^acc_/, "")}_${iso(end).slice(0, 7)}`,
      account_id: account.account_id,
      period_start_date: iso(start),
      period_end_date: iso(end),
      due_date: iso(due),
      currency: "USD",
      statement_balance: previous,
      previous_balance: previous,
    };
    if (cycle.quiet) {
      if (previous > 0) throw new Error("a quiet cycle needs a settled balance (no interest due)");
      out.push(statement);
      return;
    }
    const plan = cycle.payment ?? "full";
    const paid =
      previous <= 0 || plan === "none"
        ? 0
        : plan === "full"
          ? previous
          : plan === "minimum"
            ? previousMinimum
            : Math.min(plan, previous);
    const carried = previous - paid;
    const lines = {
      purchases: cycle.purchases ?? 0,
      payments: -paid,
      credits: cycle.credits ?? 0,
      refunds: cycle.refunds ?? 0,
      interest: carried > 0 ? Math.round((carried * account.apr) / 12) : 0,
      fees: cycle.fees ?? 0,
    };
    const balance = Object.values(lines).reduce((sum, amount) => sum + amount, previous);
    const minimum =
      balance <= 0
        ? 0
        : Math.min(
            balance,
            Math.max(2_500, Math.round(balance / 100) + lines.interest + lines.fees),
          );
    statement.statement_balance = balance;
    statement.minimum_due = minimum;
    for (const [line, amount] of Object.entries(lines)) {
      if (amount !== 0) statement[line as keyof typeof lines] = amount;
    }
    statement.overdue_amount = 0;
    out.push(statement);
    previous = balance;
    previousMinimum = minimum;
  });
  return out;
}

const STATEMENTS = new Map(ACCOUNTS.map((a) => [a.account_id, statementsOf(a)]));

/** The newest statement of an account, whose balance the account shows today. */
function newest(accountId: string): DemoStatement {
  const list = STATEMENTS.get(accountId) ?? [];
  const last = list[list.length - 1];
  if (!last) throw new Error(`no statements for ${accountId}`);
  return last;
}

/** What the demo bank's cards earn: points, more at restaurants and grocers. */
const DEMO_REWARDS_CATEGORIES = [
  {
    category_id: "dining",
    name: "Dining",
    merchant_category_codes: ["5812", "5813", "5814"],
    earn_rate: "3",
    earn_unit: "POINTS_PER_DOLLAR" as const,
  },
  {
    category_id: "groceries",
    name: "Groceries",
    merchant_category_codes: ["5411"],
    earn_rate: "2",
    earn_unit: "POINTS_PER_DOLLAR" as const,
  },
  {
    category_id: "everything_else",
    name: "Everything else",
    merchant_category_codes: [],
    earn_rate: "1",
    earn_unit: "POINTS_PER_DOLLAR" as const,
  },
];

/** The body of `POST /operator/v1/import` for the whole demo. */
function wholeDemo() {
  const latestBalance = (accountId: string) => newest(accountId).statement_balance;
  return {
    partners: [
      {
        partner_id: DEMO_PARTNER,
        name: "Demo Bank",
        shard: "00",
        products: [
          {
            merchant_key: "mk_demo_bank",
            name: "Demo Bank Cards",
            documents: "rendered",
            rewards_categories: DEMO_REWARDS_CATEGORIES,
          },
        ],
        saved_versions: { sandbox: "2026-10-13", production: "2026-10-13" },
      },
      {
        partner_id: MULTI_PRODUCT_PARTNER,
        name: "Northwind Credit Union",
        shard: "01",
        products: [
          { merchant_key: "mk_nw_travel", name: "Northwind Travel Rewards", documents: "rendered" },
          { merchant_key: "mk_nw_cashback", name: "Northwind Cash Back", documents: "rendered" },
        ],
        saved_versions: { sandbox: "2025-05-05", production: "2025-05-05" },
      },
    ],
    customers: [
      {
        customer_id: DEMO_CUSTOMER,
        partner_id: DEMO_PARTNER,
        environment: "sandbox",
        merchant_key: "mk_demo_bank",
        partner_customer_id: "crm-10442",
        authorized_users: [{ authorized_user_id: "au_demo_sam", name: "Sam Thompson" }],
      },
      {
        customer_id: DEMO_LIVE_CUSTOMER,
        partner_id: DEMO_PARTNER,
        environment: "production",
        merchant_key: "mk_demo_bank",
      },
      {
        customer_id: "cus_nw_lena",
        partner_id: MULTI_PRODUCT_PARTNER,
        environment: "sandbox",
        merchant_key: "mk_nw_travel",
      },
      {
        customer_id: "cus_nw_omar",
        partner_id: MULTI_PRODUCT_PARTNER,
        environment: "sandbox",
        merchant_key: "mk_nw_cashback",
      },
    ],
    accounts: ACCOUNTS.map((a) => {
      const balance = Math.max(0, latestBalance(a.account_id));
      return {
        account_id: a.account_id,
        customer_id: a.customer_id,
        status: "OPEN",
        currency: "USD",
        credit_limit: a.credit_limit,
        current_balance: balance,
        available_credit: a.credit_limit - balance,
      };
    }),
    statements: [...STATEMENTS.values()].flat(),
  };
}

/**
 * The demo's imports, one per partner: each partner lives on a shard of its own (demo_bank on
 * 00, northwind on 01), and an import is one atomic batch on one shard.
 */
export function demoImports() {
  const demo = wholeDemo();
  return demo.partners.map((partner) => {
    const customers = demo.customers.filter((c) => c.partner_id === partner.partner_id);
    const customerIds = new Set(customers.map((c) => c.customer_id));
    const accounts = demo.accounts.filter((a) => customerIds.has(a.customer_id));
    const accountIds = new Set(accounts.map((a) => a.account_id));
    const statements = demo.statements.filter((st) => accountIds.has(st.account_id));
    return { partners: [partner], customers, accounts, statements };
  });
}

/** The demo partner's dashboard users `npm start` invites and prints a sign-in link for. */
export const DEMO_USERS = [
  { email: "admin@demo-bank.example", role: "Admin" },
  { email: "developer@demo-bank.example", role: "Developer" },
] as const;

/** The keys the demo keeps: one per partner and environment it shows. */
export const DEMO_KEYS: DemoKey[] = [
  {
    name: "demo_key",
    partner_id: DEMO_PARTNER,
    environment: "sandbox",
    scopes: ["ACCOUNT_READ", "AUTHORIZED_USER_READ"],
    accounts: [
      { customer_id: DEMO_CUSTOMER, account_id: DEMO_ACCOUNT },
      { customer_id: DEMO_CUSTOMER, account_id: "acc_demo_travel" },
    ],
  },
  {
    name: "demo_live_key",
    partner_id: DEMO_PARTNER,
    environment: "production",
    scopes: ["ACCOUNT_READ", "AUTHORIZED_USER_READ"],
    accounts: [{ customer_id: DEMO_LIVE_CUSTOMER, account_id: DEMO_LIVE_ACCOUNT }],
  },
  {
    name: "northwind_key",
    partner_id: MULTI_PRODUCT_PARTNER,
    environment: "sandbox",
    scopes: ["ACCOUNT_READ"],
    accounts: [
      { customer_id: "cus_nw_lena", account_id: "acc_nw_lena", merchant_key: "mk_nw_travel" },
      { customer_id: "cus_nw_omar", account_id: "acc_nw_omar", merchant_key: "mk_nw_cashback" },
    ],
  },
];

/**
 * How each demo product presents its statement documents (`PATCH /operator/v1/products/…`):
 * products render theirs (the import says so, for a local database older than rendering too).
 */
export const DEMO_PRESENTATION: Record<string, { display_name: string; accent_colour: string }> = {
  mk_demo_bank: { display_name: "Demo Bank", accent_colour: "#17345f" },
  mk_nw_travel: { display_name: "Northwind Travel Rewards", accent_colour: "#0a6b5a" },
  mk_nw_cashback: { display_name: "Northwind Cash Back", accent_colour: "#7a3e9d" },
};

/** The partners whose statements the demo renders. */
export const DEMO_PARTNERS = [DEMO_PARTNER, MULTI_PRODUCT_PARTNER] as const;
