// The event log's table: statement events (a shard table: see src/db/schema.ts).
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { EVENT_TYPES } from "../domain/event";
import { statements } from "../statements/schema";

/**
 * Statement events: one row per change a partner can learn of, written in the same atomic batch as
 * the change itself. Each carries the read scope of the statement's account (copied, like
 * `accounts`), so listing a product's events reads one index range. Kept 30 days.
 */
export const events = sqliteTable(
  "events",
  {
    eventId: text("event_id").primaryKey(),
    type: text("type", { enum: EVENT_TYPES }).notNull(),
    statementId: text("statement_id")
      .notNull()
      .references(() => statements.statementId),
    accountId: text("account_id").notNull(),
    customerId: text("customer_id").notNull(),
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    // The keyset page index of `GET /v2/events`, newest first within one read scope.
    index("events_page_idx").on(t.partnerId, t.environment, t.merchantKey, t.createdAt, t.eventId),
    // The same page of one event type (`GET /v2/events?type=…`): one range per type.
    index("events_type_page_idx").on(
      t.partnerId,
      t.environment,
      t.merchantKey,
      t.type,
      t.createdAt,
      t.eventId,
    ),
    // Each transition happens once per statement: a concurrent import cannot announce it twice.
    uniqueIndex("events_statement_type_idx").on(t.statementId, t.type),
    // The retention purge deletes by age.
    index("events_created_idx").on(t.createdAt),
  ],
);
