// The accounts table (a shard table: see src/db/schema.ts).
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { customers } from "../db/schema";

export const accounts = sqliteTable(
  "accounts",
  {
    accountId: text("account_id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.customerId),
    // The owning customer's read scope, copied at import. A customer's partner, environment and
    // product never change (the import refuses it), so the copy cannot drift, and one account row
    // proves the whole ownership chain of a statements read.
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key").notNull(),
    status: text("status"),
    currency: text("currency"),
    creditLimit: integer("credit_limit"),
    currentBalance: integer("current_balance"),
    availableCredit: integer("available_credit"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("accounts_customer_idx").on(t.customerId, t.accountId)],
);
