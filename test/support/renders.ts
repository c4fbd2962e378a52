// Driving the render queue's consumer from a test: a statement with a pending render written as
// the import writes one, and one message of it handed to the consumer with a renderer of the
// test's choosing, recording what the consumer told the queue.
import { env } from "cloudflare:workers";
import type { StatementRenderer } from "../../src/documents/render-input";
import { renderConsumer } from "../../src/documents/render-queue";
import type { RenderRef } from "../../src/documents/render-store";
import { type Fixture, importData, monthlyStatement, uniqueId } from "./fixtures";
import { partnerDatabase, shardOf } from "./shards";

/** A statement of `f`'s account with a pending render asked for now; answers its message. */
export async function pendingRender(f: Fixture): Promise<RenderRef> {
  const statement = monthlyStatement(f.accountId, 1, uniqueId("st"));
  await importData({ statements: [statement] });
  const now = new Date().toISOString();
  const db = await partnerDatabase(f.partnerId);
  await db
    .prepare(
      `INSERT INTO statement_renders (statement_id, partner_id, environment, merchant_key, status,
       generation, attempts, requested_at, next_attempt_at) VALUES (?, ?, 'sandbox', ?, 'pending',
       0, 0, ?, ?)`,
    )
    .bind(statement.statement_id, f.partnerId, f.merchantKey, now, now)
    .run();
  return {
    shard: await shardOf(f.partnerId),
    partner_id: f.partnerId,
    environment: "sandbox",
    statement_id: statement.statement_id,
    generation: 0,
  };
}

/** What the consumer told the queue about a message: acked, or retried after some seconds. */
export interface Told {
  acked: boolean;
  retriedAfter: number | null;
}

/**
 * Runs the render consumer on one message of `ref` with `renderer` (and the consumer's deadline
 * for an attempt, and bindings laid over the test environment's, when given); answers what it
 * told the queue. Dead letters go nowhere.
 */
export async function consume(
  ref: RenderRef,
  renderer: StatementRenderer,
  deadlineMs?: number,
  overrides: Record<string, unknown> = {},
): Promise<Told> {
  const told: Told = { acked: false, retriedAfter: null };
  const message = {
    id: uniqueId("msg"),
    timestamp: new Date(),
    attempts: 1,
    body: ref,
    ack: () => {
      told.acked = true;
    },
    retry: (options?: { delaySeconds?: number }) => {
      told.retriedAfter = options?.delaySeconds ?? 0;
    },
  };
  const batch = {
    queue: "statement-renders",
    messages: [message],
  } as unknown as MessageBatch<RenderRef>;
  const bindings = {
    ...env,
    STATEMENT_RENDER_DEAD_LETTERS: { send: async () => {} },
    ...overrides,
  } as unknown as typeof env;
  await renderConsumer(() => renderer, deadlineMs)(batch, bindings);
  return told;
}

/** The render row of a statement: its status and last error. */
export async function renderOf(f: Fixture, statementId: string) {
  const db = await partnerDatabase(f.partnerId);
  return db
    .prepare("SELECT status, error FROM statement_renders WHERE statement_id = ?")
    .bind(statementId)
    .first<{ status: string; error: string | null }>();
}
