// POST /operator/v1/statements/{statement_id}/hide: a statement withdrawn from the partner. It
// leaves every later read, and its endpoints are told with a `statement.hidden` event, written in
// the same batch as the change. Hiding lives outside statements/ because it announces an event:
// webhook deliveries read the statement (event bodies carry one), so statements/ cannot import them.
import { and, eq, isNull, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { requireStatement } from "../app/operator-requests";
import { atomically, type Query } from "../db/batch";
import { statements } from "../statements/schema";
import {
  deliveriesOf,
  type EventWrites,
  enqueueDeliveries,
  statementEventWrites,
} from "../webhook-deliveries";

/**
 * One atomic batch: the events (checked against the row before the change), their deliveries,
 * then the change itself; the new deliveries are then enqueued.
 */
async function changeWithEvents(
  c: Context<AppEnv>,
  announced: EventWrites,
  change: Query,
): Promise<void> {
  const db = c.get("db");
  const [, created] = await atomically(db, [announced.events, announced.deliveries, change]);
  const deliveries = deliveriesOf(created ? [created] : [], c.get("shard"));
  await enqueueDeliveries(c.env.WEBHOOK_DELIVERIES, deliveries, c.get("requestId"));
}

// Hiding a hidden statement again changes nothing and announces nothing: still 204.
export const hiddenStatementOperatorRoutes = new Hono<AppEnv>().post(
  "/operator/v1/statements/:statement_id/hide",
  async (c) => {
    const statementId = c.req.param("statement_id");
    await requireStatement(c, statementId);
    const [row] = await c
      .get("db")
      .select({ hiddenAt: statements.hiddenAt })
      .from(statements)
      .where(eq(statements.statementId, statementId));
    if (!row)
      throw new ApiError("NOT_FOUND_ERROR", `No such statement: ${JSON.stringify(statementId)}`);
    if (row.hiddenAt === null) {
      const db = c.get("db");
      const now = c.get("now")().toISOString();
      const announced = statementEventWrites(
        "statement.hidden",
        JSON.stringify([[statementId]]),
        now,
        sql`s.hidden_at IS NULL`,
      );
      const update = db
        .update(statements)
        .set({ hiddenAt: now })
        .where(and(eq(statements.statementId, statementId), isNull(statements.hiddenAt)));
      await changeWithEvents(c, announced, update);
    }
    return c.body(null, 204);
  },
);
