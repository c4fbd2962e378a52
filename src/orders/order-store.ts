// Orders in storage: each call one round trip, inside the caller's partner, environment and
// product. The rules that depend on stored state are conditions of the writes themselves (a unique
// index, a WHERE), so two requests racing cannot both pass a check only one may pass; a write that
// changed nothing is then read again to say why.
import { and, desc, eq, exists, lt, type SQL, sql } from "drizzle-orm";
import { allOf, atomically, type Query, returnedRow } from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import type { Environment } from "../domain/environment";
import type { OrderRow } from "./order-rows";
import { orderEvents, orders } from "./schema";

/** The order rows of the read scope. */
export function orderInScope(scope: ReadScope): SQL {
  return allOf(
    eq(orders.partnerId, scope.partnerId),
    // drizzle types the value by the column's two names; a scope naming another matches no row.
    eq(orders.environment, scope.environment as Environment),
    eq(orders.merchantKey, scope.merchantKey),
  );
}

/** The order `orderId` of the read scope. */
function theOrder(scope: ReadScope, orderId: string): SQL {
  return allOf(orderInScope(scope), eq(orders.orderId, orderId));
}

export interface OrderFilters {
  customer_id?: string;
  partner_order_id?: string;
}

/**
 * A page of orders, newest first (ids sort by creation time), after the id `after`: a range of
 * `orders_scope_idx`, or of `orders_customer_idx` when filtered by customer; one row more than
 * `limit` says whether more follow.
 */
export function orderPage(
  db: Database,
  scope: ReadScope,
  filters: OrderFilters,
  after: string | null,
  limit: number,
) {
  return db
    .select()
    .from(orders)
    .where(
      and(
        orderInScope(scope),
        filters.customer_id === undefined ? undefined : eq(orders.customerId, filters.customer_id),
        filters.partner_order_id === undefined
          ? undefined
          : eq(orders.partnerOrderId, filters.partner_order_id),
        after === null ? undefined : lt(orders.orderId, after),
      ),
    )
    .orderBy(desc(orders.orderId))
    .limit(limit + 1);
}

/** The order, or null when the read scope has none with that id. */
export async function findOrder(
  db: Database,
  scope: ReadScope,
  orderId: string,
): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(theOrder(scope, orderId));
  return row ?? null;
}

/** The id of the scope's order with the partner's own id, or null. */
async function orderIdOfPartnerOrder(
  db: Database,
  scope: ReadScope,
  partnerOrderId: string,
): Promise<string | null> {
  const [row] = await db
    .select({ orderId: orders.orderId })
    .from(orders)
    .where(and(orderInScope(scope), eq(orders.partnerOrderId, partnerOrderId)));
  return row?.orderId ?? null;
}

/** True once the order `orderId` is stored: the guard of what is written beside its insert. */
export function orderStored(orderId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM orders WHERE order_id = ${orderId})`;
}

export type OrderCreated = { created: true } | { created: false; existingOrderId: string };

/**
 * Inserts the order unless the scope already has one with its `partner_order_id` (the unique
 * index decides, whatever races), with `alongside` (the stored response, guarded by
 * `orderStored`) in the same batch.
 */
export async function insertOrder(
  db: Database,
  scope: ReadScope,
  row: OrderRow,
  alongside: Query[],
): Promise<OrderCreated> {
  const [inserted] = await atomically(db, [
    db.insert(orders).values(row).onConflictDoNothing(),
    ...alongside,
  ]);
  if (inserted?.meta.changes === 1) return { created: true };
  const existing = await orderIdOfPartnerOrder(db, scope, row.partnerOrderId);
  // The insert could only have been refused by the unique index, so that order exists.
  if (existing === null) throw new Error("an order insert changed nothing, and no order conflicts");
  return { created: false, existingOrderId: existing };
}

export type OrderReplaced =
  | { outcome: "replaced"; row: OrderRow }
  | { outcome: "not_found" }
  | { outcome: "below_captured"; captured: number };

/**
 * Replaces what an update may change, only while the identity fields are still those sent and the
 * new total is not below the captures: the same statement checks and writes. `alongside` follows
 * it in one batch (its audit row, guarded by `changes() = 1`: written only for a replace).
 */
export async function replaceOrder(
  db: Database,
  scope: ReadScope,
  row: OrderRow,
  alongside: Query[],
): Promise<OrderReplaced> {
  const replace = db
    .update(orders)
    .set({
      paymentMethodId: row.paymentMethodId,
      totalAmount: row.totalAmount,
      rewardsAmount: row.rewardsAmount,
      merchant: row.merchant,
      lines: row.lines,
      updatedAt: row.updatedAt,
    })
    .where(
      allOf(
        theOrder(scope, row.orderId),
        eq(orders.partnerOrderId, row.partnerOrderId),
        eq(orders.customerId, row.customerId),
        eq(orders.currency, row.currency),
        sql`${orders.capturedAmount} <= ${row.totalAmount}`,
      ),
    )
    .returning();
  const [replaced] = await atomically(db, [replace, ...alongside]);
  const updated = returnedRow(orders, replaced);
  if (updated) return { outcome: "replaced", row: updated };
  const now = await findOrder(db, scope, row.orderId);
  if (!now) return { outcome: "not_found" };
  return { outcome: "below_captured", captured: now.capturedAmount };
}

export type OrderDeleted = "deleted" | "not_found" | "has_events";

/**
 * Deletes the order unless it has events, checked by the delete itself; `alongside` follows it in
 * one batch (its audit row and stored response, each guarded by `changes() = 1`).
 */
export async function deleteOrder(
  db: Database,
  scope: ReadScope,
  orderId: string,
  alongside: Query[],
): Promise<OrderDeleted> {
  const eventsOfOrder = db
    .select({ one: sql`1` })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orders.orderId));
  const [gone] = await atomically(db, [
    db.delete(orders).where(and(theOrder(scope, orderId), sql`NOT ${exists(eventsOfOrder)}`)),
    ...alongside,
  ]);
  if (gone?.meta.changes === 1) return "deleted";
  return (await findOrder(db, scope, orderId)) ? "has_events" : "not_found";
}
