// The import arms' data: tenants seeded with SQL into both empty databases, then monthly import
// bodies (every account's statement for one month per request, as a partner's monthly run sends
// them), and the largest body the import accepts.
import type { D1 } from "./data.ts";

/** Accounts that receive statements: one statement each per import request. */
export const IMPORT_ACCOUNTS = 5000;
const PARTNERS = 50;

const pad = (n: number, width: number) => String(n).padStart(width, "0");
const accountId = (a: number) => `imp_acc_${pad(a, 5)}`;

/** Partners, products, customers and accounts for the monthly bodies (one statement each). */
export async function seedImportTenants(db: D1): Promise<void> {
  const created = "'2026-11-01T00:00:00.000Z'";
  const series = (count: number) =>
    `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count - 1}) `;
  const partner = (n: string) => `printf('imp_p_%03d', ${n} % ${PARTNERS})`;
  const product = (n: string) => `printf('imp_mk_%03d', ${n} % ${PARTNERS})`;
  await db.batch([
    db.prepare(
      "INSERT INTO partners (partner_id, name, saved_version_sandbox, saved_version_production, " +
        `merchant_keys, created_at) ${series(PARTNERS)}SELECT ${partner("n")}, 'Importer', ` +
        `'2025-05-05', '2025-05-05', json_array(${product("n")}), ${created} FROM seq`,
    ),
    db.prepare(
      `INSERT INTO products (merchant_key, partner_id, name) ${series(PARTNERS)}` +
        `SELECT ${product("n")}, ${partner("n")}, 'Card' FROM seq`,
    ),
    db.prepare(
      "INSERT INTO customers (customer_id, partner_id, environment, merchant_key, created_at) " +
        `${series(IMPORT_ACCOUNTS)}SELECT printf('imp_cus_%05d', n), ${partner("n")}, ` +
        `'production', ${product("n")}, ${created} FROM seq`,
    ),
    db.prepare(
      "INSERT INTO accounts (account_id, customer_id, partner_id, environment, merchant_key, " +
        `status, currency, created_at) ${series(IMPORT_ACCOUNTS)}` +
        `SELECT printf('imp_acc_%05d', n), printf('imp_cus_%05d', n), ${partner("n")}, ` +
        `'production', ${product("n")}, 'OPEN', 'USD', ${created} FROM seq`,
    ),
  ]);
}

/** The first instant of the month `m` months after March 2010 (month 199 is October 2026). */
function monthStart(m: number): Date {
  return new Date(Date.UTC(2010, 2 + m, 1));
}

/** One closed statement, dates already in the stored form (UTC, milliseconds). */
function statement(id: string, account: string, month: number, seed: number) {
  const start = monthStart(month);
  const end = new Date(monthStart(month + 1).getTime() - 1000);
  const purchases = 4_000 + (seed % 9_973);
  return {
    statement_id: id,
    account_id: account,
    period_start_date: start.toISOString(),
    period_end_date: end.toISOString(),
    due_date: new Date(end.getTime() + 25 * 86_400_000).toISOString(),
    currency: "USD",
    statement_balance: 9_000 + purchases - 3_000 - 200 + 150 + 50,
    minimum_due: 2_500,
    previous_balance: 9_000,
    purchases,
    payments: -3_000,
    credits: 0,
    refunds: -200,
    interest: 150,
    fees: 50,
    overdue_amount: 0,
  };
}

/** Request `month` of the monthly run: every seeded account's statement for that month. */
export function monthlyBody(month: number): string {
  const statements = Array.from({ length: IMPORT_ACCOUNTS }, (_, a) =>
    statement(`imp_st_${pad(a, 5)}_${pad(month, 3)}`, accountId(a), month, a * 31 + month),
  );
  return JSON.stringify({ statements });
}

/**
 * The largest import the service accepts: 5,000 items in every section (partners with one product
 * each, customers, accounts, statements), the customers' authorized users filling the body up to
 * just under `maxBytes`. `tag` keeps the ids of one body apart from another's.
 */
export function largestBody(tag: string, maxBytes: number): string {
  const n = 5000;
  const id = (kind: string, i: number) => `max_${tag}_${kind}_${pad(i, 4)}`;
  const build = (usersPerCustomer: number, nameLength: number) =>
    JSON.stringify({
      partners: Array.from({ length: n }, (_, i) => ({
        partner_id: id("p", i),
        name: `Partner ${i}`,
        products: [{ merchant_key: id("mk", i), name: "Card" }],
      })),
      customers: Array.from({ length: n }, (_, i) => ({
        customer_id: id("cus", i),
        partner_id: id("p", i),
        environment: "production",
        merchant_key: id("mk", i),
        partner_customer_id: `partner-customer-${i}`,
        authorized_users: Array.from({ length: usersPerCustomer }, (_, u) => ({
          authorized_user_id: `${id("au", i)}_${u}`,
          name: `User ${u} `.padEnd(nameLength, "x"),
        })),
      })),
      accounts: Array.from({ length: n }, (_, i) => ({
        account_id: id("acc", i),
        customer_id: id("cus", i),
        status: "OPEN",
        currency: "USD",
        credit_limit: 500_000,
        current_balance: 12_345,
        available_credit: 487_655,
      })),
      statements: Array.from({ length: n }, (_, i) =>
        statement(id("st", i), id("acc", i), 199 - (i % 200), i),
      ),
    });
  // Grow the authorized users' names until the next step would pass the limit.
  const users = 12;
  let low = 1;
  let high = 255;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(build(users, mid)) <= maxBytes) low = mid;
    else high = mid - 1;
  }
  return build(users, low);
}

