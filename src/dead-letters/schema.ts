// The dead letters of the service's queues, kept for the operator (a shard table: see
// src/db/schema.ts).
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The queues whose messages can die, by the name their work is known by. */
export const DEAD_LETTER_QUEUES = [
  "request-logs",
  "statement-renders",
  "webhook-deliveries",
] as const;
export type DeadLetterQueue = (typeof DEAD_LETTER_QUEUES)[number];

/**
 * A message a queue gave up on (after its `max_retries`) or the service gave up on (a delivery or
 * render past its retry window), stored on the shard of its partner by the dead-letter queues'
 * consumer (src/dead-letters/): listed, re-driven and discarded through the operator API, kept 30
 * days. A request-log message holding several partners' records is stored as one row per
 * partner. `dead_letter_id` orders them by when they died.
 */
export const deadLetters = sqliteTable(
  "dead_letters",
  {
    /** `dl_`, 9 base62 characters of the time it died, 16 more from the message's own id. */
    deadLetterId: text("dead_letter_id").primaryKey(),
    /** The queue it was sent on. */
    queue: text("queue", { enum: DEAD_LETTER_QUEUES }).notNull(),
    /** The partner whose work it is (null for a message that names none). */
    partnerId: text("partner_id"),
    /** The message's body as it was sent (JSON). */
    body: text("body").notNull(),
    /** When it reached the dead-letter queue (RFC 3339, milliseconds). */
    deadAt: text("dead_at").notNull(),
  },
  (t) => [
    index("dead_letters_queue_idx").on(t.queue, t.deadLetterId),
    index("dead_letters_partner_idx").on(t.partnerId, t.deadLetterId),
  ],
);
