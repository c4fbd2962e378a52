// The history of a partner's saved API version (a shard table: see src/db/schema.ts).
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { partners } from "../db/schema";

/** Each change of a partner's saved version; the newest one may be rolled back for 72 hours. */
export const savedVersionChanges = sqliteTable(
  "saved_version_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    fromVersion: text("from_version").notNull(),
    toVersion: text("to_version").notNull(),
    /** `change`, or `rollback` (which cannot itself be rolled back). */
    kind: text("kind", { enum: ["change", "rollback"] }).notNull(),
    changedAt: text("changed_at").notNull(),
    /** Random, unique: lets the statements of the change's batch find the row it wrote. */
    ref: text("ref").notNull(),
  },
  (t) => [index("saved_version_changes_idx").on(t.partnerId, t.environment, t.id)],
);