/** Line items per statement in the line items import: a busy month's 26 purchases and 4 more. */
export const LINE_ITEMS_PER_STATEMENT = 30;
/** Statements per line items request: as many as the import's 25,000 line items allow. */
export const LINE_ITEM_STATEMENTS_PER_REQUEST = Math.floor(25_000 / LINE_ITEMS_PER_STATEMENT);

const HOUR = 3_600_000;

/**
 * A statement's 30 line items, adding up to its figures as the import checks them: 26 purchases
 * summing to `purchases`, a payment, a refund, an interest charge and a fee, posted 20 hours apart
 * from the period's start; the purchases with a merchant, a transaction date and a card.
 */
function lineItems(s: ReturnType<typeof statement>, seed: number) {
  const start = Date.parse(s.period_start_date);
  const at = (j: number) => new Date(start + (j + 1) * 20 * HOUR).toISOString();
  const count = LINE_ITEMS_PER_STATEMENT - 4;
  const each = Math.floor(s.purchases / count);
  const items: Record<string, unknown>[] = Array.from({ length: count }, (_, j) => ({
    line_item_id: `li_${pad(j, 2)}`,
    type: "PURCHASE",
    posted_at: at(j),
    transaction_date: new Date(Date.parse(at(j)) - HOUR).toISOString(),
    description: `COFFEE ROASTERS #${pad((seed + j) % 10_000, 4)} SEATTLE WA`,
    amount: j === 0 ? s.purchases - each * (count - 1) : each,
    merchant: {
      name: `Coffee Roasters #${pad((seed + j) % 10_000, 4)}`,
      category_code: "5814",
      city: "Seattle",
      country: "US",
    },
    card_last4: "4242",
  }));
  const other = [
    ["PAYMENT", "PAYMENT - THANK YOU", s.payments],
    ["REFUND", "REFUND: COFFEE ROASTERS", s.refunds],
    ["INTEREST", "INTEREST CHARGE ON PURCHASES", s.interest],
    ["FEE", "LATE FEE", s.fees],
  ] as const;
  other.forEach(([type, description, amount], i) => {
    items.push({
      line_item_id: `li_${pad(count + i, 2)}`,
      type,
      posted_at: at(count + i),
      description,
      amount,
    });
  });
  return items;
}

/**
 * Request `request` of the line items import: LINE_ITEM_STATEMENTS_PER_REQUEST statements, each
 * with 30 line items; statement k of the run is the (k / IMPORT_ACCOUNTS)th month of account
 * k % IMPORT_ACCOUNTS, so no two requests share a statement.
 */
export function lineItemBody(request: number): string {
  const statements = Array.from({ length: LINE_ITEM_STATEMENTS_PER_REQUEST }, (_, i) => {
    const k = request * LINE_ITEM_STATEMENTS_PER_REQUEST + i;
    const a = k % IMPORT_ACCOUNTS;
    const month = Math.floor(k / IMPORT_ACCOUNTS);
    const s = statement(`imp_li_${pad(a, 5)}_${pad(month, 3)}`, accountId(a), month, k);
    return { ...s, line_items: lineItems(s, k) };
  });
  return JSON.stringify({ statements });
}

/**
 * The largest import with line items the service accepts: 25 statements of 1,000 line items each
 * (25,000, the import's limit), every line item with every optional field, its texts (id,
 * description, merchant name and city) grown in step towards their limits (128, 200, 200, 100
 * characters) until the next step would pass `maxBytes`. `tag` keeps one body's ids apart.
 */
export function largestLineItemsBody(tag: string, maxBytes: number): string {
  const perStatement = 1000;
  const statements = 25;
  const text = (prefix: string, length: number) => prefix.padEnd(length, "x").slice(0, length);
  const build = (percent: number) => {
    const size = (max: number) => Math.max(12, Math.floor((max * percent) / 100));
    return JSON.stringify({
      statements: Array.from({ length: statements }, (_, i) => {
        const s = statement(`max_${tag}_lst_${pad(i, 4)}`, accountId(i), 199, i);
        const start = Date.parse(s.period_start_date);
        // 996 purchases summing to `purchases`, then the payment, refund, interest and fee.
        const count = perStatement - 4;
        const purchases = count * 50;
        const balance = 9_000 + purchases - 3_000 - 200 + 150 + 50;
        const at = (j: number) => new Date(start + (j + 1) * 2_400_000).toISOString();
        const items: Record<string, unknown>[] = Array.from({ length: count }, (_, j) => ({
          line_item_id: text(`li_${pad(j, 4)}_`, size(128)),
          type: "PURCHASE",
          posted_at: at(j),
          transaction_date: new Date(Date.parse(at(j)) - HOUR).toISOString(),
          description: text(`PURCHASE ${j} `, size(200)),
          amount: 50,
          merchant: {
            name: text(`Merchant ${j} `, size(200)),
            category_code: "5814",
            city: text(`City ${j} `, size(100)),
            country: "GB",
          },
          original_amount: 43,
          original_currency: "GBP",
          card_last4: "4242",
        }));
        (
          [
            ["PAYMENT", -3_000],
            ["REFUND", -200],
            ["INTEREST", 150],
            ["FEE", 50],
          ] as const
        ).forEach(([type, amount], k) => {
          items.push({
            line_item_id: text(`li_${pad(count + k, 4)}_`, size(128)),
            type,
            posted_at: at(count + k),
            description: text(`${type} `, size(200)),
            amount,
          });
        });
        return { ...s, purchases, statement_balance: balance, line_items: items };
      }),
    });
  };
  let low = 1;
  let high = 100;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(build(mid)) <= maxBytes) low = mid;
    else high = mid - 1;
  }
  return build(low);
}
