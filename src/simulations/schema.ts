// The sandbox's own bookkeeping: simulations counted per partner per day, for the daily quota
// (a shard table: see src/db/schema.ts).
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { partners } from "../db/schema";

/**
 * Statements a partner's simulations closed, per UTC day: the daily quota reads and adds to it in
 * the batch that stores the statement (src/simulations/quotas.ts). Days before yesterday are
 * deleted by the sandbox's maintenance step.
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
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.day] })],
);
