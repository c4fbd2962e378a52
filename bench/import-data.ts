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
