// The floors' SQL, taken from the service's own query builders: each floor runs the very statement
// (or batch of statements) the service sends for the same read or write, without anything around
// it. Nothing here is written by hand, so a change to a service query (a new condition, another
// index) reaches its floor as it is made; test/bench/floor-plans.test.ts checks on a migrated
// database that each floor and its service query use the same index and scan no table.
// Type-checked with the Workers' types (tsconfig.json), as the floor Worker that runs it.
import { is, SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Database } from "../src/db/client";
import type { ReadScope } from "../src/db/customers";
import type { Environment } from "../src/domain/environment";
import type { LineItemPosition } from "../src/domain/line-item";
import type { PagePosition } from "../src/domain/page-token";
import {
  type BudgetCharge,
  type NewOrderEvent,
  orderEventWrites,
} from "../src/orders/order-event-store";
import { orderPageAlone } from "../src/orders/order-page";
import { cardPageAlone } from "../src/payment-methods/card-page";
import { accountCategoriesAlone } from "../src/rewards/rewards-store";
import { statementPageAlone } from "../src/statements/statement-pages";
import { lineItemPageAlone } from "../src/statements/statement-reads";
import { intentPageAlone } from "../src/transaction-intents/intent-page";

/** One statement as D1 takes it: its SQL and its values in order. */
export interface Statement {
  sql: string;
  params: unknown[];
}

const dialect = new SQLiteAsyncDialect();

/** A drizzle query or a `sql` template as the statement it sends. */
export function statementOf(query: SQL | { toSQL(): Statement }): Statement {
  return is(query, SQL) ? dialect.sqlToQuery(query) : query.toSQL();
}

/**
 * drizzle over `db`, used only to build queries: nothing built here runs through drizzle (the
 * floors prepare the SQL themselves).
 */
export function queryBuilder(db: D1Database): Database {
  return drizzle(db);
}

/** Where a floor list starts: the first page, as every list arm reads. */
export interface ListRead {
  scope: ReadScope;
  customerId: string;
  limit: number;
}

/**
 * The floors, each the service's statement for the same read or write. The page reads are the
 * service's page query alone (no key lookup, no ownership read), bound to the scope where the
 * service reads it in the customer's or the key's, as the statements floor has always been; the order event's are the writes of its batch (the event, its order's sum and, in
 * sandbox, its partner's budget usage), without the audit row and stored response beside them.
 */
export const FLOOR_QUERIES = {
  /** A statements page, the page of src/statements/statement-pages.ts (statementPageReads). */
  statements: (accountId: string, after: PagePosition | null, limit: number): Statement =>
    statementPageAlone(accountId, after, limit),
  /** A line items page of every type, the page of src/statements/statement-reads.ts. */
  lineItems: (statementId: string, after: LineItemPosition | null, limit: number): Statement =>
    lineItemPageAlone(statementId, after, limit),
  /** A customer's cards, the page of src/payment-methods/card-page.ts (cardPageReads). */
  paymentMethods: ({ scope, customerId, limit }: ListRead): Statement =>
    cardPageAlone(scope, customerId, limit),
  /** The scope's orders, unfiltered, the page of src/orders/order-page.ts (orderPageReads). */
  orders: ({ scope, limit }: ListRead): Statement => orderPageAlone(scope, limit),
  /** A customer's intents, the page of src/transaction-intents/intent-page.ts. */
  intents: ({ scope, customerId, limit }: ListRead): Statement =>
    intentPageAlone(scope, customerId, limit),
  /** An account's rewards categories, the read of src/rewards/rewards-store.ts on its own. */
  rewardsCategories: (accountId: string): Statement => accountCategoriesAlone(accountId),
  /** An order event's writes (orderEventWrites, src/orders/order-event-store.ts). */
  orderEvent: (
    db: Database,
    scope: ReadScope,
    event: NewOrderEvent,
    budget?: BudgetCharge,
  ): Statement[] => orderEventWrites(db, scope, event, budget).map(statementOf),
};

/** A statement built once with a marker in place of each value named, bound per request. */
export interface MarkedStatement<Name extends string> {
  sql: string;
  bind(values: Record<Name, unknown>): unknown[];
}

const MARK = "\u0000floor:";

/**
 * Builds statements once with a marker string for each of `names`, and answers them with the
 * positions of the markers among their values, so that a floor binds each request's values
 * without building the statement again. Every value a marker stands for must reach the statement
 * unchanged (text and integer columns, values in `sql` templates).
 */
export function marked<Name extends string>(
  names: readonly Name[],
  build: (markers: Record<Name, string>) => Statement[],
): MarkedStatement<Name>[] {
  const markers = Object.fromEntries(names.map((name) => [name, `${MARK}${name}`]));
  // Built from `names` just above: every name has its marker.
  return build(markers as Record<Name, string>).map(({ sql, params }) => {
    const slots = params.map((value) =>
      typeof value === "string" && value.startsWith(MARK)
        ? // A marker made above, so the rest of it is one of `names`.
          (value.slice(MARK.length) as Name)
        : undefined,
    );
    return {
      sql,
      bind: (values) => params.map((value, i) => (slots[i] ? values[slots[i]] : value)),
    };
  });
}

/** The values of an order event capture that vary by request. */
export const ORDER_EVENT_VALUES = [
  "orderEventId",
  "orderId",
  "partnerId",
  "environment",
  "merchantKey",
  "amount",
  "networkTransactionId",
  "createdAt",
  "weight",
] as const;
export type OrderEventValue = (typeof ORDER_EVENT_VALUES)[number];

/**
 * An order event capture's writes in sandbox, built once per UTC day (the budgets' days are part
 * of the statements) and bound with each request's values; `weight` is the rows the sandbox
 * budget counts it as.
 */
export function markedOrderEventWrites(
  db: Database,
  now: Date,
): MarkedStatement<OrderEventValue>[] {
  return marked(ORDER_EVENT_VALUES, (m) => {
    // Markers stand for the values; every one is text until bound.
    const environment = m.environment as Environment;
    const scope = { partnerId: m.partnerId, environment, merchantKey: m.merchantKey };
    // A marker, replaced by the request's number when bound.
    const number = (marker: string) => marker as unknown as number;
    // In the order the create route writes an event's fields (src/orders/order-event-routes.ts).
    return FLOOR_QUERIES.orderEvent(
      db,
      scope,
      {
        orderEventId: m.orderEventId,
        orderId: m.orderId,
        ...scope,
        type: "CAPTURED",
        amount: number(m.amount),
        networkTransactionId: m.networkTransactionId,
        partnerEventId: null,
        rewardsAmount: null,
        createdAt: m.createdAt,
      },
      { budgeted: { partnerId: m.partnerId, now }, charge: { rows: number(m.weight) } },
    );
  });
}
