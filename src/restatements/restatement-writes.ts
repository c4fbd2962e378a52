// The writes of a restatement, for one atomic batch: the correction (its row, line items, event
// and render), the original's `statement.restated` event and its link to the correction, and the
// audit row. Guards inside the statements refuse what changed since the request read the
// original: a restatement or hiding meanwhile leaves the correction's account NULL (a NOT NULL
// failure), and a second link to the original trips the immutability trigger; either rolls the
// whole batch back.
import { sql } from "drizzle-orm";
import { auditInsert } from "../db/audit";
import { prepared } from "../db/batch";
import type { Database } from "../db/client";
import { type RenderRef, renderRefsOf, renderRequestWrites } from "../documents";
import type { Actor } from "../domain/audit";
import type { Environment } from "../domain/environment";
import type { StatementInput } from "../domain/statement-item";
import {
  correctionInsert,
  isStatementConflict,
  lineItemInserts,
  restatedLink,
  statementRowOf,
} from "../statements";
import { type DeliveryRef, deliveriesOf, statementEventWrites } from "../webhook-deliveries";

/** The original as the restatement found it, with its account's partner and environment. */
export interface Original {
  statementId: string;
  accountId: string;
  partnerId: string;
  environment: Environment;
}

/** What a restatement's batch answers: the deliveries and the render it created. */
export interface RestatementOutcome {
  deliveries: DeliveryRef[];
  renders: RenderRef[];
}

/**
 * Stores `correction` in place of `original` on shard `shard` (which `db` is), in one batch, and
 * answers the deliveries and render to enqueue; null when the original was restated or hidden,
 * or the correction's id taken, since it was read (nothing written).
 */
export async function restate(
  db: Database,
  shard: string,
  original: Original,
  correction: StatementInput,
  { digest, actor, now }: { digest: string | null; actor: Actor; now: Date },
): Promise<RestatementOutcome | null> {
  const createdAt = now.toISOString();
  const row = statementRowOf(correction, digest);
  const originalRow = JSON.stringify([[original.statementId]]);
  const restated = statementEventWrites(
    "statement.restated",
    originalRow,
    createdAt,
    sql`s.restated_by IS NULL AND s.hidden_at IS NULL`,
  );
  const created = statementEventWrites("statement.created", row, createdAt);

  const writes: D1PreparedStatement[] = [
    prepared(db, correctionInsert(row, original.statementId, createdAt)),
  ];
  for (const insert of lineItemInserts([correction])) writes.push(prepared(db, insert));
  // The events are checked against the original before its link is written, below.
  writes.push(prepared(db, restated.events), prepared(db, created.events));
  const deliveriesFrom = writes.length;
  writes.push(prepared(db, restated.deliveries), prepared(db, created.deliveries));
  writes.push(prepared(db, restatedLink(original.statementId, correction.statement_id)));
  const renderAt = writes.length;
  writes.push(prepared(db, renderRequestWrites(row, createdAt)));
  writes.push(
    prepared(
      db,
      auditInsert(
        original.partnerId,
        actor,
        {
          action: "statement.restated",
          environment: original.environment,
          target: original.statementId,
          details: { restated_by: correction.statement_id, account_id: original.accountId },
        },
        now,
      ),
    ),
  );

  try {
    const results = await db.$client.batch(writes);
    return {
      deliveries: deliveriesOf(results.slice(deliveriesFrom, deliveriesFrom + 2), shard),
      renders: renderRefsOf(results.slice(renderAt, renderAt + 1), shard),
    };
  } catch (err) {
    if (isStatementConflict(err)) return null;
    throw err;
  }
}
