// GET/POST /v2/orders, PUT/DELETE /v2/orders/{order_id}: the orders a partner's checkout took,
// paid with one of the programme's cards.
import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { keyAudit } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError, customerNotFound, invalidRequest } from "../app/errors";
import { storeWithEffect } from "../app/idempotency";
import { readScope } from "../app/pipeline";
import { idPage, idPageQueryWith } from "../app/query";
import { route } from "../app/route";
import { encodeIdSuffix } from "../domain/ids";
import { chargeSandboxBudget } from "../sandbox-budgets";
import { Order, OrderList, OrderRequest } from "./api-schemas";
import { checkBodyOwners } from "./body-owners";
import { orderPageReads } from "./order-page";
import { type OrderRow, toOrder } from "./order-rows";
import {
  deleteOrder as deleteStoredOrder,
  findOrder,
  insertOrder,
  orderPage,
  orderStored,
  replaceOrder,
} from "./order-store";

/** 404 for an order the caller cannot see: the same bytes whether it never existed or is another's. */
export function orderNotFound(orderId: string): ApiError {
  return new ApiError(
    "ORDER_NOT_FOUND_ERROR",
    `No such order: ${JSON.stringify(orderId.slice(0, 128))}`,
    {
      param: "order_id",
    },
  );
}

/** 400 naming a body's card that is not one of its customer's. */
export function notTheCustomersCard(paymentMethodId: string): ApiError {
  return invalidRequest(
    [
      `payment_method_id ${JSON.stringify(paymentMethodId.slice(0, 128))} is not one of the customer's cards`,
    ],
    "payment_method_id",
  );
}

/** The customer and card a body names, or the error they answer. */
async function requireOwners(
  c: Context<AppEnv>,
  customerId: string,
  paymentMethodId: string | undefined,
): Promise<void> {
  const problem = await checkBodyOwners(c.get("db"), readScope(c), customerId, paymentMethodId);
  if (problem === "customer") throw customerNotFound(customerId);
  if (problem === "payment_method" && paymentMethodId !== undefined) {
    throw notTheCustomersCard(paymentMethodId);
  }
}

type OrderFields = Pick<
  OrderRow,
  "paymentMethodId" | "totalAmount" | "rewardsAmount" | "merchant" | "lines"
>;

/** What a body sets of an order, as columns. */
function fieldsOf(body: {
  total_amount: number;
  payment_method_id?: string | undefined;
  rewards_amount?: number | undefined;
  merchant?: object | undefined;
  lines?: object[] | undefined;
}): OrderFields {
  return {
    paymentMethodId: body.payment_method_id ?? null,
    totalAmount: body.total_amount,
    rewardsAmount: body.rewards_amount ?? null,
    merchant: body.merchant === undefined ? null : JSON.stringify(body.merchant),
    lines: JSON.stringify(body.lines ?? []),
  };
}

export const listOrders = route({
  method: "GET",
  path: "/v2/orders",
  summary: "List orders",
  operationId: "listOrders",
  tag: "Orders",
  errors: [],
  scope: "ORDER_READ",
  customerScoped: true,
  query: idPageQueryWith([
    { name: "customer_id", description: "Only this customer's orders." },
    { name: "partner_order_id", description: "Only the order with your own id." },
  ]),
  // Planned from the query and the product header alone, so the page rides in the key lookup's
  // own statement: one D1 round trip, and nothing read for a key that is not live.
  plan: ({ limit, after, filters }, _params, request) =>
    orderPageReads(request.merchantKey, filters, after, limit),
  response: { status: 200, schema: OrderList },
  async handler(c, { query: { limit, after, filters }, reads: page, reply }) {
    const scope = readScope(c);
    // Read in the key's own partner and environment. The product the lookup read in is the one
    // the pipeline resolved for every request it lets through; were they ever to differ, the
    // page read ahead is not used, and the resolved product's is read on its own.
    const rows =
      page.merchantKey === scope.merchantKey
        ? page.rows
        : await orderPage(c.get("db"), scope, filters, after, limit);
    return reply(idPage(rows, limit, toOrder));
  },
});

