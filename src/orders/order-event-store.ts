// Order events in storage. An event and its order's sum change in one batch, and the batch's
// first statement, the event's insert, carries the rule (captures within the total, refunds
// within the captures, the events bound): the order's sum moves only when that insert happened,
// so `captured_amount` and `refunded_amount` are always the sums of the order's events.
import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  allOf,
  atomically,
  insertWhere,
  type Query,
  returnedRow,
  returnedValue,
} from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import type { Environment } from "../domain/environment";
import {
  type Budgeted,
  type BudgetName,
  budgetRoom,
  countUsage,
  refusedBy,
  type SandboxCharge,
  stateOf,
  usageState,
} from "../sandbox-budgets";
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
  | { outcome: "recorded"; event: OrderEventRow }
  | { outcome: "order_not_found" }
  | { outcome: "over_budget"; budget: BudgetName }
  | { outcome: "partner_event_taken"; existingEventId: string }
  | { outcome: "too_many_events" }
  | { outcome: "over_capture"; order: OrderRow }
  | { outcome: "over_refund"; order: OrderRow };

/** An event as the create writes it: its currency is its order's, taken by the insert. */
export type NewOrderEvent = Omit<OrderEventRow, "currency">;

/** A sandbox write's charge against its partner's budgets (src/sandbox-budgets/). */
export interface BudgetCharge {
  budgeted: Budgeted;
  charge: SandboxCharge;
}

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
 * The writes of an event: its insert, conditional on the order (in scope, with room under its
 * ceiling, under the events bound) and on the sandbox budgets' room when `budget` is given,
 * skipping a `partner_event_id` the scope has already used, taking its order's currency and
 * answering it; then the order's sum and, with `budget`, the partner's usage, each conditional on
 * the insert having happened. No read comes before them: the insert's own condition is the check.
 */
export function orderEventWrites(
  db: Database,
  scope: ReadScope,
  event: NewOrderEvent,
  budget?: BudgetCharge,
): Query[] {
  const { field, sum, ceiling } = sumRule(event.type);
  const room = sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${allOf(
    orderInScope(scope),
    eq(orders.orderId, event.orderId),
    sql`${sum} + ${event.amount} <= ${ceiling}`,
  )}) AND (SELECT count(*) FROM ${orderEvents} WHERE ${eq(orderEvents.orderId, event.orderId)})
    < ${MAX_ORDER_EVENTS}`;
  const guard = budget ? sql`${room} AND ${budgetRoom(budget.budgeted, budget.charge)}` : room;
  // The order's currency, which never changes; the guard has found the order in scope.
  const currency = sql`(SELECT ${orders.currency} FROM ${orders} WHERE ${eq(orders.orderId, event.orderId)})`;
  const recorded = orderEventStored(event.orderEventId);
  return [
    sql`${insertWhere(orderEvents, { ...event, currency }, guard)} ON CONFLICT DO NOTHING
      RETURNING ${sql.identifier(orderEvents.currency.name)}`,
    db
      .update(orders)
      .set({ [field]: sql`${sum} + ${event.amount}`, updatedAt: event.createdAt })
      .where(and(eq(orders.orderId, event.orderId), recorded)),
    ...(budget ? [countUsage(budget.budgeted, budget.charge, recorded)] : []),
  ];
}

/**
 * Records the event and adds it to its order's sum (orderEventWrites), in one batch with
 * `alongside` (its audit row and stored response, guarded by `orderEventStored`): one round trip
 * when it is recorded, two when it is not and the second reads why.
 */
export async function recordOrderEvent(
  db: Database,
  scope: ReadScope,
  event: NewOrderEvent,
  budget: BudgetCharge | undefined,
  alongside: Query[],
): Promise<EventRecorded> {
  const [inserted] = await atomically(db, [
    ...orderEventWrites(db, scope, event, budget),
    ...alongside,
  ]);
  const currency = returnedCurrency(inserted);
  if (inserted?.meta.changes === 1 && currency !== null) {
    return { outcome: "recorded", event: { ...event, currency } };
  }
  return whyNotRecorded(db, scope, event, budget);
}

/** The currency the event's insert answered (`RETURNING currency`), or null when it wrote none. */
function returnedCurrency(result: D1Result | undefined): string | null {
  const value = returnedValue(result, orderEvents.currency.name);
  return typeof value === "string" ? value : null;
}

/**
 * Why an event's insert changed nothing: one round trip reading its order with its event count,
 * the partner's budget usage when charged, and its id's owner. The order's absence answers first,
 * then a budget without room, then the conflicts, as the create documents them.
 */
async function whyNotRecorded(
  db: Database,
  scope: ReadScope,
  event: NewOrderEvent,
  budget: BudgetCharge | undefined,
): Promise<EventRecorded> {
  const orderQuery = sql`SELECT *, (SELECT count(*) FROM ${orderEvents}
      WHERE ${eq(orderEvents.orderId, event.orderId)}) AS events
    FROM ${orders} WHERE ${allOf(orderInScope(scope), eq(orders.orderId, event.orderId))}`;
  const owner =
    event.partnerEventId === null
      ? null
      : db
          .select({ orderEventId: orderEvents.orderEventId })
          .from(orderEvents)
          .where(and(eventInScope(scope), eq(orderEvents.partnerEventId, event.partnerEventId)));
  const usage = budget ? usageState(budget.budgeted) : null;
  const [orderResult, ...rest] = await atomically(db, [
    orderQuery,
    ...(owner ? [owner] : []),
    ...(usage ? [usage] : []),
  ]);
  const ownerResult = owner ? rest.shift() : undefined;
  const usageResult = usage ? rest.shift() : undefined;
  const order = returnedRow(orders, orderResult);
  if (!order) return { outcome: "order_not_found" };
  if (budget) {
    const refused = refusedBy(stateOf(usageResult), budget.charge);
    if (refused) return { outcome: "over_budget", budget: refused };
  }
  const existing = returnedRow(orderEvents, ownerResult);
  if (existing) return { outcome: "partner_event_taken", existingEventId: existing.orderEventId };
  if (eventCount(orderResult) >= MAX_ORDER_EVENTS) return { outcome: "too_many_events" };
  return event.type === "CAPTURED"
    ? { outcome: "over_capture", order }
    : { outcome: "over_refund", order };
}

/** The `events` column of the order's read in whyNotRecorded. */
function eventCount(result: D1Result | undefined): number {
  const value = returnedValue(result, "events");
  return typeof value === "number" ? value : 0;
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
