// The tables that hold a partner's data on its shard, in the order their rows depend on each
// other (parents first), and how to tell which partner a row belongs to. A move copies, verifies
// and retires them in this order (src/shards/partner-moves.ts), and its fence refuses writes to them.
// A new table holding partner data belongs here: a test fails while one of the schema is neither
// here nor in SHARED_TABLES.
import { getTableColumns, getTableName } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { accounts } from "../accounts/schema";
import {
  apiKeys,
  auditEvents,
  customers,
  idempotencyKeys,
  partners,
  products,
  sessions,
  signInTokens,
  users,
  versionUsage,
} from "../db/schema";
import { deadLetters } from "../dead-letters/schema";
import { statementRenders } from "../documents/schema";
import { events } from "../events/schema";
import { shardOutbox } from "../mail/schema";
import { orderEvents, orders } from "../orders/schema";
import { paymentMethods } from "../payment-methods/schema";
import { requestLogDays, requestLogs } from "../request-logs/schema";
import { sandboxUsage, shardSize } from "../sandbox-budgets/schema";
import { savedVersionChanges } from "../saved-versions/schema";
import { statementLineItems, statements } from "../statements/schema";
import { transactionIntents } from "../transaction-intents/schema";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../webhook-endpoints/schema";
import { moveFences } from "./schema";

export interface PartnerTable {
  table: SQLiteTable;
  name: string;
  /**
   * The partner a row belongs to, as SQL over the row `row` (a table alias, or a trigger's `NEW`
   * / `OLD`): its own column, or its parent's.
   */
  partnerOf(row: string): string;
  /** SQL true for the rows of the partner bound as `?1`, over the row `row` (index-friendly). */
  belongs(row: string): string;
  /** Columns copied and compared, in order (an autoincrement id is not: the copy numbers anew). */
  columns: readonly string[];
  /**
   * Kept on the old shard when a move retires its copy: the partner's row and its credentials
   * (keys, users, sessions, sign-in links), which forward what still names that shard.
   */
  forwards: boolean;
}

/** How a table's rows name their partner. */
interface Owner {
  partnerOf(row: string): string;
  belongs(row: string): string;
}

/** A table whose rows carry their partner's id. */
const own = (column = "partner_id"): Owner => ({
  partnerOf: (row) => `${row}.${column}`,
  belongs: (row) => `${row}.${column} = ?1`,
});

/** A table whose rows belong to their parent's partner. */
const through = (parent: string, key: string): Owner => ({
  partnerOf: (row) => `(SELECT p.partner_id FROM ${parent} p WHERE p.${key} = ${row}.${key})`,
  belongs: (row) => `${row}.${key} IN (SELECT p.${key} FROM ${parent} p WHERE p.partner_id = ?1)`,
});

/** Line items belong to their statement's account's partner. */
const throughStatement: Owner = {
  partnerOf: (row) =>
    `(SELECT a.partner_id FROM statements s JOIN accounts a ON a.account_id = s.account_id ` +
    `WHERE s.statement_id = ${row}.statement_id)`,
  belongs: (row) =>
    `${row}.statement_id IN (SELECT s.statement_id FROM statements s JOIN accounts a ` +
    "ON a.account_id = s.account_id WHERE a.partner_id = ?1)",
};

/** A move's own columns: the copy sets them, the comparison leaves them out. */
const MOVE_COLUMNS = new Set(["moving_to", "moved_to"]);

function entry(
  table: SQLiteTable,
  owner: Owner,
  options: { forwards?: boolean; renumbered?: boolean } = {},
): PartnerTable {
  const columns = Object.values(getTableColumns(table))
    .map((c) => c.name)
    .filter((name) => !(options.renumbered && name === "id") && !MOVE_COLUMNS.has(name));
  return {
    table,
    name: getTableName(table),
    ...owner,
    columns,
    forwards: options.forwards ?? false,
  };
}

/** Every table of a partner's data, parents first. */
export const PARTNER_TABLES: readonly PartnerTable[] = [
  entry(partners, own(), { forwards: true }),
  entry(products, own()),
  entry(apiKeys, own(), { forwards: true }),
  entry(customers, own()),
  entry(accounts, own()),
  entry(paymentMethods, own()),
  entry(orders, own()),
  entry(orderEvents, own()),
  entry(transactionIntents, own()),
  entry(statements, through("accounts", "account_id")),
  entry(statementLineItems, throughStatement),
  entry(statementRenders, own()),
  entry(users, own(), { forwards: true }),
  entry(signInTokens, through("users", "user_id"), { forwards: true }),
  entry(sessions, through("users", "user_id"), { forwards: true }),
  entry(auditEvents, own(), { renumbered: true }),
  entry(savedVersionChanges, own(), { renumbered: true }),
  entry(events, own()),
  entry(webhookEndpoints, own()),
  entry(webhookDeliveries, through("webhook_endpoints", "endpoint_id")),
  entry(webhookAttempts, through("webhook_endpoints", "endpoint_id")),
  entry(idempotencyKeys, own()),
  entry(requestLogs, own()),
  entry(requestLogDays, own()),
  entry(sandboxUsage, own()),
];

/**
 * Tables of a shard that a move leaves where they are: request counters (the operator's reads sum
 * every shard, so a count may stay where it was counted), the move's own fence, dead letters
 * (the operator reads and re-drives them on every shard; a re-driven message finds its partner
 * wherever it lives), and the local outbox's mail (read by its number wherever it was kept; a move
 * stays in its jurisdiction), and the shard's own measured size.
 */
export const SHARED_TABLES: readonly SQLiteTable[] = [
  versionUsage,
  shardSize,
  moveFences,
  deadLetters,
  shardOutbox,
];