export const createOrder = route({
  method: "POST",
  path: "/v2/orders",
  summary: "Create an order",
  operationId: "createOrder",
  tag: "Orders",
  errors: [
    { status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR"] },
    { status: 409, types: ["CONFLICT_ERROR"] },
  ],
  scope: "ORDER_WRITE",
  customerScoped: true,
  body: { schema: OrderRequest, required: true },
  response: { status: 201, schema: Order },
  async handler(c, { body, reply }) {
    await requireOwners(c, body.customer_id, body.payment_method_id);
    await chargeSandboxBudget(c, body);
    const scope = readScope(c);
    const now = c.get("now")();
    const at = now.toISOString();
    const row: OrderRow = {
      orderId: `ord_${encodeIdSuffix(now.getTime())}`,
      ...scope,
      environment: scope.environment,
      customerId: body.customer_id,
      partnerOrderId: body.partner_order_id,
      currency: body.currency,
      ...fieldsOf(body),
      capturedAmount: 0,
      refundedAmount: 0,
      createdAt: at,
      updatedAt: at,
    };
    // The order, its audit row and its replayable response commit together: a retry never
    // creates another. The audit row holds the order's identity and amount, never its lines.
    const answer = reply(toOrder(row));
    const created = orderStored(row.orderId);
    const audit = keyAudit(
      c,
      {
        action: "order.created",
        target: row.orderId,
        details: {
          partner_order_id: row.partnerOrderId,
          customer_id: row.customerId,
          merchant_key: row.merchantKey,
          currency: row.currency,
          total_amount: row.totalAmount,
        },
      },
      created,
    );
    const stored = await storeWithEffect(c, answer, created);
    const outcome = await insertOrder(c.get("db"), scope, row, [audit, ...stored]);
    if (!outcome.created) {
      throw new ApiError(
        "CONFLICT_ERROR",
        `An order with partner_order_id ${JSON.stringify(body.partner_order_id)} exists already: ` +
          `${outcome.existingOrderId}.`,
        { param: "partner_order_id" },
      );
    }
    return answer;
  },
});

export const updateOrder = route({
  method: "PUT",
  path: "/v2/orders/:order_id",
  summary: "Update an order",
  operationId: "updateOrder",
  tag: "Orders",
  errors: [
    { status: 404, types: ["ORDER_NOT_FOUND_ERROR"] },
    { status: 409, types: ["CONFLICT_ERROR"] },
  ],
  scope: "ORDER_WRITE",
  customerScoped: true,
  body: { schema: OrderRequest, required: true },
  response: { status: 200, schema: Order },
  async handler(c, { body, reply }) {
    const orderId = c.req.param("order_id");
    const db = c.get("db");
    const scope = readScope(c);
    const current = await findOrder(db, scope, orderId);
    if (!current) throw orderNotFound(orderId);
    for (const [field, stored] of [
      ["partner_order_id", current.partnerOrderId],
      ["customer_id", current.customerId],
      ["currency", current.currency],
    ] as const) {
      if (body[field] !== stored) {
        throw invalidRequest(
          [`${field} cannot change: the order's is ${JSON.stringify(stored)}`],
          field,
        );
      }
    }
    if (body.payment_method_id !== undefined) {
      await requireOwners(c, body.customer_id, body.payment_method_id);
    }
    const fields = fieldsOf(body);
    // Written only when the replace itself changed the order (the statement before it).
    const audit = keyAudit(
      c,
      {
        action: "order.updated",
        target: orderId,
        details: { merchant_key: current.merchantKey, total_amount: fields.totalAmount },
      },
      sql`changes() = 1`,
    );
    const outcome = await replaceOrder(
      db,
      scope,
      { ...current, ...fields, updatedAt: c.get("now")().toISOString() },
      [audit],
    );
    if (outcome.outcome === "not_found") throw orderNotFound(orderId);
    if (outcome.outcome === "below_captured") {
      throw new ApiError(
        "CONFLICT_ERROR",
        `total_amount ${body.total_amount} is below the ${outcome.captured} already captured.`,
        { param: "total_amount" },
      );
    }
    return reply(toOrder(outcome.row));
  },
});

export const deleteOrder = route({
  method: "DELETE",
  path: "/v2/orders/:order_id",
  summary: "Delete an order",
  operationId: "deleteOrder",
  tag: "Orders",
  errors: [
    { status: 404, types: ["ORDER_NOT_FOUND_ERROR"] },
    { status: 409, types: ["CONFLICT_ERROR"] },
  ],
  scope: "ORDER_WRITE",
  customerScoped: true,
  response: { status: 204 },
  async handler(c, { reply }) {
    const orderId = c.req.param("order_id");
    const scope = readScope(c);
    // Each written only when the statement before it changed its one row: the audit row when the
    // delete happened, the replayable 204 when the audit row was written.
    const deleted = sql`changes() = 1`;
    const audit = keyAudit(
      c,
      { action: "order.deleted", target: orderId, details: { merchant_key: scope.merchantKey } },
      deleted,
    );
    const stored = await storeWithEffect(c, { status: 204, body: null }, deleted);
    const outcome = await deleteStoredOrder(c.get("db"), scope, orderId, [audit, ...stored]);
    if (outcome === "not_found") throw orderNotFound(orderId);
    if (outcome === "has_events") {
      throw new ApiError(
        "CONFLICT_ERROR",
        `Order ${orderId} has events: delete its events before the order.`,
        { param: "order_id" },
      );
    }
    return reply();
  },
});
