// The move fences of partners being moved between shards (a shard table: see src/db/schema.ts).
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Partners being moved away from this shard (src/shards/partner-moves.ts): while a partner has a row
 * here, triggers created for the move refuse every write to its rows (`partner_moving`), so that
 * nothing lands in the copy being made. Empty, and without those triggers, when no move runs.
 */
export const moveFences = sqliteTable("move_fences", {
  partnerId: text("partner_id").primaryKey(),
  /** `frozen`: every write refused; `retiring`: only the move's own deletes pass. */
  phase: text("phase", { enum: ["frozen", "retiring"] }).notNull(),
  createdAt: text("created_at").notNull(),
});
