// The statements table (a shard table: see src/db/schema.ts).
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "../accounts/schema";

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
