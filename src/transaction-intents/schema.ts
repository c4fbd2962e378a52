// The transaction_intents table (a shard table: see src/db/schema.ts): a card transaction the
// partner expects, before it arrives, which it confirms or cancels.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { customers } from "../db/schema";

export const transactionIntents = sqliteTable(
  "transaction_intents",
  {
    intentId: text("intent_id").primaryKey(),
    // The customer's read scope, copied when the intent is created (it never changes).
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key").notNull(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.customerId),
    paymentMethodId: text("payment_method_id"),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: ["REQUIRES_CONFIRMATION", "CONFIRMED", "CANCELED"] }).notNull(),
    networkTransactionId: text("network_transaction_id"),
    partnerTransactionId: text("partner_transaction_id"),
    expectedDate: text("expected_date"),
    /** `{name, category_code?, city?, country?}` as JSON, or null. */
    merchant: text("merchant"),
    /** String keys to string values, as JSON. */
    metadata: text("metadata").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // The customer's intents, newest first (ids sort by creation time), and by status.
    index("transaction_intents_customer_idx").on(
      t.partnerId,
      t.environment,
      t.merchantKey,
      t.customerId,
      t.intentId,
    ),
    index("transaction_intents_status_idx").on(
      t.partnerId,
      t.environment,
      t.merchantKey,
      t.customerId,
      t.status,
      t.intentId,
    ),
  ],
);
