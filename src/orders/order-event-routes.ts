// GET/POST /v2/order_events, DELETE /v2/order_events/{order_event_id}: the captures and refunds of
// an order, each matched to the card network's transaction.
import { eq, type SQL, sql } from "drizzle-orm";
import { keyActor, keyAudit } from "../app/actor";
import { ApiError } from "../app/errors";
import { storeWithEffect } from "../app/idempotency";
import { readScope } from "../app/pipeline";
import { idPage, idPageQueryWith } from "../app/query";
import { route } from "../app/route";
import { auditInsert } from "../db/audit";
import { encodeIdSuffix } from "../domain/ids";
import { budgetExceeded, rowWeight } from "../sandbox-budgets";
import { MAX_ORDER_EVENTS, OrderEvent, OrderEventList, OrderEventRequest } from "./api-schemas";
import {
  type BudgetCharge,
  deleteOrderEvent as deleteStoredEvent,
  type NewOrderEvent,
  orderEventPage,
  orderEventStored,
  recordOrderEvent,
} from "./order-event-store";
import { orderNotFound } from "./order-routes";
import { toOrderEvent } from "./order-rows";
import { findOrder } from "./order-store";
import { orders } from "./schema";

function conflict(message: string, param: string): ApiError {
  return new ApiError("CONFLICT_ERROR", message, { param });
}

/**
 * An event's audit details, its currency read from its order in the batch that writes it (the
 * order's currency, as the event's insert takes it).
 */
function auditDetails(event: NewOrderEvent): SQL {
  return sql`json_object('order_id', ${event.orderId}, 'merchant_key', ${event.merchantKey},
    'type', ${event.type}, 'amount', ${event.amount}, 'currency',
    (SELECT ${orders.currency} FROM ${orders} WHERE ${eq(orders.orderId, event.orderId)}))`;
}

export const listOrderEvents = route({
  method: "GET",
  path: "/v2/order_events",
  summary: "List order events",
  operationId: "listOrderEvents",
  tag: "Orders",
  errors: [],
  scope: "ORDER_READ",
  customerScoped: true,
  query: idPageQueryWith([
    { name: "order_id", description: "Only this order's events." },
    { name: "network_transaction_id", description: "Only the events of this network transaction." },
    { name: "partner_event_id", description: "Only the event with your own id." },
  ]),
  response: { status: 200, schema: OrderEventList },
  async handler(c, { query: { limit, after, filters }, reply }) {
    const rows = await orderEventPage(c.get("db"), readScope(c), filters, after, limit);
    return reply(idPage(rows, limit, toOrderEvent));
  },
});

