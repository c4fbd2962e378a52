// The local outbox's mail to users of a partner with a jurisdiction, kept on that partner's shard
// (a shard table: see src/db/schema.ts): the directory's outbox numbers it and names this shard,
// so nothing of the mail leaves the jurisdiction. Local runs and tests only (`MAILER=outbox`); a
// deployment sends mail and keeps none.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const shardOutbox = sqliteTable("outbox", {
  /** The mail's number in the directory's outbox. */
  id: integer("id").primaryKey(),
  recipient: text("recipient").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html"),
  createdAt: text("created_at").notNull(),
});
