// The bench's floors are floors: each runs the statement its service route sends, and on a
// migrated database both go through the same index and scan no table. A floor whose query drifted
// from the service's (a partial index's terms not repeated, a condition missing) is slower than
// the service and makes every "service ÷ floor" ratio meaningless; this is where it shows.
import { fillPlaceholders } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  FLOOR_QUERIES,
  markedOrderEventWrites,
  queryBuilder,
  type Statement,
  statementOf,
} from "../../bench/floor-queries";
import type { ReadScope } from "../../src/db/customers";
import type { ReadAhead } from "../../src/db/key-lookup";
import {
  type BudgetCharge,
  type NewOrderEvent,
  orderEventWrites,
} from "../../src/orders/order-event-store";
import { orderPageReads } from "../../src/orders/order-page";
import { cardPageReads } from "../../src/payment-methods/card-page";
import { accountCategoriesReads } from "../../src/rewards/rewards-store";
import { statementPageReads } from "../../src/statements/statement-pages";
import { lineItemPageReads } from "../../src/statements/statement-reads";
import { intentPageReads } from "../../src/transaction-intents/intent-page";
import { SHARDS, shardDatabase } from "../support/shards";

// Every shard holds the same migrated tables; the first one is the fixture.
const fixture = shardDatabase(SHARDS[0] ?? "00");
const db = queryBuilder(fixture);
const scope: ReadScope = { partnerId: "p_plan", environment: "sandbox", merchantKey: "mk_plan" };
const list = { scope, customerId: "cus_plan", limit: 10 };
const event: NewOrderEvent = {
  orderEventId: "oev_plan",
  orderId: "ord_plan",
  ...scope,
  type: "CAPTURED",
  amount: 1,
  networkTransactionId: "ntx_plan",
  partnerEventId: null,
  rewardsAmount: null,
  createdAt: "2026-12-01T00:00:00.000Z",
};
const now = new Date(event.createdAt);
/** A sandbox event's charge: one row against its partner's budgets. */
const budget: BudgetCharge = { budgeted: { partnerId: scope.partnerId, now }, charge: { rows: 1 } };

/** A read planned ahead, as the service sends it: inside the key lookup. */
function lookupOf(reads: ReadAhead): Statement {
  const values = { ...reads.values, keyHash: "0".repeat(64), now: "2026-12-01T00:00:00.000Z" };
  return { sql: reads.lookup.sql, params: fillPlaceholders(reads.lookup.params, values) };
}

/** Every step of SQLite's plan of `statement` on the migrated test database. */
async function planOf(statement: Statement): Promise<string[]> {
  const { results } = await fixture
    .prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
    .bind(...statement.params)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}

/** The index each step that reads `table` goes through (`SEARCH table USING … INDEX name`). */
function indexesOn(plan: string[], table: string): string[] {
  return plan.flatMap((step) => {
    const found = new RegExp(`^SEARCH ${table} USING (?:COVERING )?INDEX (\\w+)`).exec(step);
    return found?.[1] ? [found[1]] : [];
  });
}

