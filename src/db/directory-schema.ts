// The directory: the one small database for what must be found before a request knows its shard
// (which shard a partner lives on, which partners an e-mail address signs in to, a partner's
// moves) and for what belongs to no partner (the local outbox). A keyed request, a PDF link, a
// page token, a session and a queue message never read it: each names its shard itself. It has no
// jurisdiction, so it holds no personal data of a partner that has one (docs/residency.md).
// `npm run db:generate` writes migrations-directory/ from this file (drizzle.directory.config.ts).
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

/**
 * Where each partner lives: the code of its shard (`00` is the binding DB_00). Written before the
 * partner's first row on the shard. A partner created before sharding may be missing: it lives on
 * the first shard, where `locatePartner` (src/db/directory.ts) looks for it.
 */
export const partnerShards = sqliteTable(
  "partner_shards",
  {
    partnerId: text("partner_id").primaryKey(),
    shard: text("shard").notNull(),
    createdAt: text("created_at").notNull(),
    /** When the partner last changed shard (its move switched); null if it never moved. */
    movedAt: text("moved_at"),
  },
  (t) => [index("partner_shards_shard_idx").on(t.shard, t.partnerId)],
);

/**
 * Dashboard users by address, one row per partner they belong to: how a sign-in request, which
 * carries only an address, finds the shards to look in. Written before the user's own row (a
 * row whose user is missing finds nothing), deleted after it.
 */
export const userEmails = sqliteTable(
  "user_emails",
  {
    email: text("email").notNull(),
    partnerId: text("partner_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.partnerId] })],
);

/**
 * The addresses of users of partners with a jurisdiction, by their keyed hash (HMAC-SHA-256
 * under DIRECTORY_SECRET, src/domain/address-hash.ts) instead of the address: the directory
 * keeps no personal data of such a partner, and a sign-in by address still finds its shard.
 * Written before the user's own row, deleted after it, as `user_emails`.
 */
export const userEmailHashes = sqliteTable(
  "user_email_hashes",
  {
    emailHash: text("email_hash").notNull(),
    partnerId: text("partner_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.emailHash, t.partnerId] })],
);

/**
 * A partner's move from one shard to another: copy, verify, switch, retire, one bounded step per
 * call of `POST /operator/v1/partners/{partner_id}/move` (src/shards/partner-moves.ts). At most one
 * unfinished move per partner and per source shard.
 */
export const partnerMoves = sqliteTable(
  "partner_moves",
  {
    moveId: text("move_id").primaryKey(),
    partnerId: text("partner_id").notNull(),
    fromShard: text("from_shard").notNull(),
    toShard: text("to_shard").notNull(),
    /** `copying` → `verifying` → `switched` → `retiring` → `done` (or `aborted`). */
    phase: text("phase", {
      enum: ["copying", "verifying", "switched", "retiring", "done", "aborted"],
    }).notNull(),
    /** The table being worked on, as an index into the move's table list. */
    tableIndex: integer("table_index").notNull().default(0),
    /** The last source rowid done in that table. */
    cursor: integer("cursor").notNull().default(0),
    /** Copies started (a verification that fails starts the copy again). */
    attempt: integer("attempt").notNull().default(1),
    /** JSON: per table, rows copied and each side's count and content hash. */
    tables: text("tables").notNull().default("{}"),
    startedAt: text("started_at").notNull(),
    switchedAt: text("switched_at"),
    /** The old copy is deleted once every link that names it has expired. */
    retireAfter: text("retire_after"),
    finishedAt: text("finished_at"),
    /** One step at a time: a step holds the move until this instant. */
    leaseUntil: text("lease_until"),
    /** Why the move stopped, when it was aborted. */
    error: text("error"),
  },
  (t) => [
    uniqueIndex("partner_moves_open_partner_idx").on(t.partnerId).where(sql`finished_at IS NULL`),
    uniqueIndex("partner_moves_open_source_idx").on(t.fromShard).where(sql`finished_at IS NULL`),
    index("partner_moves_partner_idx").on(t.partnerId, t.startedAt),
  ],
);

/**
 * Mail kept instead of sent when `MAILER` is `outbox` (local runs and tests), numbered in one
 * sequence. Mail to a user of a partner with a jurisdiction keeps only its number here, with the
 * address's keyed hash as `recipient`, empty texts and its partner's `shard`, whose own outbox
 * (src/mail/schema.ts) holds the mail.
 */
export const outbox = sqliteTable("outbox", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  recipient: text("recipient").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html"),
  createdAt: text("created_at").notNull(),
  /** The shard whose outbox holds the mail (a jurisdictional partner's); null: this row does. */
  shard: text("shard"),
});
