// Deleting sandbox data by age: customers made before a moment, each with everything of theirs
// (accounts, cards, statements, their line items and renders, events with their deliveries and
// attempts, documents).
// Two callers: a partner's Admin resetting its sandbox from the dashboard (audited), and the
// maintenance step that expires every partner's sandbox customers after 90 days. A chunk of
// customers goes in one atomic batch; their documents leave the bucket after it (a failure there
// leaves an object no row points to, never a row without its object).
import { sql } from "drizzle-orm";
import { atomically, prepared, type Query } from "../db/batch";
import type { Database } from "../db/client";
import { documentBucket } from "../db/jurisdiction-stores";
import { fencedPartners } from "../db/move-fences";
import { type ShardJurisdictionsConfig, shardJurisdiction } from "../db/shards";

/** Customers deleted per batch (each with its accounts and statements). */
export const CUSTOMERS_PER_BATCH = 50;

/** Whose sandbox: one partner's (a reset), or every partner not being moved (the expiry). */
export type SandboxOwner = { partnerId: string } | "every-partner";

/** What one batch deleted. */
export interface Deleted {
  customers: number;
  statements: number;
  /** The documents' object keys, to delete from the bucket. */
  documents: string[];
}

/**
 * Up to `limit` sandbox customers of `owner` made before `before`: through the sandbox's
 * `customers_sandbox_created_idx` for every partner, through the scope index for one.
 */
async function oldCustomers(
  db: Database,
  owner: SandboxOwner,
  before: string,
  limit: number,
): Promise<string[]> {
  const whose =
    owner === "every-partner"
      ? sql`partner_id NOT IN ${fencedPartners}`
      : sql`partner_id = ${owner.partnerId}`;
  const { results } = await prepared(
    db,
    sql`SELECT customer_id FROM customers WHERE environment = 'sandbox'
      AND created_at < ${before} AND ${whose} LIMIT ${limit}`,
  ).all<{ customer_id: string }>();
  return results.map((r) => r.customer_id);
}

/** Deletes the customers (JSON list `ids`) with everything of theirs, in one batch. */
function deleteCustomerTrees(ids: string): Query[] {
  const statementsOf = sql`(SELECT s.statement_id FROM statements s JOIN accounts a
    ON a.account_id = s.account_id WHERE a.customer_id IN (SELECT value FROM json_each(${ids})))`;
  const eventsOf = sql`(SELECT event_id FROM events WHERE statement_id IN ${statementsOf})`;
  return [
    sql`DELETE FROM webhook_attempts WHERE event_id IN ${eventsOf}`,
    sql`DELETE FROM webhook_deliveries WHERE event_id IN ${eventsOf}`,
    sql`DELETE FROM events WHERE statement_id IN ${statementsOf}`,
    sql`DELETE FROM statement_renders WHERE statement_id IN ${statementsOf}`,
    sql`DELETE FROM statement_line_items WHERE statement_id IN ${statementsOf}`,
    sql`DELETE FROM statements WHERE statement_id IN ${statementsOf} RETURNING pdf_key`,
    sql`DELETE FROM payment_methods WHERE customer_id IN (SELECT value FROM json_each(${ids}))`,
    sql`DELETE FROM accounts WHERE customer_id IN (SELECT value FROM json_each(${ids}))`,
    sql`DELETE FROM customers WHERE customer_id IN (SELECT value FROM json_each(${ids}))
      AND environment = 'sandbox'`,
  ];
}

/**
 * Deletes up to `limit` of `owner`'s sandbox customers made before `before`, each with everything
 * of theirs, in one batch; answers what went.
 */
export async function deleteOldSandboxData(
  db: Database,
  owner: SandboxOwner,
  before: Date,
  limit = CUSTOMERS_PER_BATCH,
): Promise<Deleted> {
  const ids = await oldCustomers(db, owner, before.toISOString(), limit);
  if (ids.length === 0) return { customers: 0, statements: 0, documents: [] };
  const results = await atomically(db, deleteCustomerTrees(JSON.stringify(ids)));
  // The statements' DELETE answers each one's `pdf_key` (null while it has no document).
  const statements = results[5]?.results ?? [];
  return {
    // The customers' DELETE is the batch's last.
    customers: results.at(-1)?.meta.changes ?? 0,
    statements: statements.length,
    documents: statements.flatMap((s) =>
      typeof s === "object" &&
      s !== null &&
      "pdf_key" in s &&
      typeof s.pdf_key === "string" &&
      s.pdf_key
        ? [s.pdf_key]
        : [],
    ),
  };
}

/**
 * Deletes documents of shard `shard`'s partners from the bucket of the shard's jurisdiction; a
 * failure is logged (the objects are then orphaned).
 */
export async function deleteDocuments(
  env: ShardJurisdictionsConfig & object,
  shard: string,
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  const bucket = documentBucket(env, shardJurisdiction(env, shard));
  for (let i = 0; i < keys.length; i += 1000) {
    try {
      await bucket.delete(keys.slice(i, i + 1000));
    } catch (err) {
      console.error(
        JSON.stringify({ sandbox_reset: "document delete failed", error: String(err) }),
      );
    }
  }
}
