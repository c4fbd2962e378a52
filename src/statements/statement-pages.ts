// A statements page: its SQL built once per isolate, read in the key lookup's own statement (one
// D1 round trip per page through `statements_page_idx`), and the rows it answers.
import { and, desc, eq, fillPlaceholders, gte, isNull, lt, type SQL, sql } from "drizzle-orm";
import { QueryBuilder, SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { accounts } from "../accounts/schema";
import type { Database } from "../db/client";
import { keyLookup, type ReadAhead, type ReadAheadResults } from "../db/key-lookup";
import type { PagePosition } from "../domain/page-token";
import type { StatementRewards } from "../domain/rewards";
import type { InterestRate, StatementRecord } from "../domain/statement";
import { statements } from "./schema";
import { type PageRow, STATEMENT_OBJECT } from "./statement-fields";

const qb = new QueryBuilder();
const placeholder = sql.placeholder;

/** The owner of an account: its customer and that customer's read scope (copied at import). */
export interface AccountOwner {
  customerId: string;
  partnerId: string;
  environment: string;
  merchantKey: string;
}

/** Listed: neither hidden nor replaced by a correction (the terms of `statements_page_idx`). */
const visibleStatements = and(
  eq(statements.accountId, placeholder("accountId")),
  isNull(statements.hiddenAt),
  isNull(statements.restatedBy),
);

/**
 * Up to `limit` listed statements of the account from `where`, newest first, through
 * `statements_page_idx`, as one JSON array of STATEMENT_OBJECTs: D1 sends and the Worker parses a
 * single cell instead of a row per statement.
 */
function pageAsJson(where: SQL | undefined): SQL<string> {
  const page = qb
    .select({ statement: STATEMENT_OBJECT.as("statement") })
    .from(statements)
    .where(where)
    .orderBy(desc(statements.periodEndDate), desc(statements.statementId))
    .limit(placeholder("limit"));
  // json(): the subquery hands the aggregate each object as text.
  return sql<string>`(SELECT json_group_array(json(statement)) FROM (${page}))`;
}

/** The account's owner: its customer and that customer's read scope, as one JSON array. */
export const OWNER = sql<string>`(SELECT json_array(${accounts.customerId}, ${
  accounts.partnerId
}, ${accounts.environment}, ${accounts.merchantKey}) FROM ${accounts} WHERE ${eq(
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

/** Pages without a key lookup, for a reader the dashboard session already authorised. */
const dialect = new SQLiteSyncDialect();
const PAGES_ALONE = {
  first: dialect.sqlToQuery(sql`SELECT ${FIRST_PAGE} AS page`),
  next: dialect.sqlToQuery(sql`SELECT ${NEXT_PAGE} AS page`),
};

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
 * A page of an account's visible statements (up to `limit + 1`, newest first, after `after` when
 * given) read without a key, through the same index and SQL as the API's pages: for the
 * dashboard (the version preview, the customers pages), whose reader the dashboard session
 * already authorised.
 */
export async function readStatementPage(
  db: Database,
  accountId: string,
  after: PagePosition | null,
  limit: number,
): Promise<StatementRecord[]> {
  const query = statementPageAlone(accountId, after, limit);
  const page = await db.$client
    .prepare(query.sql)
    .bind(...query.params)
    .first<string>("page");
  return statementPageResults({ page }).rows;
}

/**
 * The SQL and values of a statements page on its own (`SELECT … AS page`): the very page the API
 * reads inside its key lookup, without the lookup. The dashboard reads it so; the bench's floor
 * Worker runs it as the least a page can cost.
 */
export function statementPageAlone(
  accountId: string,
  after: PagePosition | null,
  limit: number,
): { sql: string; params: unknown[] } {
  const query = PAGES_ALONE[after ? "next" : "first"];
  const values: Record<string, unknown> = { accountId, limit: limit + 1 };
  if (after) {
    values.afterEnd = after.periodEndDate;
    values.afterId = after.statementId;
  }
  return { sql: query.sql, params: fillPlaceholders(query.params, values) };
}

const newestFirst = (a: PageRow, b: PageRow) =>
  a.periodEndDate === b.periodEndDate
    ? a.statementId < b.statementId
      ? 1
      : a.statementId > b.statementId
        ? -1
        : 0
    : a.periodEndDate < b.periodEndDate
      ? 1
      : -1;

/**
 * The rates as the row holds them: embedded JSON, or its text where SQLite did not carry the
 * value's JSON subtype through the page's subquery.
 */
function ratesOf(value: InterestRate[] | string | null): InterestRate[] | null {
  if (value === null || value === undefined) return null;
  // The column holds InterestRate[] as JSON (its schema's type): the rates an import validated,
  // or those a simulated cycle computed.
  return typeof value === "string" ? (JSON.parse(value) as InterestRate[]) : value;
}

/** The rewards as the row holds them: embedded JSON, or its text (as for the rates). */
function rewardsOf(value: StatementRewards | string | null): StatementRewards | null {
  if (value === null || value === undefined) return null;
  // The column holds StatementRewards as JSON (its schema's type): the rewards an import
  // validated, or those a simulated cycle computed.
  return typeof value === "string" ? (JSON.parse(value) as StatementRewards) : value;
}

/** A statement of a page (or read alone, as the same object) as the data layer answers it. */
export function toRecord(row: PageRow): StatementRecord {
  return {
    ...row,
    hasPdf: row.hasPdf === 1,
    interestRates: ratesOf(row.interestRates),
    rewards: rewardsOf(row.rewards),
  };
}

/** What a statements page read: the account's owner, and the page's rows. */
export interface StatementPageReads {
  /** The account's owner (null: no such account); undefined on a continuation. */
  owner: AccountOwner | null | undefined;
  /** Up to `limit + 1` statements, newest first. */
  rows: StatementRecord[];
}

/**
 * The owner an OWNER read found: null for an account that does not exist, undefined when the
 * reads left it out.
 */
export function ownerOf(results: ReadAheadResults): AccountOwner | null | undefined {
  if (!("owner" in results)) return undefined;
  if (results.owner === null || results.owner === undefined) return null;
  // OWNER's json_array holds four NOT NULL text columns of the account, in this order.
  const [customerId, partnerId, environment, merchantKey] = JSON.parse(String(results.owner)) as [
    string,
    string,
    string,
    string,
  ];
  return { customerId, partnerId, environment, merchantKey };
}

/** The owner (first page only: undefined on a continuation) and the rows, newest first. */
function statementPageResults(results: ReadAheadResults): StatementPageReads {
  // The page is pageAsJson's json_group_array of STATEMENT_OBJECTs, each one a PageRow.
  const rows = JSON.parse(String(results.page ?? "[]")) as PageRow[];
  // SQLite hands the subquery's rows to the aggregate in its ORDER BY order, but SQL does not
  // promise it: sorting an already sorted page is one linear pass.
  rows.sort(newestFirst);
  return { owner: ownerOf(results), rows: rows.map(toRecord) };
}
