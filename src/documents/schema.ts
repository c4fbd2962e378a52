// The statement renders table: a statement's PDF rendering, queued, retried and stored (a shard
// table: see src/db/schema.ts).
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { statements } from "../statements/schema";

/**
 * The rendering of a statement's document: written with the statement when its product renders
 * documents (the outbox the render queue works from), or when the operator asks for a render.
 * `generation` changes with each request, so that a message of an earlier one never stores a
 * document. `superseded`: an upload replaced the document, and no render may overwrite it.
 */
export const statementRenders = sqliteTable(
  "statement_renders",
  {
    statementId: text("statement_id")
      .primaryKey()
      .references(() => statements.statementId),
    // The statement's read scope, copied like `events`: the operator lists a partner's renders
    // from one index range.
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key").notNull(),
    status: text("status", { enum: ["pending", "rendered", "failed", "superseded"] }).notNull(),
    generation: integer("generation").notNull().default(0),
    /** Failed attempts of the current generation. */
    attempts: integer("attempts").notNull().default(0),
    /** When the current generation was asked for: its retry window counts from here. */
    requestedAt: text("requested_at").notNull(),
    /** When a pending render is due; the sweep re-sends a message long overdue. */
    nextAttemptAt: text("next_attempt_at").notNull(),
    completedAt: text("completed_at"),
    /** Why the last attempt failed (a failed render keeps it). */
    error: text("error"),
  },
  (t) => [
    index("statement_renders_due_idx").on(t.status, t.nextAttemptAt),
    index("statement_renders_partner_idx").on(t.partnerId, t.status, t.statementId),
  ],
);
