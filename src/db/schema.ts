// D1 schema: the single source of truth; `npm run db:generate` writes migrations/ from it.
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

/** A company running a co-brand card programme. Saved API versions are per environment. */
export const partners = sqliteTable("partners", {
  partnerId: text("partner_id").primaryKey(),
  name: text("name").notNull(),
  savedVersionSandbox: text("saved_version_sandbox").notNull(),
  savedVersionProduction: text("saved_version_production").notNull(),
  /**
   * JSON array of the partner's merchant keys, a copy of `products` kept by the import so that
   * authentication reads one partner row instead of every product row.
   */
  merchantKeys: text("merchant_keys").notNull().default("[]"),
  createdAt: text("created_at").notNull(),
});

/** A card product of a partner, addressed by the merchant-key header. */
export const products = sqliteTable(
  "products",
  {
    merchantKey: text("merchant_key").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    name: text("name").notNull(),
  },
  (t) => [index("products_partner_idx").on(t.partnerId, t.merchantKey)],
);

/** API keys: only the SHA-256 of the key is stored; the plaintext is shown once, at creation. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    keyId: text("key_id").primaryKey(),
    keyHash: text("key_hash").notNull(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    /** JSON array of scope names. */
    scopes: text("scopes").notNull(),
    name: text("name"),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_idx").on(t.keyHash)],
);

export const customers = sqliteTable(
  "customers",
  {
    customerId: text("customer_id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key")
      .notNull()
      .references(() => products.merchantKey),
    partnerCustomerId: text("partner_customer_id"),
    /** JSON array of authorized users, or null. */
    authorizedUsers: text("authorized_users"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("customers_scope_idx").on(t.partnerId, t.environment, t.merchantKey, t.customerId)],
);

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

/**
 * Closed billing cycles. Dates are stored as normalised UTC RFC 3339 text (`toISOString()`), which
 * sorts lexicographically in time order. Figures are immutable (a trigger enforces it, see
 * migrations); only `pdf_key` and `hidden_at` change after import.
 */
export const statements = sqliteTable(
  "statements",
  {
    statementId: text("statement_id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.accountId),
    periodStartDate: text("period_start_date"),
    periodEndDate: text("period_end_date").notNull(),
    dueDate: text("due_date"),
    currency: text("currency"),
    statementBalance: integer("statement_balance"),
    minimumDue: integer("minimum_due"),
    previousBalance: integer("previous_balance"),
    purchases: integer("purchases"),
    payments: integer("payments"),
    credits: integer("credits"),
    refunds: integer("refunds"),
    interest: integer("interest"),
    fees: integer("fees"),
    overdueAmount: integer("overdue_amount"),
    /** R2 object key of the rendered PDF; null until the document is uploaded. */
    pdfKey: text("pdf_key"),
    hiddenAt: text("hidden_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    // The keyset page index: only visible rows, in listing order (scanned backwards for DESC).
    index("statements_page_idx")
      .on(t.accountId, t.periodEndDate, t.statementId)
      .where(sql`hidden_at IS NULL`),
  ],
);

/**
 * Requests served per day, API version, partner and environment: added to by each isolate at most
 * once a minute (src/app/version-usage.ts), read by the operator API. The key starts with the
 * day, so "the last 30 days" is one range of the primary key.
 */
export const versionUsage = sqliteTable(
  "version_usage",
  {
    day: text("day").notNull(),
    version: text("version").notNull(),
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    requests: integer("requests").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.version, t.partnerId, t.environment] })],
);