export const createOrderEvent = route({
  method: "POST",
  path: "/v2/order_events",
  summary: "Create an order event",
  operationId: "createOrderEvent",
  tag: "Orders",
  errors: [
    { status: 404, types: ["ORDER_NOT_FOUND_ERROR"] },
    { status: 409, types: ["CONFLICT_ERROR"] },
  ],
  scope: "ORDER_WRITE",
  customerScoped: true,
  body: { schema: OrderEventRequest, required: true },
  response: { status: 201, schema: OrderEvent },
  async handler(c, { body, reply }) {
    const db = c.get("db");
    const scope = readScope(c);
    const now = c.get("now")();
    const event: NewOrderEvent = {
      orderEventId: `oev_${encodeIdSuffix(now.getTime())}`,
      orderId: body.order_id,
      ...scope,
      environment: scope.environment,
      type: body.type,
      amount: body.amount,
      networkTransactionId: body.network_transaction_id,
      partnerEventId: body.partner_event_id ?? null,
      rewardsAmount: body.rewards_amount ?? null,
      createdAt: now.toISOString(),
    };
    // The event takes its order's currency, which never changes; its insert reads it. A response
    // stored under an Idempotency-Key is sealed before the write, so that request reads the order
    // first to know it.
    const known = c.get("idempotencyKey") ? await findOrder(db, scope, body.order_id) : undefined;
    if (known === null) throw orderNotFound(body.order_id);
    const answer = known && reply(toOrderEvent({ ...event, currency: known.currency }));
    // A sandbox key's event counts against its partner's budgets in the same batch, and only
    // when it is written.
    const budget: BudgetCharge | undefined =
      scope.environment === "sandbox"
        ? {
            budgeted: { partnerId: scope.partnerId, now },
            charge: { rows: rowWeight(body) },
          }
        : undefined;
    // The event, its order's sum, its audit row and the replayable response commit together.
    const recorded = orderEventStored(event.orderEventId);
    const audit = auditInsert(
      scope.partnerId,
      keyActor(c),
      { action: "order_event.created", environment: scope.environment, target: event.orderEventId },
      now,
      { guard: recorded, details: auditDetails(event) },
    );
    const stored = answer ? await storeWithEffect(c, answer, recorded) : [];
    const outcome = await recordOrderEvent(db, scope, event, budget, [audit, ...stored]);
    switch (outcome.outcome) {
      case "recorded":
        return answer ?? reply(toOrderEvent(outcome.event));
      case "order_not_found":
        throw orderNotFound(body.order_id);
      case "over_budget":
        throw budgetExceeded(outcome.budget, now);
      case "partner_event_taken":
        throw conflict(
          `partner_event_id ${JSON.stringify(body.partner_event_id)} is already used by ` +
            `${outcome.existingEventId}.`,
          "partner_event_id",
        );
      case "too_many_events":
        throw conflict(`An order holds at most ${MAX_ORDER_EVENTS} events.`, "order_id");
      case "over_capture":
        throw conflict(
          `Capturing ${body.amount} would take the captures above the order's total_amount ` +
            `(${outcome.order.capturedAmount} of ${outcome.order.totalAmount} captured).`,
          "amount",
        );
      case "over_refund":
        throw conflict(
          `Refunding ${body.amount} would take the refunds above the captures ` +
            `(${outcome.order.refundedAmount} of ${outcome.order.capturedAmount} refunded).`,
          "amount",
        );
    }
  },
});

export const deleteOrderEvent = route({
  method: "DELETE",
  path: "/v2/order_events/:order_event_id",
  summary: "Delete an order event",
  operationId: "deleteOrderEvent",
  tag: "Orders",
  errors: [
    { status: 404, types: ["ORDER_EVENT_NOT_FOUND_ERROR"] },
    { status: 409, types: ["CONFLICT_ERROR"] },
  ],
  scope: "ORDER_WRITE",
  customerScoped: true,
  response: { status: 204 },
  async handler(c, { reply }) {
    const eventId = c.req.param("order_event_id");
    const scope = readScope(c);
    const now = c.get("now")().toISOString();
    // Each written only when the statement before it changed its one row: the audit row when the
    // order's sums moved (the event was deleted), the replayable 204 when the audit row was.
    const done = sql`changes() = 1`;
    const stored = await storeWithEffect(c, { status: 204, body: null }, done);
    const outcome = await deleteStoredEvent(c.get("db"), scope, eventId, now, (event) => [
      keyAudit(
        c,
        {
          action: "order_event.deleted",
          target: eventId,
          details: {
            order_id: event.orderId,
            merchant_key: scope.merchantKey,
            type: event.type,
            amount: event.amount,
          },
        },
        done,
      ),
      ...stored,
    ]);
    if (outcome === "not_found") {
      throw new ApiError(
        "ORDER_EVENT_NOT_FOUND_ERROR",
        `No such order event: ${JSON.stringify(eventId.slice(0, 128))}`,
        { param: "order_event_id" },
      );
    }
    if (outcome === "refunds_above_captures") {
      throw conflict(
        "Deleting this capture would leave the order's refunds above its captures: delete " +
          "refunds first.",
        "order_event_id",
      );
    }
    return reply();
  },
});
