// Statement renders in D1: the outbox row written with each statement to render, the job the
// consumer reads for a message, its failures, the operator's listing and re-render, and the sweep
// of renders whose message was lost. Set-based writes name statements by one JSON value, like the
// event writes (webhook-deliveries/event-writes.ts), so one statement renders a whole chunk of an
// import.
import { and, asc, eq, getTableColumns, gt, type SQL, sql } from "drizzle-orm";
import { accounts } from "../accounts/schema";
import { allOf, prepared } from "../db/batch";
import type { Database } from "../db/client";
import { fencedPartners } from "../db/move-fences";
import { products } from "../db/schema";
import type { Environment } from "../domain/environment";
import { MAX_LINE_ITEMS_PER_STATEMENT } from "../domain/line-item";
import { statementLineItems, statements } from "../statements/schema";
import { PRODUCT_LOOK } from "./product-store";
import type { RenderJob } from "./render-input";
import { statementRenders } from "./schema";

/**
 * A render as a queue message carries it: the statement, where its partner's data lives (partner
 * and environment), and which request of its render (the generation).
 */
export interface RenderRef {
  /** The shard the partner lived on when the render was asked for (absent: the first). */
  shard?: string;
  partner_id: string;
  environment: Environment;
  statement_id: string;
  generation: number;
}

export type RenderStatus = (typeof statementRenders.$inferSelect)["status"];
export const RENDER_STATUSES: readonly RenderStatus[] = [
  "pending",
  "rendered",
  "failed",
  "superseded",
];

const RETURNING_REF = sql`RETURNING statement_id, partner_id, environment, generation`;

/**
 * The write, for the batch that stores the statements of `rows` (a JSON array of rows whose first
 * element is a statement id), that asks for their documents: every statement whose product
 * renders its documents, or every one when `everyProduct`. It answers the renders it created
 * (`renderRefsOf`); a statement asked for already keeps its render.
 */
export function renderRequestWrites(rows: string, at: string, everyProduct = false): SQL {
  return sql`INSERT INTO statement_renders (statement_id, partner_id, environment, merchant_key,
      status, generation, attempts, requested_at, next_attempt_at)
    SELECT s.statement_id, a.partner_id, a.environment, a.merchant_key, 'pending', 0, 0, ${at},
      ${at}
    FROM json_each(${rows}) AS j JOIN statements AS s ON s.statement_id = j.value ->> 0
      JOIN accounts AS a ON a.account_id = s.account_id
      JOIN products AS p ON p.merchant_key = a.merchant_key
    WHERE ${everyProduct ? sql`true` : sql`p.documents = 'rendered'`}
    ON CONFLICT (statement_id) DO NOTHING ${RETURNING_REF}`;
}

/** The renders created, from the batch results of `renderRequestWrites`. */
export function renderRefsOf(results: readonly D1Result[], shard: string): RenderRef[] {
  return results.flatMap((result) =>
    // Each result is a `renderRequestWrites` INSERT's: its rows are RETURNING_REF's columns.
    (result.results as RenderRef[]).map((ref) => ({ ...ref, shard })),
  );
}

/**
 * Asks for a new render of the statement, whatever became of earlier ones (the operator's
 * re-render): a new generation, due now, with a fresh retry window. Null for an unknown statement.
 */
export async function requestRender(
  db: Database,
  statementId: string,
  now: Date,
): Promise<RenderRef | null> {
  const at = now.toISOString();
  const { results } = await prepared(
    db,
    sql`INSERT INTO statement_renders (statement_id,
      partner_id, environment, merchant_key, status, generation, attempts, requested_at,
      next_attempt_at)
    SELECT s.statement_id, a.partner_id, a.environment, a.merchant_key, 'pending', 0, 0, ${at},
      ${at}
    FROM statements AS s JOIN accounts AS a ON a.account_id = s.account_id
    WHERE s.statement_id = ${statementId}
    ON CONFLICT (statement_id) DO UPDATE SET status = 'pending',
      generation = statement_renders.generation + 1, attempts = 0,
      requested_at = excluded.requested_at, next_attempt_at = excluded.next_attempt_at,
      completed_at = NULL, error = NULL
    ${RETURNING_REF}`,
  ).all<RenderRef>();
  return results[0] ?? null;
}

/** A statement's own columns, as a render draws them (a StatementRecord but its document). */
const { pdfKey, hiddenAt, createdAt, lineItemsDigest, ...STATEMENT_FIGURES } =
  getTableColumns(statements);

/**
 * The closing date of the statement a correction replaces, by its primary key. Named apart: a D1
 * batch answers rows by column name, so no two selected columns may share one.
 */
const RESTATES_PERIOD_END = sql<string | null>`(SELECT o.period_end_date FROM statements AS o
  WHERE o.statement_id = ${statements.restates})`.as("restates_period_end_date");

/** A line item's columns, as the document draws it (a LineItemRecord). */
const { statementId: _statement, ...LINE_ITEM_COLUMNS } = getTableColumns(statementLineItems);

/**
 * The render `ref` names, while it is still pending in that generation, with everything its
 * document draws: the statement with its account's customer, its product's presentation and
 * terms, the statement it corrects (for its closing date), and its line items in document order.
 * One round trip (a batch of two reads): the render row and the rows it joins by primary key, and
 * one range of `statement_line_items_page_idx` of at most MAX_LINE_ITEMS_PER_STATEMENT + 1 rows
 * (the import stores no more than the maximum; one more is read so that a statement past it
 * fails as input the renderer refuses rather than rendering cut short).
 */
