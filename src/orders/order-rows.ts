// Order and order-event rows as the API answers them: optional fields omitted when unset, the
// JSON columns read back into objects.
import type { MerchantBody, OrderBody, OrderEventBody, OrderLineBody } from "./api-schemas";
import type { orderEvents, orders } from "./schema";

export type OrderRow = typeof orders.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;

/** A JSON column this service wrote from a validated body: read back as that body's type. */
export function parseStored<T>(json: string): T {
  // Only this service writes these columns, always from a body its schema validated.
  return JSON.parse(json) as T;
}

export function toOrder(row: OrderRow): OrderBody {
  return {
    order_id: row.orderId,
    partner_order_id: row.partnerOrderId,
    customer_id: row.customerId,
    ...(row.paymentMethodId === null ? {} : { payment_method_id: row.paymentMethodId }),
    currency: row.currency,
    total_amount: row.totalAmount,
    ...(row.rewardsAmount === null ? {} : { rewards_amount: row.rewardsAmount }),
    ...(row.merchant === null ? {} : { merchant: parseStored<MerchantBody>(row.merchant) }),
    lines: parseStored<OrderLineBody[]>(row.lines),
    captured_amount: row.capturedAmount,
    refunded_amount: row.refundedAmount,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function toOrderEvent(row: OrderEventRow): OrderEventBody {
  return {
    order_event_id: row.orderEventId,
    order_id: row.orderId,
    type: row.type,
    amount: row.amount,
    currency: row.currency,
    network_transaction_id: row.networkTransactionId,
    ...(row.partnerEventId === null ? {} : { partner_event_id: row.partnerEventId }),
    ...(row.rewardsAmount === null ? {} : { rewards_amount: row.rewardsAmount }),
    created_at: row.createdAt,
  };
}
