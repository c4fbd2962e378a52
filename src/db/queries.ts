// The few queries the partner routes need, each one indexed round trip (a batch counts as one).
import { and, desc, eq, fillPlaceholders, isNull, type SQL, sql } from "drizzle-orm";
import { QueryBuilder, SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { Caller } from "../app/context";
import type { PagePosition } from "../domain/page-token";
import type { StatementRecord } from "../domain/statement";
import type { Database } from "./client";
import { accounts, apiKeys, customers, partners, statements } from "./schema";

// The hot path's SQL is built once per isolate from the schema, with placeholders, and only bound
// per request: building a drizzle query costs more CPU than the rest of a request's own work.
const qb = new QueryBuilder();
const placeholder = sql.placeholder;

/** A key is live when it is not revoked: the one place that says so. */
const LIVE_KEY = and(eq(apiKeys.keyHash, placeholder("keyHash")), isNull(apiKeys.revokedAt));

const CALLER_FIELDS = {
  keyId: apiKeys.keyId,
  partnerId: apiKeys.partnerId,
  environment: apiKeys.environment,
  scopes: apiKeys.scopes,
  savedVersionSandbox: partners.savedVersionSandbox,
  savedVersionProduction: partners.savedVersionProduction,
  merchantKeys: partners.merchantKeys,
};

/**
 * The key lookup, with `aheads` as more columns of the key's row: scalar subqueries that SQLite
 * evaluates only for a live key (a dead or unknown key matches no row, so nothing else is read),
 * and that travel in the key lookup's one statement.
 */
function keyLookup(aheads: Record<string, SQL.Aliased> = {}) {
  return qb
    .select({ ...CALLER_FIELDS, ...aheads })
    .from(apiKeys)
    .innerJoin(partners, eq(partners.partnerId, apiKeys.partnerId))
    .where(LIVE_KEY)
    .toSQL();
}

type BuiltQuery = ReturnType<typeof keyLookup>;

const KEY_LOOKUP = keyLookup();

interface KeyRow {
  key_id: string;
  partner_id: string;
  environment: "sandbox" | "production";
  scopes: string;
  saved_version_sandbox: string;
  saved_version_production: string;
  merchant_keys: string;
  [ahead: `ahead_${string}`]: unknown;
}

/** Reads a route planned before authentication: the key lookup to send, and its values. */
export interface ReadAhead {
  lookup: BuiltQuery;
  values: Record<string, unknown>;
}

/** The values of the `ahead_*` columns, by name without the prefix. */
export type ReadAheadResults = Record<string, unknown>;

/**
 * The live key with this hash, with its partner's saved versions and products (null if none),
 * and the results of `readAhead`, read in the same statement: one round trip. The results must
 * only be used once the caller is known to own them.
 */
export async function findCallerByKeyHash(
  db: Database,
  keyHash: string,
  readAhead?: ReadAhead,
): Promise<{ caller: Caller | null; readAhead: ReadAheadResults }> {
  const query = readAhead?.lookup ?? KEY_LOOKUP;
  const values = readAhead ? { ...readAhead.values, keyHash } : { keyHash };
  const { results } = await db.$client
    .prepare(query.sql)
    .bind(...fillPlaceholders(query.params, values))
    .all<KeyRow>();
  const row = results[0];
  if (!row) return { caller: null, readAhead: {} };
  const aheads: ReadAheadResults = {};
  for (const column in row) {
    if (column.startsWith("ahead_")) aheads[column.slice(6)] = row[column as `ahead_${string}`];
  }
  const caller: Caller = {
    keyId: row.key_id,
    partnerId: row.partner_id,
    environment: row.environment,
    scopes: JSON.parse(row.scopes) as string[],
    savedVersion:
      row.environment === "sandbox" ? row.saved_version_sandbox : row.saved_version_production,
    merchantKeys: JSON.parse(row.merchant_keys) as string[],
  };
  return { caller, readAhead: aheads };
}

/** Where a customer-scoped read may look: the caller's partner, environment and product. */
export interface ReadScope {
  partnerId: string;
  environment: string;
  merchantKey: string;
}

/** Matches a customer only inside the read scope; anything else is indistinguishable from absent. */
export function customerInScope(scope: ReadScope, customerId: string): SQL {
  return and(
    eq(customers.customerId, customerId),
    eq(customers.partnerId, scope.partnerId),
    eq(customers.environment, scope.environment as "sandbox" | "production"),
    eq(customers.merchantKey, scope.merchantKey),
  ) as SQL;
}

/** The owner of an account: its customer and that customer's read scope (copied at import). */
export interface AccountOwner {
  customerId: string;
  partnerId: string;
  environment: string;
  merchantKey: string;
}

/**
 * A page's statements as one JSON value: an array of rows, each an array of PAGE_COLUMNS'
 * values, so D1 sends and the Worker parses a single cell instead of a row object per statement.
 */
const PAGE_COLUMNS = {
  statement_id: statements.statementId,
  account_id: statements.accountId,
  period_start_date: statements.periodStartDate,
  period_end_date: statements.periodEndDate,
  due_date: statements.dueDate,
  currency: statements.currency,
  statement_balance: statements.statementBalance,
  minimum_due: statements.minimumDue,
  previous_balance: statements.previousBalance,
  purchases: statements.purchases,
  payments: statements.payments,
  credits: statements.credits,
  refunds: statements.refunds,
  interest: statements.interest,
  fees: statements.fees,
  overdue_amount: statements.overdueAmount,
  has_pdf: sql<number>`${statements.pdfKey} IS NOT NULL`.as("has_pdf"),
};

type PageRow = [
  string,
  string,
  string | null,
  string,
  string | null,
  string | null,
  ...(number | null)[],
];

const visibleStatements = and(
  eq(statements.accountId, placeholder("accountId")),
  isNull(statements.hiddenAt),
);

/**
 * Up to `limit` visible statements of the account from `where`, newest first, through
 * `statements_page_idx`, as one JSON array (see PAGE_COLUMNS).
 */
function pageAsJson(where: SQL | undefined): SQL.Aliased<string> {
  const page = qb
    .select(PAGE_COLUMNS)
    .from(statements)
    .where(where)
    .orderBy(desc(statements.periodEndDate), desc(statements.statementId))
    .limit(placeholder("limit"));
  const values = sql.join(
    Object.keys(PAGE_COLUMNS).map((name) => sql.identifier(name)),
    sql`, `,
  );
  return sql<string>`(SELECT json_group_array(json_array(${values})) FROM (${page}))`.as(
    "ahead_page",
  );
}

const OWNER = sql<string>`(SELECT json_array(${accounts.customerId}, ${accounts.partnerId}, ${
  accounts.environment
}, ${accounts.merchantKey}) FROM ${accounts} WHERE ${eq(
  accounts.accountId,
  placeholder("accountId"),
)})`.as("ahead_owner");
const FIRST_PAGE = pageAsJson(visibleStatements);
const NEXT_PAGE = pageAsJson(
  and(
    visibleStatements,
    sql`(${statements.periodEndDate}, ${statements.statementId}) < (${placeholder("afterEnd")}, ${placeholder("afterId")})`,
  ),
);

/** The reads of a page, with and without the key lookup, built once per isolate. */
const PAGE_READS = {
  first: {
    withKey: keyLookup({ owner: OWNER, page: FIRST_PAGE }),
    alone: alone(OWNER, FIRST_PAGE),
  },
  next: { withKey: keyLookup({ page: NEXT_PAGE }), alone: alone(NEXT_PAGE) },
};

/** The same reads without a key lookup, for a handler that planned nothing ahead. */
function alone(...aheads: SQL.Aliased[]): BuiltQuery {
  const columns = sql.join(
    aheads.map((ahead) => sql`${ahead}`),
    sql`, `,
  );
  return new SQLiteSyncDialect().sqlToQuery(sql`SELECT ${columns}`) as BuiltQuery;
}

function pageValues(accountId: string, after: PagePosition | null, limit: number) {
  return after
    ? { accountId, limit: limit + 1, afterEnd: after.periodEndDate, afterId: after.statementId }
    : { accountId, limit: limit + 1 };
}

/**
 * The reads of a statements page, all answerable without knowing the caller, so they can ride in
 * the key lookup's statement: the account's owner (first page only) and up to `limit + 1`
 * visible statements after `after` (the extra row only signals `has_more`). A continuation page
 * skips the owner: its token, signed under the very binding the owner check proved, is issued
 * only after that check, and ownership never changes.
 */
export function statementPageReads(
  accountId: string,
  after: PagePosition | null,
  limit: number,
): ReadAhead {
  return {
    lookup: PAGE_READS[after ? "next" : "first"].withKey,
    values: pageValues(accountId, after, limit),
  };
}

/** The same reads on their own, when nothing was planned ahead of authentication. */
export async function readStatementPage(
  db: Database,
  accountId: string,
  after: PagePosition | null,
  limit: number,
): Promise<ReadAheadResults> {
  const query = PAGE_READS[after ? "next" : "first"].alone;
  const row = await db.$client
    .prepare(query.sql)
    .bind(...fillPlaceholders(query.params, pageValues(accountId, after, limit)))
    .first<Record<string, unknown>>();
  const aheads: ReadAheadResults = {};
  for (const column in row ?? {}) aheads[column.slice(6)] = row?.[column];
  return aheads;
}

const newestFirst = (a: PageRow, b: PageRow) =>
  a[3] === b[3] ? (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0) : a[3] < b[3] ? 1 : -1;

function toRecord(row: PageRow): StatementRecord {
  return {
    statementId: row[0],
    accountId: row[1],
    periodStartDate: row[2],
    periodEndDate: row[3],
    dueDate: row[4],
    currency: row[5],
    statementBalance: row[6] ?? null,
    minimumDue: row[7] ?? null,
    previousBalance: row[8] ?? null,
    purchases: row[9] ?? null,
    payments: row[10] ?? null,
    credits: row[11] ?? null,
    refunds: row[12] ?? null,
    interest: row[13] ?? null,
    fees: row[14] ?? null,
    overdueAmount: row[15] ?? null,
    hasPdf: row[16] === 1,
  };
}

/** The owner (first page only: undefined on a continuation) and the rows, newest first. */
export function statementPageResults(results: ReadAheadResults): {
  owner: AccountOwner | null | undefined;
  rows: StatementRecord[];
} {
  const rows = JSON.parse(String(results.page ?? "[]")) as PageRow[];
  // SQLite hands the subquery's rows to the aggregate in its ORDER BY order, but SQL does not
  // promise it: sorting an already sorted page is one linear pass.
  rows.sort(newestFirst);
  let owner: AccountOwner | null | undefined;
  if ("owner" in results) {
    const found = results.owner === null ? null : (JSON.parse(String(results.owner)) as string[]);
    owner = found
      ? {
          customerId: found[0] as string,
          partnerId: found[1] as string,
          environment: found[2] as string,
          merchantKey: found[3] as string,
        }
      : null;
  }
  return { owner, rows: rows.map(toRecord) };
}

/** Whether the customer exists inside the read scope (one indexed row). */
export async function customerExists(
  db: Database,
  scope: ReadScope,
  customerId: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: customers.customerId })
    .from(customers)
    .where(customerInScope(scope, customerId));
  return rows.length > 0;
}
