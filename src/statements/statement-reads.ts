// One statement, and a page of its line items, each read in the key lookup's own statement (one
// D1 round trip): the account's owner, the statement row by its primary key, and for a page up to
// `limit + 1` line items per keyset branch (one branch, or one per type filtered on).
import { and, asc, eq, fillPlaceholders, type SQL, sql } from "drizzle-orm";
import { QueryBuilder, SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { keyLookup, keyLookupsByShape, type ReadAhead } from "../db/key-lookup";
import {
  documentOrder,
  LINE_ITEM_TYPES,
  type LineItemPosition,
  type LineItemRecord,
  type LineItemType,
} from "../domain/line-item";
import type { StatementRecord } from "../domain/statement";
import { statementLineItems, statements } from "./schema";
import { type PageRow, STATEMENT_OBJECT } from "./statement-fields";
import { type AccountOwner, OWNER, ownerOf, toRecord } from "./statement-pages";

const qb = new QueryBuilder();
const placeholder = sql.placeholder;

/**
 * The statement by its primary key: its account, whether it is hidden, and (for a retrieve) its
 * row in the statements page's columns.
 */
const STATEMENT_HEAD = sql<string>`(SELECT json_array(${statements.accountId}, ${
  statements.hiddenAt
} IS NULL) FROM ${statements} WHERE ${eq(statements.statementId, placeholder("statementId"))})`;
const STATEMENT_ROW = sql<string>`(SELECT json_array(${statements.hiddenAt} IS NULL, ${STATEMENT_OBJECT}) FROM ${statements} WHERE ${eq(statements.statementId, placeholder("statementId"))})`;

const RETRIEVE = keyLookup({ owner: OWNER, statement: STATEMENT_ROW });

/** What the statement's reads found. */
export interface StatementFound<Row> {
  /** The account's owner; null for an account that does not exist, undefined when not read. */
  owner: AccountOwner | null | undefined;
  /** The statement with its account and whether it is hidden; null when there is none. */
  statement: { accountId: string; visible: boolean; row: Row } | null;
}

/**
 * The reads of one statement of an account: rows read are the key, its partner, the account and
 * the statement; nothing past the key for a key that is not live.
 */
export function statementReads(
  accountId: string,
  statementId: string,
): ReadAhead<StatementFound<StatementRecord>> {
  return {
    lookup: RETRIEVE,
    values: { accountId, statementId },
    read: (results) => ({ owner: ownerOf(results), statement: statementOf(results.statement) }),
  };
}

/** The statement a STATEMENT_ROW read found (its visibility, then its row), or null. */
function statementOf(raw: unknown): StatementFound<StatementRecord>["statement"] {
  if (raw === null || raw === undefined) return null;
  // STATEMENT_ROW's json_array is the visibility flag, then STATEMENT_OBJECT: a PageRow.
  const [visible, row] = JSON.parse(String(raw)) as [number, PageRow];
  const record = toRecord(row);
  return { accountId: record.accountId, visible: visible === 1, row: record };
}

// Line items, in document order, as one JSON array of arrays (see LINE_ITEM_VALUES).
const LINE_ITEM_COLUMNS = {
  line_item_id: statementLineItems.lineItemId,
  type: statementLineItems.type,
  posted_at: statementLineItems.postedAt,
  transaction_date: statementLineItems.transactionDate,
  description: statementLineItems.description,
  amount: statementLineItems.amount,
  merchant_name: statementLineItems.merchantName,
  merchant_category_code: statementLineItems.merchantCategoryCode,
  merchant_city: statementLineItems.merchantCity,
  merchant_country: statementLineItems.merchantCountry,
  original_amount: statementLineItems.originalAmount,
  original_currency: statementLineItems.originalCurrency,
  card_last4: statementLineItems.cardLast4,
};

type LineItemRow = [
  string,
  LineItemType,
  string,
  string | null,
  string,
  number,
  string | null,
  string | null,
  string | null,
  string | null,
  number | null,
  string | null,
  string | null,
];

const keysetAfter = sql`(${statementLineItems.postedAt}, ${statementLineItems.lineItemId}) > (${placeholder("afterPosted")}, ${placeholder("afterId")})`;

/**
 * One keyset branch: up to `limit` line items of the statement after the position (when `after`),
 * of one type (the placeholder `type<n>`, through `statement_line_items_type_idx`) or of every
 * type (through `statement_line_items_page_idx`), in document order.
 */
function branch(typeSlot: number | null, after: boolean): SQL {
  const conditions: (SQL | undefined)[] = [
    eq(statementLineItems.statementId, placeholder("statementId")),
  ];
  if (typeSlot !== null) {
    conditions.push(eq(statementLineItems.type, placeholder(`type${typeSlot}`)));
  }
  if (after) conditions.push(keysetAfter);
  const query = qb
    .select(LINE_ITEM_COLUMNS)
    .from(statementLineItems)
    .where(and(...conditions))
    .orderBy(asc(statementLineItems.postedAt), asc(statementLineItems.lineItemId))
    .limit(placeholder("limit"));
  return sql`SELECT * FROM (${query})`;
}

/** The branches merged into one JSON array (each branch is already in document order). */
function pageAsJson(branches: SQL[]): SQL<string> {
  const values = sql.join(
    Object.keys(LINE_ITEM_COLUMNS).map((name) => sql.identifier(name)),
    sql`, `,
  );
  return sql<string>`(SELECT json_group_array(json_array(${values})) FROM (${sql.join(
    branches,
    sql` UNION ALL `,
  )}))`;
}

/** Key lookups of line items pages, by the shape of their query. */
const pageLookup = keyLookupsByShape(
  ([branches, after]: [number, boolean]): Record<string, SQL> => {
    const parts =
      branches === 0
        ? [branch(null, after)]
        : Array.from({ length: branches }, (_, slot) => branch(slot, after));
    const page = pageAsJson(parts);
    // A continuation skips the owner: its token, signed under the binding the first page's owner
    // check proved, says who may read on, and an account never changes owner.
    return after
      ? { statement: STATEMENT_HEAD, page }
      : { owner: OWNER, statement: STATEMENT_HEAD, page };
  },
);

/**
 * The reads of a line items page. Without a filter, or with every type (the same listing), one
 * branch through the page index; with `k` types, one branch per type through the type index,
 * merged. Rows read: the key, its partner, the account (first page) or the index entry of the
 * token's position (a continuation), the statement, and per branch up to `limit + 1` line items
 * (or fewer and the entry that ends its range): `limit + 5` unfiltered or with one type, at most
 * `k × (limit + 2) + 4` with `k` types (k ≤ 5), whatever the depth. Every page reads the
 * statement, so one hidden since answers 404 from then on.
 */
export function lineItemPageReads(
  accountId: string,
  statementId: string,
  types: readonly LineItemType[],
  after: LineItemPosition | null,
  limit: number,
): ReadAhead<StatementFound<null> & { rows: LineItemRecord[] }> {
  const everyType = types.length === 0 || types.length === LINE_ITEM_TYPES.length;
  const branches = everyType ? 0 : types.length;
  const values: Record<string, unknown> = { accountId, statementId, limit: limit + 1 };
  if (!everyType) {
    types.forEach((type, slot) => {
      values[`type${slot}`] = type;
    });
  }
  if (after) {
    values.afterPosted = after.postedAt;
    values.afterId = after.lineItemId;
  }
  return {
    lookup: pageLookup([branches, after !== null]),
    values,
    read(results) {
      const raw = results.statement;
      let statement: StatementFound<null>["statement"] = null;
      if (raw !== null && raw !== undefined) {
        // STATEMENT_HEAD's json_array: the statement's account id (NOT NULL), then a 0/1 flag.
        const [accountId, visible] = JSON.parse(String(raw)) as [string, number];
        statement = { accountId, visible: visible === 1, row: null };
      }
      const rows = lineItemsOf(String(results.page ?? "[]")).slice(0, limit + 1);
      return { owner: ownerOf(results), statement, rows };
    },
  };
}

/** One statement and a page of its line items, read without a key lookup (see below). */
const dialect = new SQLiteSyncDialect();
const ALONE = {
  first: dialect.sqlToQuery(
    sql`SELECT ${STATEMENT_ROW} AS statement, ${pageAsJson([branch(null, false)])} AS page`,
  ),
  next: dialect.sqlToQuery(
    sql`SELECT ${STATEMENT_ROW} AS statement, ${pageAsJson([branch(null, true)])} AS page`,
  ),
};

/**
 * A statement (hidden or not: the caller decides) and up to `limit + 1` of its line items after
 * `after`, in document order, in one round trip, through the same SQL as the API's reads: for
 * the dashboard, whose reader its session already authorised.
 */
export async function readStatementWithLineItems(
  db: Database,
  statementId: string,
  after: LineItemPosition | null,
  limit: number,
): Promise<{ statement: StatementFound<StatementRecord>["statement"]; rows: LineItemRecord[] }> {
  const query = ALONE[after ? "next" : "first"];
  const values: Record<string, unknown> = { statementId, limit: limit + 1 };
  if (after) {
    values.afterPosted = after.postedAt;
    values.afterId = after.lineItemId;
  }
  const found = await db.$client
    .prepare(query.sql)
    .bind(...fillPlaceholders(query.params, values))
    .first<{ statement: string | null; page: string }>();
  const rows = lineItemsOf(found?.page ?? "[]");
  return { statement: statementOf(found?.statement), rows };
}

const PAGES_ALONE = {
  first: dialect.sqlToQuery(sql`SELECT ${pageAsJson([branch(null, false)])} AS page`),
  next: dialect.sqlToQuery(sql`SELECT ${pageAsJson([branch(null, true)])} AS page`),
};

/**
 * The SQL and values of a line items page of every type on its own (`SELECT … AS page`): the
 * page the API reads inside its key lookup, without the lookup or the statement. The bench's
 * floor Worker runs it as the least such a page can cost.
 */
export function lineItemPageAlone(
  statementId: string,
  after: LineItemPosition | null,
  limit: number,
): { sql: string; params: unknown[] } {
  const query = PAGES_ALONE[after ? "next" : "first"];
  const values: Record<string, unknown> = { statementId, limit: limit + 1 };
  if (after) {
    values.afterPosted = after.postedAt;
    values.afterId = after.lineItemId;
  }
  return { sql: query.sql, params: fillPlaceholders(query.params, values) };
}

/** The line items of a page as pageAsJson reads them, in document order. */
function lineItemsOf(page: string): LineItemRecord[] {
  // The page is pageAsJson's json_group_array of LINE_ITEM_COLUMNS rows, each one a LineItemRow.
  const rows = (JSON.parse(page) as LineItemRow[]).map(toLineItemRecord);
  // Each branch is in document order, but merged branches are not, and SQL promises no order of
  // a json_group_array's rows.
  return rows.sort((a, b) =>
    documentOrder(
      { postedAt: a.postedAt, lineItemId: a.lineItemId },
      { postedAt: b.postedAt, lineItemId: b.lineItemId },
    ),
  );
}

function toLineItemRecord(row: LineItemRow): LineItemRecord {
  return {
    lineItemId: row[0],
    type: row[1],
    postedAt: row[2],
    transactionDate: row[3],
    description: row[4],
    amount: row[5],
    merchantName: row[6],
    merchantCategoryCode: row[7],
    merchantCity: row[8],
    merchantCountry: row[9],
    originalAmount: row[10],
    originalCurrency: row[11],
    cardLast4: row[12],
  };
}
