// Order events in storage. An event and its order's sum change in one batch, and the batch's
// first statement, the event's insert, carries the rule (captures within the total, refunds
// within the captures, the events bound): the order's sum moves only when that insert happened,
// so `captured_amount` and `refunded_amount` are always the sums of the order's events.
import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { allOf, atomically, insertWhere, type Query } from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import type { Environment } from "../domain/environment";
import { MAX_ORDER_EVENTS } from "./api-schemas";
import type { OrderEventRow, OrderRow } from "./order-rows";
import { orderInScope } from "./order-store";
import { orderEvents, orders } from "./schema";

function eventInScope(scope: ReadScope): SQL {
  return allOf(
    eq(orderEvents.partnerId, scope.partnerId),
    // drizzle types the value by the column's two names; a scope naming another matches no row.
    eq(orderEvents.environment, scope.environment as Environment),
    eq(orderEvents.merchantKey, scope.merchantKey),
  );
}

export interface OrderEventFilters {
  order_id?: string;
  network_transaction_id?: string;
  partner_event_id?: string;
}

/** A page of the scope's events, newest first, after the id `after` (one row more than `limit`). */
export function orderEventPage(
  db: Database,
  scope: ReadScope,
  filters: OrderEventFilters,
  after: string | null,
  limit: number,
): Promise<OrderEventRow[]> {
  return db
    .select()
    .from(orderEvents)
    .where(
      and(
        eventInScope(scope),
        filters.order_id === undefined ? undefined : eq(orderEvents.orderId, filters.order_id),
        filters.network_transaction_id === undefined
          ? undefined
          : eq(orderEvents.networkTransactionId, filters.network_transaction_id),
        filters.partner_event_id === undefined
          ? undefined
          : eq(orderEvents.partnerEventId, filters.partner_event_id),
        after === null ? undefined : lt(orderEvents.orderEventId, after),
      ),
    )
    .orderBy(desc(orderEvents.orderEventId))
    .limit(limit + 1);
}

/** An order's events, oldest first, up to the bound: what the data browser shows of an order. */
export function eventsOfOrders(db: Database, scope: ReadScope, orderIds: readonly string[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(orderEvents)
    .where(
      and(
        eventInScope(scope),
        sql`${orderEvents.orderId} IN (SELECT value FROM json_each(${JSON.stringify(orderIds)}))`,
      ),
    )
    .orderBy(orderEvents.orderEventId)
    .limit(orderIds.length * MAX_ORDER_EVENTS);
}

/** True once the event `eventId` is stored: the guard of what is written beside its insert. */
export function orderEventStored(eventId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM order_events WHERE order_event_id = ${eventId})`;
}

export type EventRecorded =
  | { outcome: "recorded" }
  | { outcome: "order_not_found" }
  | { outcome: "partner_event_taken"; existingEventId: string }
  | { outcome: "too_many_events" }
  | { outcome: "over_capture"; order: OrderRow }
  | { outcome: "over_refund"; order: OrderRow };

/** The sum the event moves, and the most it may reach. */
function sumRule(type: OrderEventRow["type"]): {
  field: "capturedAmount" | "refundedAmount";
  sum: SQLiteColumn;
  ceiling: SQLiteColumn;
} {
  return type === "CAPTURED"
    ? { field: "capturedAmount", sum: orders.capturedAmount, ceiling: orders.totalAmount }
    : { field: "refundedAmount", sum: orders.refundedAmount, ceiling: orders.capturedAmount };
}

/**
 * The two writes of an event: its insert, conditional on the order (in scope, with room under
 * its ceiling, under the events bound) and skipping a `partner_event_id` the scope has already
 * used; then the order's sum, conditional on the insert having happened.
 */
export function orderEventWrites(db: Database, scope: ReadScope, event: OrderEventRow): Query[] {
  const { field, sum, ceiling } = sumRule(event.type);
  const room = sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${allOf(
    orderInScope(scope),
    eq(orders.orderId, event.orderId),
    sql`${sum} + ${event.amount} <= ${ceiling}`,
  )}) AND (SELECT count(*) FROM ${orderEvents} WHERE ${eq(orderEvents.orderId, event.orderId)})
    < ${MAX_ORDER_EVENTS}`;
  const recorded = orderEventStored(event.orderEventId);
  return [
    sql`${insertWhere(orderEvents, event, room)} ON CONFLICT DO NOTHING`,
    db
      .update(orders)
      .set({ [field]: sql`${sum} + ${event.amount}`, updatedAt: event.createdAt })
      .where(and(eq(orders.orderId, event.orderId), recorded)),
  ];
}

