// The orders and order_events tables (shard tables: see src/db/schema.ts): what a partner tells the
// programme about its own checkout. An order keeps the sums of its events (`captured_amount`,
// `refunded_amount`), written in the same batch as each event, so a read of the order never sums.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { customers } from "../db/schema";

export const orders = sqliteTable(
  "orders",
  {
    orderId: text("order_id").primaryKey(),
    // The customer's read scope, copied from the customer when the order is created: a customer's
    // partner, environment and product never change, so the copy cannot drift.
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key").notNull(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.customerId),
    partnerOrderId: text("partner_order_id").notNull(),
    paymentMethodId: text("payment_method_id"),
    currency: text("currency").notNull(),
    totalAmount: integer("total_amount").notNull(),
    rewardsAmount: integer("rewards_amount"),
    /** `{name, category_code?, city?, country?}` as JSON, or null. */
    merchant: text("merchant"),
    /** The order lines as a JSON array (bounded per order, read and written whole). */
    lines: text("lines").notNull(),
    capturedAmount: integer("captured_amount").notNull().default(0),
    refundedAmount: integer("refunded_amount").notNull().default(0),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // The partner's own id is unique per partner, environment and product: the index refuses a
    // second one however many requests race.
    uniqueIndex("orders_partner_order_idx").on(
      t.partnerId,
      t.environment,
      t.merchantKey,
      t.partnerOrderId,
    ),
    // The list, newest first (ids sort by creation time).
    index("orders_scope_idx").on(t.partnerId, t.environment, t.merchantKey, t.orderId),
    // The list filtered by customer, and a customer's orders in the data browser.
    index("orders_customer_idx").on(
      t.partnerId,
      t.environment,
      t.merchantKey,
      t.customerId,
      t.orderId,
    ),
  ],
);

export const orderEvents = sqliteTable(
  "order_events",
  {
    orderEventId: text("order_event_id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.orderId),
    // The order's read scope, copied: an event is read and filtered without its order.
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key").notNull(),
    type: text("type", { enum: ["CAPTURED", "REFUNDED"] }).notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    networkTransactionId: text("network_transaction_id").notNull(),
    partnerEventId: text("partner_event_id"),
    rewardsAmount: integer("rewards_amount"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    // A partner's event id is unique per partner, environment and product (events without one
    // are not: SQLite's unique indexes let NULLs repeat).
    uniqueIndex("order_events_partner_event_idx").on(
      t.partnerId,
      t.environment,
      t.merchantKey,
      t.partnerEventId,
    ),
    // An order's events: its list, the count its bound checks, and whether a delete may go.
    index("order_events_order_idx").on(t.orderId, t.orderEventId),
    index("order_events_scope_idx").on(t.partnerId, t.environment, t.merchantKey, t.orderEventId),
    index("order_events_network_idx").on(
      t.partnerId,
      t.environment,
      t.merchantKey,
      t.networkTransactionId,
      t.orderEventId,
    ),
  ],
);