export async function readRenderJob(db: Database, ref: RenderRef): Promise<RenderJob | null> {
  const [[row], lineItems] = await db.batch([
    db
      .select({
        statement: STATEMENT_FIGURES,
        customerId: accounts.customerId,
        product: PRODUCT_LOOK,
        restatesPeriodEndDate: RESTATES_PERIOD_END,
        attempts: statementRenders.attempts,
        requestedAt: statementRenders.requestedAt,
      })
      .from(statementRenders)
      .innerJoin(statements, eq(statements.statementId, statementRenders.statementId))
      .innerJoin(accounts, eq(accounts.accountId, statements.accountId))
      .innerJoin(products, eq(products.merchantKey, accounts.merchantKey))
      .where(pendingRender(ref)),
    db
      .select(LINE_ITEM_COLUMNS)
      .from(statementLineItems)
      .where(eq(statementLineItems.statementId, ref.statement_id))
      .orderBy(asc(statementLineItems.postedAt), asc(statementLineItems.lineItemId))
      .limit(MAX_LINE_ITEMS_PER_STATEMENT + 1),
  ]);
  if (!row) return null;
  const { restatesPeriodEndDate, ...job } = row;
  const restates =
    row.statement.restates && restatesPeriodEndDate
      ? { statementId: row.statement.restates, periodEndDate: restatesPeriodEndDate }
      : null;
  return { ...job, restates, lineItems };
}

/** The render row of `ref` while it is still pending in its generation. */
function pendingRender(ref: RenderRef): SQL {
  return allOf(
    eq(statementRenders.statementId, ref.statement_id),
    eq(statementRenders.generation, ref.generation),
    eq(statementRenders.status, "pending"),
  );
}

/** SQL true while the render of `ref` may still store its document (for the attach batch). */
export function renderStillPending(ref: RenderRef): SQL {
  return sql`EXISTS (SELECT 1 FROM statement_renders AS r WHERE r.statement_id = ${ref.statement_id}
    AND r.generation = ${ref.generation} AND r.status = 'pending')`;
}

/** What becomes of a render once its attempt failed: tried again, or given up. */
export type RenderFailure =
  | { status: "pending"; attempts: number; nextAttemptAt: string; error: string }
  | { status: "failed"; attempts: number; completedAt: string; error: string };

/** Records a failed attempt of `ref`, if it is still pending in its generation. */
export async function recordRenderFailure(
  db: Database,
  ref: RenderRef,
  failure: RenderFailure,
): Promise<void> {
  await db
    .update(statementRenders)
    .set(
      failure.status === "pending"
        ? {
            attempts: failure.attempts,
            nextAttemptAt: failure.nextAttemptAt,
            error: failure.error,
          }
        : {
            status: "failed",
            attempts: failure.attempts,
            completedAt: failure.completedAt,
            error: failure.error,
          },
    )
    .where(pendingRender(ref));
}

/** A render as the operator lists it. */
export type RenderRow = Pick<
  typeof statementRenders.$inferSelect,
  | "statementId"
  | "environment"
  | "status"
  | "attempts"
  | "requestedAt"
  | "nextAttemptAt"
  | "completedAt"
  | "error"
>;

/**
 * Up to `limit + 1` of the partner's renders in `status` (of one environment when given), in
 * statement id order after `after`: one range of `statement_renders_partner_idx`.
 */
export function readRenderPage(
  db: Database,
  filter: { partnerId: string; status: RenderStatus; environment: Environment | null },
  after: string | null,
  limit: number,
): Promise<RenderRow[]> {
  const conditions = [
    eq(statementRenders.partnerId, filter.partnerId),
    eq(statementRenders.status, filter.status),
  ];
  if (filter.environment) conditions.push(eq(statementRenders.environment, filter.environment));
  if (after !== null) conditions.push(gt(statementRenders.statementId, after));
  return db
    .select({
      statementId: statementRenders.statementId,
      environment: statementRenders.environment,
      status: statementRenders.status,
      attempts: statementRenders.attempts,
      requestedAt: statementRenders.requestedAt,
      nextAttemptAt: statementRenders.nextAttemptAt,
      completedAt: statementRenders.completedAt,
      error: statementRenders.error,
    })
    .from(statementRenders)
    .where(and(...conditions))
    .orderBy(asc(statementRenders.statementId))
    .limit(limit + 1);
}

/**
 * Pending renders overdue by more than `graceMs`, whose message was lost: each is made due now
 * and answered, to be sent again. At most `limit`; a partner fenced by a move keeps its own (its
 * messages wait for the switch).
 */
export async function overdueRenders(
  db: Database,
  shard: string,
  now: Date,
  graceMs: number,
  limit: number,
): Promise<RenderRef[]> {
  const overdue = new Date(now.getTime() - graceMs).toISOString();
  const refs = await db
    .update(statementRenders)
    .set({ nextAttemptAt: now.toISOString() })
    .where(
      sql`${statementRenders.statementId} IN (SELECT statement_id FROM statement_renders
        WHERE status = 'pending' AND next_attempt_at < ${overdue}
          AND partner_id NOT IN ${fencedPartners} LIMIT ${limit})`,
    )
    .returning({
      partner_id: statementRenders.partnerId,
      environment: statementRenders.environment,
      statement_id: statementRenders.statementId,
      generation: statementRenders.generation,
    });
  return refs.map((ref) => ({ ...ref, shard }));
}