/**
 * Records the event and adds it to its order's sum (orderEventWrites), in one batch with
 * `alongside` (the stored response, guarded by `orderEventStored`).
 */
export async function recordOrderEvent(
  db: Database,
  scope: ReadScope,
  event: OrderEventRow,
  alongside: Query[],
): Promise<EventRecorded> {
  const [inserted] = await atomically(db, [...orderEventWrites(db, scope, event), ...alongside]);
  if (inserted?.meta.changes === 1) return { outcome: "recorded" };
  return whyNotRecorded(db, scope, event);
}

/** Why an event's insert changed nothing: one round trip reading its order and its id's owner. */
async function whyNotRecorded(
  db: Database,
  scope: ReadScope,
  event: OrderEventRow,
): Promise<EventRecorded> {
  const owner =
    event.partnerEventId === null
      ? undefined
      : db
          .select({ orderEventId: orderEvents.orderEventId })
          .from(orderEvents)
          .where(and(eventInScope(scope), eq(orderEvents.partnerEventId, event.partnerEventId)));
  const orderQuery = db
    .select({
      order: orders,
      events: sql<number>`(SELECT count(*) FROM ${orderEvents} WHERE ${eq(orderEvents.orderId, orders.orderId)})`,
    })
    .from(orders)
    .where(allOf(orderInScope(scope), eq(orders.orderId, event.orderId)));
  const [[found], taken] = owner ? await db.batch([orderQuery, owner]) : [await orderQuery, []];
  if (!found) return { outcome: "order_not_found" };
  const [existing] = taken;
  if (existing) return { outcome: "partner_event_taken", existingEventId: existing.orderEventId };
  if (found.events >= MAX_ORDER_EVENTS) return { outcome: "too_many_events" };
  return event.type === "CAPTURED"
    ? { outcome: "over_capture", order: found.order }
    : { outcome: "over_refund", order: found.order };
}

/** The scope's event, or null. */
export async function findOrderEvent(
  db: Database,
  scope: ReadScope,
  eventId: string,
): Promise<OrderEventRow | null> {
  const [row] = await db
    .select()
    .from(orderEvents)
    .where(and(eventInScope(scope), eq(orderEvents.orderEventId, eventId)));
  return row ?? null;
}

export type EventDeleted = "deleted" | "not_found" | "refunds_above_captures";

/**
 * Deletes the event and takes it off its order's sum in one batch: the delete is conditional on
 * the order keeping its refunds within its captures, and the update on the delete having happened
 * (`changes()`, the delete's count, read in the same batch: a batch runs as one transaction).
 * `alongside(event)` follows the update (its audit row and stored response, each guarded by
 * `changes() = 1`, so written only when the event went).
 */
export async function deleteOrderEvent(
  db: Database,
  scope: ReadScope,
  eventId: string,
  now: string,
  alongside: (event: OrderEventRow) => Query[],
): Promise<EventDeleted> {
  const event = await findOrderEvent(db, scope, eventId);
  if (!event) return "not_found";
  const { field, sum } = sumRule(event.type);
  const stillValid =
    event.type === "CAPTURED"
      ? sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${eq(orders.orderId, event.orderId)}
          AND ${orders.capturedAmount} - ${event.amount} >= ${orders.refundedAmount})`
      : sql`1`;
  const [deleted] = await atomically(db, [
    db.delete(orderEvents).where(allOf(eq(orderEvents.orderEventId, eventId), stillValid)),
    db
      .update(orders)
      .set({ [field]: sql`${sum} - ${event.amount}`, updatedAt: now })
      .where(and(eq(orders.orderId, event.orderId), sql`changes() = 1`)),
    ...alongside(event),
  ]);
  if (deleted?.meta.changes === 1) return "deleted";
  // Deleted meanwhile by another request, or its removal would leave refunds above captures.
  return (await findOrderEvent(db, scope, eventId)) ? "refunds_above_captures" : "not_found";
}
