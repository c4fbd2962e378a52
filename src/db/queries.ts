// The few queries the partner routes need, each one indexed round trip (a batch counts as one).
import {
  and,
  desc,
  eq,
  fillPlaceholders,
  gt,
  gte,
  isNull,
  lt,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { QueryBuilder, SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { Caller } from "../domain/caller";
import type { PagePosition } from "../domain/page-token";
import type { Scope } from "../domain/scopes";
import type { StatementRecord } from "../domain/statement";
import type { Database } from "./client";
import { accounts, apiKeys, customers, partners, statements } from "./schema";

// The hot path's SQL is built once per isolate from the schema, with placeholders, and only bound
// per request: building a drizzle query costs more CPU than the rest of a request's own work.
const qb = new QueryBuilder();
const placeholder = sql.placeholder;

/**
 * The one definition of a live key: not revoked, and not past its expiry at `now` (the request
 * clock, RFC 3339 UTC, which sorts like the stored instants). Every read gated on a key uses it.
 */
export function keyIsLive(now: SQLWrapper | string): SQL {
  return and(
    isNull(apiKeys.revokedAt),
    or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
  ) as SQL;
}

/**
 * When a key may authenticate: its hash matches and it is live at the request's `now`. Every read
 * planned before authentication is a column of the row it selects (see `keyLookup`), so a key
 * that fails it reads nothing else.
 */
const LIVE_KEY = and(eq(apiKeys.keyHash, placeholder("keyHash")), keyIsLive(placeholder("now")));

const CALLER_FIELDS = {
  keyId: apiKeys.keyId,
  partnerId: apiKeys.partnerId,
  environment: apiKeys.environment,
  scopes: apiKeys.scopes,
  lastUsedOn: apiKeys.lastUsedOn,
  savedVersionSandbox: partners.savedVersionSandbox,
  savedVersionProduction: partners.savedVersionProduction,
  merchantKeys: partners.merchantKeys,
};

/**
 * The key lookup, with `aheads` as more columns of the key's row (`ahead_<name>`): scalar
 * subqueries that SQLite evaluates only for a live key (a dead or unknown key matches no row, so
 * nothing else is read), and that travel in the key lookup's one statement.
 */
function keyLookup(aheads: Record<string, SQL> = {}) {
  const columns: Record<string, SQL.Aliased> = {};
  for (const name in aheads) columns[name] = (aheads[name] as SQL).as(`ahead_${name}`);
  return qb
    .select({ ...CALLER_FIELDS, ...columns })
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
  last_used_on: string | null;
  saved_version_sandbox: string;
  saved_version_production: string;
  merchant_keys: string;
  [ahead: `ahead_${string}`]: unknown;
}

/**
 * Reads a route planned before authentication: the key lookup to send, its values, and how the
 * route reads its results (once the caller is known to own them).
 */
export interface ReadAhead<Reads = unknown> {
  lookup: BuiltQuery;
  values: Record<string, unknown>;
  read(results: ReadAheadResults): Reads;
}

/** The values of the `ahead_*` columns, by name without the prefix. */
export type ReadAheadResults = Record<string, unknown>;

/**
 * The key with this hash if it is live at `now`, with its partner's saved versions and products
 * (null if none), and the results of `readAhead`, read in the same statement: one round trip. The
 * results must only be used once the caller is known to own them.
 */
export async function findCallerByKeyHash(
  db: Database,
  keyHash: string,
  now: Date,
  readAhead?: ReadAhead,
): Promise<{ caller: Caller | null; readAhead: ReadAheadResults }> {
  const query = readAhead?.lookup ?? KEY_LOOKUP;
  const key = { keyHash, now: now.toISOString() };
  const values = readAhead ? { ...readAhead.values, ...key } : key;
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
    scopes: JSON.parse(row.scopes) as Scope[],
    lastUsedOn: row.last_used_on,
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

export type StatementRow = typeof statements.$inferSelect;

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
function pageAsJson(where: SQL | undefined): SQL<string> {
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
  return sql<string>`(SELECT json_group_array(json_array(${values})) FROM (${page}))`;
}

const OWNER = sql<string>`(SELECT json_array(${accounts.customerId}, ${accounts.partnerId}, ${
  accounts.environment
}, ${accounts.merchantKey}) FROM ${accounts} WHERE ${eq(
  accounts.accountId,
  placeholder("accountId"),
)})`;
const keysetAfter = sql`(${statements.periodEndDate}, ${statements.statementId}) < (${placeholder("afterEnd")}, ${placeholder("afterId")})`;
// Filtered listings: the bounds are one range of the same index. A continuation needs no upper
// bound: its position, taken from a row that passed the filter, is already below it.
const fromBound = gte(statements.periodEndDate, placeholder("gte"));
const belowBound = lt(statements.periodEndDate, placeholder("lt"));
const FIRST_PAGE = pageAsJson(visibleStatements);
const NEXT_PAGE = pageAsJson(and(visibleStatements, keysetAfter));
const FIRST_FILTERED_PAGE = pageAsJson(and(visibleStatements, fromBound, belowBound));
const NEXT_FILTERED_PAGE = pageAsJson(and(visibleStatements, fromBound, keysetAfter));

/** The key lookups that carry a page, built once per isolate. */
const PAGE_READS = {
  first: keyLookup({ owner: OWNER, page: FIRST_PAGE }),
  next: keyLookup({ page: NEXT_PAGE }),
  firstFiltered: keyLookup({ owner: OWNER, page: FIRST_FILTERED_PAGE }),
  nextFiltered: keyLookup({ page: NEXT_FILTERED_PAGE }),
};

/** A first page without a key lookup, for a reader the dashboard session already authorised. */
const FIRST_PAGE_ALONE = new SQLiteSyncDialect().sqlToQuery(sql`SELECT ${FIRST_PAGE} AS page`);

/** Bounds on `period_end_date` (normalised timestamps); an absent bound does not filter. */
export interface PeriodEndBounds {
  gte?: string;
  lt?: string;
}
// Every stored date (`YYYY-…`) sorts after "" and before "~".
const NO_LOWER_BOUND = "";
const NO_UPPER_BOUND = "~";

/**
 * The reads of a statements page, all answerable without knowing the caller, so they can ride in
 * the key lookup's statement: the account's owner (first page only) and up to `limit + 1`
 * visible statements after `after` and inside `bounds` (the extra row only signals `has_more`).
 * Rows read: the key, its partner, the account, the page, and nothing past the key for a key that
 * is not live. A continuation page skips the owner: its token, signed under the very binding the
 * owner check proved, is issued only after that check, and ownership never changes.
 */
export function statementPageReads(
  accountId: string,
  after: PagePosition | null,
  limit: number,
  bounds: PeriodEndBounds = {},
): ReadAhead<StatementPageReads> {
  const filtered = bounds.gte !== undefined || bounds.lt !== undefined;
  const values: Record<string, unknown> = { accountId, limit: limit + 1 };
  if (after) {
    values.afterEnd = after.periodEndDate;
    values.afterId = after.statementId;
  }
  if (filtered) {
    values.gte = bounds.gte ?? NO_LOWER_BOUND;
    if (!after) values.lt = bounds.lt ?? NO_UPPER_BOUND;
  }
  const lookup = filtered
    ? PAGE_READS[after ? "nextFiltered" : "firstFiltered"]
    : PAGE_READS[after ? "next" : "first"];
  return { lookup, values, read: statementPageResults };
}

/**
 * A first page of an account's visible statements (up to `limit + 1`, newest first) read without
 * a key: for the dashboard's version preview, whose caller the dashboard session already
 * authorised.
 */
export async function readFirstStatementPage(
  db: Database,
  accountId: string,
  limit: number,
): Promise<StatementRecord[]> {
  const page = await db.$client
    .prepare(FIRST_PAGE_ALONE.sql)
    .bind(...fillPlaceholders(FIRST_PAGE_ALONE.params, { accountId, limit: limit + 1 }))
    .first<string>("page");
  return statementPageResults({ page }).rows;
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

/** What a statements page read: the account's owner, and the page's rows. */
export interface StatementPageReads {
  /** The account's owner (null: no such account); undefined on a continuation. */
  owner: AccountOwner | null | undefined;
  /** Up to `limit + 1` statements, newest first. */
  rows: StatementRecord[];
}

/** The owner (first page only: undefined on a continuation) and the rows, newest first. */
export function statementPageResults(results: ReadAheadResults): StatementPageReads {
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
