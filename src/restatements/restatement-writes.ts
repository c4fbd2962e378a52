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
import { hasMessage } from "../db/storage";
import { type RenderRef, renderRefsOf, renderRequestWrites } from "../documents";
import type { Actor } from "../domain/audit";
import type { Environment } from "../domain/environment";
import type { StatementInput } from "../domain/statement-item";
import { lineItemInserts, STATEMENT_COLUMNS, statementRow } from "../statements";
import { type DeliveryRef, deliveriesOf, statementEventWrites } from "../webhook-deliveries";

/** The original as the restatement found it, with its account's partner and environment. */
export interface Original {
  statementId: string;
  accountId: string;
  partnerId: string;
  environment: Environment;
}

/**
 * `?1` is the correction's row (STATEMENT_COLUMNS order), `?2` the original's id, `?3` the time.
 * The account is copied from the original only while the original is listed and still the same
 * account's: otherwise it is NULL and the insert fails, and with it the batch.
 */
const INSERT_CORRECTION =
  `INSERT INTO statements (${STATEMENT_COLUMNS.join(", ")}, restates, created_at) SELECT ` +
  STATEMENT_COLUMNS.map((_, i) =>
    i === 1
      ? "(SELECT o.account_id FROM statements o WHERE o.statement_id = ?2 AND " +
        "o.account_id = j.value ->> 1 AND o.restated_by IS NULL AND o.hidden_at IS NULL)"
      : `j.value ->> ${i}`,
  ).join(", ") +
  ", ?2, ?3 FROM json_each(?1) AS j";

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
  const row = JSON.stringify([statementRow(correction, digest)]);
  const originalRow = JSON.stringify([[original.statementId]]);
  const restated = statementEventWrites(
    "statement.restated",
    originalRow,
    createdAt,
    sql`s.restated_by IS NULL AND s.hidden_at IS NULL`,
  );
  const created = statementEventWrites("statement.created", row, createdAt);

  const writes: D1PreparedStatement[] = [
    db.$client.prepare(INSERT_CORRECTION).bind(row, original.statementId, createdAt),
  ];
  for (const insert of lineItemInserts([correction])) writes.push(prepared(db, insert));
  // The events are checked against the original before its link is written, below.
  writes.push(prepared(db, restated.events), prepared(db, created.events));
  const deliveriesFrom = writes.length;
  writes.push(prepared(db, restated.deliveries), prepared(db, created.deliveries));
  writes.push(
    prepared(
      db,
      sql`UPDATE statements SET restated_by = ${correction.statement_id}
        WHERE statement_id = ${original.statementId} AND restated_by IS NULL
          AND hidden_at IS NULL`,
    ),
  );
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
    if (
      hasMessage(err, "NOT NULL constraint failed: statements.account_id") ||
      hasMessage(err, "UNIQUE constraint failed: statements.statement_id") ||
      hasMessage(err, "statement_figures_immutable")
    ) {
      return null;
    }
    throw err;
  }
}
