// The statements table and its line items (shard tables: see src/db/schema.ts).
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  type SQLiteIntegerBuilderInitial,
  sqliteTable,
  text,
} from "drizzle-orm/sqlite-core";
import { accounts } from "../accounts/schema";
import type { LineItemType } from "../domain/line-item";
import type { StatementRewards } from "../domain/rewards";
import type { InterestRate } from "../domain/statement";
import { STATEMENT_AMOUNTS } from "../domain/statement-amounts";

type Amount = (typeof STATEMENT_AMOUNTS)[number];

/** The amount columns, one per entry of STATEMENT_AMOUNTS, in its order, by record property. */
const amountColumns = Object.fromEntries(
  STATEMENT_AMOUNTS.map((amount) => [amount.key, integer(amount.column)]),
  // Object.fromEntries types its keys as string: these are each amount's key, with its column.
) as { [A in Amount as A["key"]]: SQLiteIntegerBuilderInitial<A["column"]> };

/**
 * Closed billing cycles. Dates are stored as normalised UTC RFC 3339 text (`toISOString()`), which
 * sorts lexicographically in time order. Figures are immutable (triggers enforce it, see
 * migrations); only `pdf_key`, `hidden_at` and, once, `restated_by` change after import.
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
    ...amountColumns,
    /** The cycle's rates, sorted by balance type (JSON); null when not recorded. */
    interestRates: text("interest_rates", { mode: "json" }).$type<InterestRate[]>(),
    /** Fees and interest of the calendar year to date: both or neither. */
    ytdFees: integer("ytd_fees"),
    ytdInterest: integer("ytd_interest"),
    /** What the cycle earned (per category), redeemed and holds (JSON); null when not recorded. */
    rewards: text("rewards", { mode: "json" }).$type<StatementRewards>(),
    /**
     * SHA-256 of the statement's line items in document order; null when it carries none. Part of
     * the figures: a re-import with other line items differs from the stored statement.
     */
    lineItemsDigest: text("line_items_digest"),
    /** The statement this one corrects (set when a restatement stores it). */
    restates: text("restates"),
    /** The correction that replaced this statement: set once, by its restatement. */
    restatedBy: text("restated_by"),
    /** R2 object key of the rendered PDF; null until the document is uploaded. */
    pdfKey: text("pdf_key"),
    hiddenAt: text("hidden_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    // The keyset page index: only listed rows (neither hidden nor replaced by a correction), in
    // listing order (scanned backwards for DESC).
    index("statements_page_idx")
      .on(t.accountId, t.periodEndDate, t.statementId)
      .where(sql`hidden_at IS NULL AND restated_by IS NULL`),
  ],
);

/**
 * The transactions a statement carries, as imported with it and never changed (a trigger refuses
 * updates, see migrations). Amounts follow the card-statement sign convention.
 */
export const statementLineItems = sqliteTable(
  "statement_line_items",
  {
    statementId: text("statement_id")
      .notNull()
      .references(() => statements.statementId),
    lineItemId: text("line_item_id").notNull(),
    type: text("type").$type<LineItemType>().notNull(),
    postedAt: text("posted_at").notNull(),
    transactionDate: text("transaction_date"),
    description: text("description").notNull(),
    amount: integer("amount").notNull(),
    merchantName: text("merchant_name"),
    merchantCategoryCode: text("merchant_category_code"),
    merchantCity: text("merchant_city"),
    merchantCountry: text("merchant_country"),
    originalAmount: integer("original_amount"),
    originalCurrency: text("original_currency"),
    cardLast4: text("card_last4"),
  },
  (t) => [
    primaryKey({ columns: [t.statementId, t.lineItemId] }),
    // The keyset page index of a statement's line items, in document order.
    index("statement_line_items_page_idx").on(t.statementId, t.postedAt, t.lineItemId),
    // One type's line items in document order: a `type` filter reads one range per type.
    index("statement_line_items_type_idx").on(t.statementId, t.type, t.postedAt, t.lineItemId),
  ],
);
