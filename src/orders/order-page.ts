// A page of orders, read in the key lookup's own statement (one D1 round trip): newest first (ids
// sort by creation time) through `orders_scope_idx`, or `orders_customer_idx` when filtered by
// customer, planned before authentication. The page is read in the key's own partner and
// environment (the columns of the key's row) and in the product the request names; the route
// checks that product against the one the pipeline resolved before it uses the page.
import { and, desc, eq, getTableColumns, lt, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/sqlite-core";
import type { ReadScope } from "../db/customers";
import { jsonObjectOf, pageAsJson } from "../db/json-page";
import { type BoundQuery, keyLookupsByShape, type ReadAhead, readAlone } from "../db/key-lookup";
import { apiKeys, partners } from "../db/schema";
import type { OrderRow } from "./order-rows";
import type { OrderFilters } from "./order-store";
import { orders } from "./schema";

const qb = new QueryBuilder();
const placeholder = sql.placeholder;

/** The read scope a page is read in, as columns or placeholders. */
interface PageScope {
  partnerId: SQLWrapper;
  environment: SQLWrapper;
  merchantKey: SQLWrapper;
}

/** Which filters a page's query carries, and whether it continues after an id. */
interface PageShape {
  customer: boolean;
  partnerOrder: boolean;
  after: boolean;
}

/** Up to `limit` of the scope's orders, filtered as `shape` says, newest first, as one JSON array. */
function pageOf(scope: PageScope, shape: PageShape): SQL<string> {
  const page = qb
    .select({ row: jsonObjectOf(getTableColumns(orders)).as("row") })
    .from(orders)
    .where(
      and(
        eq(orders.partnerId, scope.partnerId),
        eq(orders.environment, scope.environment),
        eq(orders.merchantKey, scope.merchantKey),
        shape.customer ? eq(orders.customerId, placeholder("customerId")) : undefined,
        shape.partnerOrder ? eq(orders.partnerOrderId, placeholder("partnerOrderId")) : undefined,
        shape.after ? lt(orders.orderId, placeholder("after")) : undefined,
      ),
    )
    .orderBy(desc(orders.orderId))
    .limit(placeholder("limit"));
  return pageAsJson(page);
}

/**
 * The product the lookup reads in, as the pipeline resolves it for every request it lets through:
 * the one the header names, else the partner's one product ('' for none: no orders at all). A
 * partner with several products must send the header, or is refused before the page is used.
 */
const PRODUCT = sql`COALESCE(${placeholder("merchantKey")}, json_extract(${partners.merchantKeys}, '$[0]'), '')`;

/** The product read in, then the page read in the key's partner, environment and that product. */
function productWithPage(shape: PageShape): SQL<string> {
  const page = pageOf(
    { partnerId: apiKeys.partnerId, environment: apiKeys.environment, merchantKey: PRODUCT },
    shape,
  );
  return sql<string>`json_array(${PRODUCT}, json(${page}))`;
}

/** The key lookups that carry an orders page, by its shape. */
const lookupOf = keyLookupsByShape((shape: PageShape) => ({ orders: productWithPage(shape) }));

/** What an orders page read, for the route to check before it uses any of it. */
export interface OrderPageReads {
  /** The product the page was read in. */
  merchantKey: string;
  /** Up to `limit + 1` orders, newest first; the extra row only signals `has_more`. */
  rows: OrderRow[];
}

const newestFirst = (a: OrderRow, b: OrderRow) =>
  a.orderId < b.orderId ? 1 : a.orderId > b.orderId ? -1 : 0;

/**
 * The reads of an orders page, answerable once the key's row is found: rows read are the key, its
 * partner and the page's up to `limit + 1` orders; nothing past the key for a key that is not
 * live. `merchantKey` is the product the request's header names, if it sends one.
 */
export function orderPageReads(
  merchantKey: string | undefined,
  filters: OrderFilters,
  after: string | null,
  limit: number,
): ReadAhead<OrderPageReads> {
  const shape: PageShape = {
    customer: filters.customer_id !== undefined,
    partnerOrder: filters.partner_order_id !== undefined,
    after: after !== null,
  };
  const values: Record<string, unknown> = { merchantKey: merchantKey ?? null, limit: limit + 1 };
  if (filters.customer_id !== undefined) values.customerId = filters.customer_id;
  if (filters.partner_order_id !== undefined) values.partnerOrderId = filters.partner_order_id;
  if (after !== null) values.after = after;
  return {
    lookup: lookupOf(shape),
    values,
    read(results) {
      // productWithPage's json_array: the product (text), then the page of jsonObjectOf objects
      // of every column, each an OrderRow. Always a row's value: the key's row was found.
      const [product, page] = JSON.parse(String(results.orders)) as [string, OrderRow[]];
      // SQL does not promise the aggregate the page's order: sorting a sorted page is one pass.
      return { merchantKey: product, rows: page.sort(newestFirst) };
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
      },
      { customer: false, partnerOrder: false, after: false },
    )} AS page`,
);

/**
 * The SQL and values of a first, unfiltered orders page on its own (`SELECT … AS page`), bound to
 * the scope: the page the API reads inside its key lookup, without the lookup. The bench's floor
 * runs it as the least a page can cost.
 */
export function orderPageAlone(scope: ReadScope, limit: number): BoundQuery {
  return firstPageAlone({ ...scope, limit: limit + 1 });
}
