// Writing statements: the one place an imported, restated or simulated statement is inserted and
// a correction linked to its original, and where a batch refused by the statements' guards is
// told apart from a failure. It answers queries: the import, the restatement and the simulations
// put them in their own batches, with the events, renders and audit rows they add.
import { type SQL, sql } from "drizzle-orm";
import { jsonChunks } from "../db/json-rows";
import { hasMessage } from "../db/storage";
import type { StatementInput } from "../domain/statement-item";
import { lineItemsDigest } from "./line-item-writes";
import { STATEMENT_COLUMNS, statementRow } from "./statement-fields";

const COLUMNS = sql.raw(STATEMENT_COLUMNS.join(", "));
const VALUES = sql.raw(STATEMENT_COLUMNS.map((_, i) => `j.value ->> ${i}`).join(", "));

/** Every statement's line items digest, by statement id (one digest per item of the payload). */
export async function digestsOf(
  items: readonly StatementInput[],
): Promise<Map<string, string | null>> {
  const digests = await Promise.all(items.map(lineItemsDigest));
  return new Map(items.map((s, i) => [s.statement_id, digests[i] ?? null]));
}

/**
 * The statements' rows (statementRow, each with its line items' digest) as chunks of JSON rows
 * within D1's limits; the event and render writes read the statement id of each row too.
 */
export function statementRowChunks(
  items: readonly StatementInput[],
  digests: ReadonlyMap<string, string | null>,
): string[] {
  return jsonChunks(items, (s) => statementRow(s, digests.get(s.statement_id) ?? null));
}

/** One statement's row as a chunk of JSON rows (see statementRowChunks). */
export function statementRowOf(s: StatementInput, digest: string | null): string {
  return JSON.stringify([statementRow(s, digest)]);
}

/**
 * The insert of a chunk of new statements' rows. If another import stored one meanwhile with
 * other figures, the update trips the immutability trigger (migrations/0001) and the whole batch
 * rolls back; with the same figures it changes nothing.
 */
export function statementInsert(rows: string, createdAt: string): SQL {
  const update = sql.raw(
    STATEMENT_COLUMNS.slice(1)
      .map((c) => `${c} = excluded.${c}`)
      .join(", "),
  );
  return sql`INSERT INTO statements (${COLUMNS}, created_at) SELECT ${VALUES}, ${createdAt}
    FROM json_each(${rows}) AS j WHERE true ON CONFLICT (statement_id) DO UPDATE SET ${update}`;
}

/** The insert of one statement's row, stored only when `guard` holds (else nothing changes). */
export function guardedStatementInsert(row: string, createdAt: string, guard: SQL): SQL {
  return sql`INSERT INTO statements (${COLUMNS}, created_at) SELECT ${VALUES}, ${createdAt}
    FROM json_each(${row}) AS j WHERE ${guard}`;
}

/**
 * The insert of a correction's row in place of `originalId`. The account is copied from the
 * original only while the original is listed and still the same account's: otherwise it is NULL
 * and the insert fails, and with it the batch (see isStatementConflict).
 */
export function correctionInsert(row: string, originalId: string, createdAt: string): SQL {
  const values = STATEMENT_COLUMNS.map((column, i) =>
    column === "account_id"
      ? sql`(SELECT o.account_id FROM statements o WHERE o.statement_id = ${originalId} AND
          o.account_id = j.value ->> ${sql.raw(String(i))} AND o.restated_by IS NULL
          AND o.hidden_at IS NULL)`
      : sql.raw(`j.value ->> ${i}`),
  );
  return sql`INSERT INTO statements (${COLUMNS}, restates, created_at)
    SELECT ${sql.join(values, sql`, `)}, ${originalId}, ${createdAt} FROM json_each(${row}) AS j`;
}

/**
 * The original's link to its correction, set once: a second link trips the immutability trigger
 * (see isStatementConflict).
 */
export function restatedLink(originalId: string, correctionId: string): SQL {
  return sql`UPDATE statements SET restated_by = ${correctionId}
    WHERE statement_id = ${originalId} AND restated_by IS NULL AND hidden_at IS NULL`;
}

/**
 * Whether a batch failed on a statement's guard rather than broke: a correction whose original
 * was restated or hidden meanwhile, a statement id taken, or figures that changed.
 */
export function isStatementConflict(err: unknown): boolean {
  return (
    hasMessage(err, "NOT NULL constraint failed: statements.account_id") ||
    hasMessage(err, "UNIQUE constraint failed: statements.statement_id") ||
    hasMessage(err, "statement_figures_immutable")
  );
}
