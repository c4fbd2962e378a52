// A customer's transaction intents page, read in the key lookup's own statement (one D1 round
// trip): the customer's stored read scope and the page, newest first (ids sort by creation time)
// through `transaction_intents_customer_idx` or, filtered by status, `transaction_intents_status_idx`,
// planned before authentication and keyed by the customer's row. The route checks that scope
// against the caller's before anything read is used.
import { and, desc, eq, getTableColumns, lt, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/sqlite-core";
import type { ReadScope } from "../db/customers";
import { jsonObjectOf, pageAsJson } from "../db/json-page";
import { type BoundQuery, keyLookupsByShape, type ReadAhead, readAlone } from "../db/key-lookup";
import { customers } from "../db/schema";
import type { IntentStatus } from "./api-schemas";
import type { IntentRow } from "./intent-store";
import { transactionIntents } from "./schema";

const qb = new QueryBuilder();
const placeholder = sql.placeholder;

/** The terms a page is read in: a customer and its read scope, as columns or placeholders. */
interface PageTerms {
  partnerId: SQLWrapper;
  environment: SQLWrapper;
  merchantKey: SQLWrapper;
  customerId: SQLWrapper;
}

/**
 * Up to `limit` of the customer's intents (the leading columns of both indexes), of the status
 * `status` when filtered, after the id `after` when continued, newest first, as one JSON array.
 */
function pageOf(terms: PageTerms, after: boolean, status: boolean): SQL<string> {
  const page = qb
    .select({ row: jsonObjectOf(getTableColumns(transactionIntents)).as("row") })
    .from(transactionIntents)
    .where(
      and(
        eq(transactionIntents.partnerId, terms.partnerId),
        eq(transactionIntents.environment, terms.environment),
        eq(transactionIntents.merchantKey, terms.merchantKey),
        eq(transactionIntents.customerId, terms.customerId),
        status ? eq(transactionIntents.status, placeholder("status")) : undefined,
        after ? lt(transactionIntents.intentId, placeholder("after")) : undefined,
      ),
    )
    .orderBy(desc(transactionIntents.intentId))
    .limit(placeholder("limit"));
  return pageAsJson(page);
}

/**
 * The customer by its primary key, as one JSON array: its read scope, then the page read in it.
 * Null for a customer that does not exist.
 */
function customerWithPage(after: boolean, status: boolean): SQL<string> {
  const page = pageOf(
    {
      partnerId: customers.partnerId,
      environment: customers.environment,
      merchantKey: customers.merchantKey,
      customerId: customers.customerId,
    },
    after,
    status,
  );
  return sql<string>`(${qb
    .select({
      found: sql`json_array(${customers.partnerId}, ${customers.environment}, ${
        customers.merchantKey
      }, json(${page}))`.as("found"),
    })
    .from(customers)
    .where(eq(customers.customerId, placeholder("customerId")))})`;
}

/** The key lookups that carry an intents page, by its shape. */
const lookupOf = keyLookupsByShape(([after, status]: [boolean, boolean]) => ({
  intents: customerWithPage(after, status),
}));

/** What an intents page read, for the route to check before it uses any of it. */
export interface IntentPageReads {
  /** The read scope the customer was stored in; null when there is no such customer. */
  stored: ReadScope | null;
  /** Up to `limit + 1` intents, newest first; the extra row only signals `has_more`. */
  rows: IntentRow[];
}

const newestFirst = (a: IntentRow, b: IntentRow) =>
  a.intentId < b.intentId ? 1 : a.intentId > b.intentId ? -1 : 0;

/**
 * The reads of a page of the customer's intents, all answerable without knowing the caller: rows
 * read are the key, its partner, the customer and the page's up to `limit + 1` intents; nothing
 * past the key for a key that is not live.
 */
export function intentPageReads(
  customerId: string,
  status: IntentStatus | undefined,
  after: string | null,
  limit: number,
): ReadAhead<IntentPageReads> {
  const values: Record<string, unknown> = { customerId, limit: limit + 1 };
  if (after !== null) values.after = after;
  if (status !== undefined) values.status = status;
  return {
    lookup: lookupOf([after !== null, status !== undefined]),
    values,
    read(results) {
      if (typeof results.intents !== "string") return { stored: null, rows: [] };
      // customerWithPage's json_array: the scope's three NOT NULL columns, then the page of
      // jsonObjectOf objects of every column, each an IntentRow.
      const [partnerId, environment, merchantKey, page] = JSON.parse(results.intents) as [
        string,
        ReadScope["environment"],
        string,
        IntentRow[],
      ];
      // SQL does not promise the aggregate the page's order: sorting a sorted page is one pass.
      return { stored: { partnerId, environment, merchantKey }, rows: page.sort(newestFirst) };
    },
  };
}

const firstPageAlone = readAlone(
  () =>
    sql`SELECT ${pageOf(
      {
        partnerId: placeholder("partnerId"),
        environment: placeholder("environment"),
        merchantKey: placeholder("merchantKey"),
        customerId: placeholder("customerId"),
      },
      false,
      false,
    )} AS page`,
);

/**
 * The SQL and values of a first, unfiltered intents page on its own (`SELECT … AS page`), bound
 * to the scope instead of read in the customer's: the page the API reads inside its key lookup,
 * without the lookup or the customer. The bench's floor runs it as the least a page can cost.
 */
export function intentPageAlone(scope: ReadScope, customerId: string, limit: number): BoundQuery {
  return firstPageAlone({ ...scope, customerId, limit: limit + 1 });
}
