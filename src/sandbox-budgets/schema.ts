// The sandbox's bookkeeping (shard tables: see src/db/schema.ts): what each partner's sandbox
// writes made per day, which its budgets read and add to in the batch of each write, and the
// shard's own size as the maintenance cron last measured it, which its guard reads.
import { sql } from "drizzle-orm";
import { check, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { partners } from "../db/schema";

/**
 * Per partner and UTC day, what its sandbox writes made: statements its simulations closed (the
 * daily quota), their line items (the daily line-item budget) and every row its writes made (the
 * rows-held budget sums the days of the expiry window). Days older than that window are deleted
 * by the budgets' maintenance step.
 */
export const sandboxUsage = sqliteTable(
  "sandbox_usage",
  {
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    /** `YYYY-MM-DD`, UTC. */
    day: text("day").notNull(),
    statements: integer("statements").notNull(),
    lineItems: integer("line_items").notNull().default(0),
    rows: integer("rows").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.day] })],
);

/** The shard's size in bytes as last measured (one row), and when: the shard guard reads it. */
export const shardSize = sqliteTable(
  "shard_size",
  {
    id: integer("id").primaryKey(),
    bytes: integer("bytes").notNull(),
    measuredAt: text("measured_at").notNull(),
  },
  (t) => [check("shard_size_one_row", sql`${t.id} = 1`)],
);