/** The steps that read a whole table or a whole index of it: `SCAN t` of a stored table. */
function tableScans(plan: string[]): string[] {
  return plan.filter((step) => /^SCAN (?!CONSTANT ROW|\(|json_each)\w+/.test(step));
}

interface FloorCase {
  name: string;
  table: string;
  index: string;
  floor: Statement[];
  service: Statement[];
}

const CASES: FloorCase[] = [
  {
    name: "statements, first page",
    table: "statements",
    index: "statements_page_idx",
    floor: [FLOOR_QUERIES.statements("acc_plan", null, 10)],
    service: [lookupOf(statementPageReads("acc_plan", null, 10))],
  },
  {
    name: "statements, a continuation",
    table: "statements",
    index: "statements_page_idx",
    floor: [
      FLOOR_QUERIES.statements(
        "acc_plan",
        { periodEndDate: "2026-01-31T23:59:59.000Z", statementId: "st_plan" },
        100,
      ),
    ],
    service: [
      lookupOf(
        statementPageReads(
          "acc_plan",
          { periodEndDate: "2026-01-31T23:59:59.000Z", statementId: "st_plan" },
          100,
        ),
      ),
    ],
  },
  {
    name: "line items, first page",
    table: "statement_line_items",
    index: "statement_line_items_page_idx",
    floor: [FLOOR_QUERIES.lineItems("st_plan", null, 10)],
    service: [lookupOf(lineItemPageReads("acc_plan", "st_plan", [], null, 10))],
  },
  {
    name: "line items, a continuation",
    table: "statement_line_items",
    index: "statement_line_items_page_idx",
    floor: [
      FLOOR_QUERIES.lineItems(
        "st_plan",
        { postedAt: "2026-01-02T00:00:00.000Z", lineItemId: "li_plan" },
        100,
      ),
    ],
    service: [
      lookupOf(
        lineItemPageReads(
          "acc_plan",
          "st_plan",
          [],
          { postedAt: "2026-01-02T00:00:00.000Z", lineItemId: "li_plan" },
          100,
        ),
      ),
    ],
  },
  {
    name: "payment methods list",
    table: "payment_methods",
    index: "payment_methods_customer_idx",
    floor: [FLOOR_QUERIES.paymentMethods(list)],
    service: [lookupOf(cardPageReads(list.customerId, null, null, 10))],
  },
  {
    name: "orders list",
    table: "orders",
    index: "orders_scope_idx",
    floor: [FLOOR_QUERIES.orders(list)],
    service: [lookupOf(orderPageReads(undefined, {}, null, 10))],
  },
  {
    name: "a customer's transaction intents",
    table: "transaction_intents",
    index: "transaction_intents_customer_idx",
    floor: [FLOOR_QUERIES.intents(list)],
    service: [lookupOf(intentPageReads(list.customerId, undefined, null, 10))],
  },
  {
    name: "an account's rewards categories",
    table: "products",
    index: "sqlite_autoindex_products_1",
    floor: [FLOOR_QUERIES.rewardsCategories("acc_plan")],
    service: [lookupOf(accountCategoriesReads("acc_plan"))],
  },
  {
    name: "an order event's writes",
    table: "orders",
    index: "sqlite_autoindex_orders_1",
    floor: FLOOR_QUERIES.orderEvent(db, scope, event, budget),
    service: orderEventWrites(db, scope, event, budget).map(statementOf),
  },
];

describe("the bench's floors", () => {
  for (const c of CASES) {
    it(`${c.name}: the floor and the service read through ${c.index} and scan no table`, async () => {
      const floor = (await Promise.all(c.floor.map(planOf))).flat();
      const service = (await Promise.all(c.service.map(planOf))).flat();
      expect(tableScans(floor), floor.join("\n")).toEqual([]);
      expect(tableScans(service), service.join("\n")).toEqual([]);
      expect(indexesOn(floor, c.table), floor.join("\n")).toContain(c.index);
      expect(indexesOn(service, c.table), service.join("\n")).toContain(c.index);
      // The service may read more of the table (a cursor's row by its key); the floor nothing else.
      for (const index of indexesOn(floor, c.table)) {
        expect(indexesOn(service, c.table)).toContain(index);
      }
    });
  }

  // The lists' other pages have no floor of their own; each still reads one range of its index.
  const PAGES: { name: string; table: string; index: string; service: Statement }[] = [
    {
      name: "payment methods, a continuation of one status",
      table: "payment_methods",
      index: "payment_methods_customer_idx",
      service: lookupOf(cardPageReads(list.customerId, "pm_plan", "ACTIVE", 100)),
    },
    {
      name: "orders of one customer, a continuation",
      table: "orders",
      index: "orders_customer_idx",
      service: lookupOf(orderPageReads("mk_plan", { customer_id: "cus_plan" }, "ord_plan", 10)),
    },
    {
      name: "orders by partner_order_id",
      table: "orders",
      index: "orders_partner_order_idx",
      service: lookupOf(orderPageReads(undefined, { partner_order_id: "po_plan" }, null, 10)),
    },
    {
      name: "a customer's intents of one status, a continuation",
      table: "transaction_intents",
      index: "transaction_intents_status_idx",
      service: lookupOf(intentPageReads(list.customerId, "CONFIRMED", "ti_plan", 10)),
    },
  ];
  for (const page of PAGES) {
    it(`${page.name}: the service reads through ${page.index} and scans no table`, async () => {
      const plan = await planOf(page.service);
      expect(tableScans(plan), plan.join("\n")).toEqual([]);
      expect(indexesOn(plan, page.table), plan.join("\n")).toContain(page.index);
    });
  }

  it("binds each order event's own values where the service's writes hold them", () => {
    const bound = markedOrderEventWrites(db, now).map((w) => ({
      sql: w.sql,
      params: w.bind({ ...event, weight: budget.charge.rows }),
    }));
    const service = orderEventWrites(db, scope, event, budget).map(statementOf);
    expect(bound).toEqual(service.map(({ sql, params }) => ({ sql, params })));
  });
});
