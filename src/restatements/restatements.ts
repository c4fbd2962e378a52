// POST /operator/v1/statements/{statement_id}/restatements: a corrected statement replaces one
// already stored. The body is the import's statement item (a new id, the same account and period,
// its own figures, line items and rates, the same checks); the correction is stored and both are
// linked in one batch (see restatement-writes.ts). The original's figures never change: it leaves
// the list, where its correction stands, and retrieving it by id shows its `restated_by`.
import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { accounts } from "../accounts/schema";
import { operatorActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { usePartner } from "../app/operator-requests";
import { readJsonBody } from "../app/read-body";
import type { Database } from "../db/client";
import { ownedKey, ownersOf } from "../db/find-by-id";
import { products } from "../db/schema";
import { enqueueRenders } from "../documents";
import { unknownCategories } from "../domain/rewards";
import { parseStatementItem, type StatementInput } from "../domain/statement-item";
import { lineItemsDigest, STATEMENT_COLUMNS, sameFigures, statementRow } from "../statements";
import { statements } from "../statements/schema";
import { enqueueDeliveries } from "../webhook-deliveries";
import { type Original, restate } from "./restatement-writes";

/** Largest accepted restatement body: as an import's. */
const MAX_RESTATEMENT_BYTES = 20 * 1024 * 1024;

const notFound = (statementId: string) =>
  new ApiError(
    "NOT_FOUND_ERROR",
    `No such statement: ${JSON.stringify(statementId.slice(0, 64))}`,
    {
      param: "statement_id",
    },
  );

const conflict = (message: string) => new ApiError("CONFLICT_ERROR", message);

/**
 * The original as stored, with its account's partner and environment, and its product's rewards
 * categories (which a correction's rewards name).
 */
async function readOriginal(db: Database, statementId: string) {
  const [row] = await db
    .select({
      accountId: statements.accountId,
      periodStartDate: statements.periodStartDate,
      periodEndDate: statements.periodEndDate,
      hiddenAt: statements.hiddenAt,
      restatedBy: statements.restatedBy,
      partnerId: accounts.partnerId,
      environment: accounts.environment,
      categories: products.rewardsCategories,
    })
    .from(statements)
    .innerJoin(accounts, eq(accounts.accountId, statements.accountId))
    .innerJoin(products, eq(products.merchantKey, accounts.merchantKey))
    .where(eq(statements.statementId, statementId));
  return row ?? null;
}

/** Whether the correction stored for the original is exactly `correction` (a repeated request). */
async function storedAlready(db: Database, correction: StatementInput, originalId: string) {
  const stored = await db.$client
    .prepare(
      `SELECT ${STATEMENT_COLUMNS.join(", ")}, restates FROM statements WHERE statement_id = ?`,
    )
    .bind(correction.statement_id)
    .first<Record<string, string | number | null>>();
  if (!stored || stored.restates !== originalId) return false;
  return sameFigures(stored, statementRow(correction, await lineItemsDigest(correction)));
}

/** The answer: the correction, and the statement it restates. */
const answer = (c: Context<AppEnv>, correctionId: string, originalId: string, status: 200 | 201) =>
  c.json({ statement_id: correctionId, restates: originalId }, status);

export const operatorRestatementRoutes = new Hono<AppEnv>().post(
  "/operator/v1/statements/:statement_id/restatements",
  async (c) => {
    const originalId = c.req.param("statement_id");
    const body = await readJsonBody(c.req.raw, {
      maxBytes: MAX_RESTATEMENT_BYTES,
      tooLarge: () =>
        new ApiError(
          "PAYLOAD_TOO_LARGE_ERROR",
          `A restatement body is at most ${MAX_RESTATEMENT_BYTES} bytes.`,
        ),
    });
    const parsed = parseStatementItem(body);
    if (!parsed.ok) throw invalidRequest(parsed.details);
    const correction = parsed.statement;
    if (correction.statement_id === originalId) {
      throw invalidRequest([
        `statement_id: must be a new id; the correction is a statement of its own, which ` +
          `restates ${JSON.stringify(originalId)}`,
      ]);
    }

    // Where both ids live, every shard asked at once: the original's shard, and whether the
    // correction's id is taken anywhere (ids are unique across shards).
    const shards = c.get("shards");
    const owners = await ownersOf(shards, {
      statement: new Set([originalId, correction.statement_id]),
    });
    const [home] = owners.get(ownedKey("statement", originalId)) ?? [];
    if (!home) throw notFound(originalId);
    usePartner(c, { ...home, db: shards.mustOpen(home.shard) }, "write");
    const db = c.get("db");
    const original = await readOriginal(db, originalId);
    if (!original) throw notFound(originalId);

    const taken = (owners.get(ownedKey("statement", correction.statement_id)) ?? []).length > 0;
    if (taken) {
      // The same restatement sent again (a retry) answers as the first did.
      if (
        original.restatedBy === correction.statement_id &&
        (await storedAlready(db, correction, originalId))
      ) {
        return answer(c, correction.statement_id, originalId, 200);
      }
      throw conflict(
        `statement_id: ${JSON.stringify(correction.statement_id)} already names a statement; a ` +
          "correction takes a new id",
      );
    }
    if (original.hiddenAt !== null) {
      throw conflict("The statement is hidden: a hidden statement cannot be restated.");
    }
    if (original.restatedBy !== null) {
      throw conflict(
        `The statement was already restated by ${JSON.stringify(original.restatedBy)}: restate ` +
          "that correction instead.",
      );
    }
    const mismatched = [
      ["account_id", correction.account_id, original.accountId],
      ["period_start_date", correction.period_start_date ?? null, original.periodStartDate],
      ["period_end_date", correction.period_end_date, original.periodEndDate],
    ].filter(([, sent, stored]) => sent !== stored);
    if (mismatched.length > 0) {
      throw invalidRequest(
        mismatched.map(
          ([field, , stored]) =>
            `${field}: must be the restated statement's (${JSON.stringify(stored)}): a ` +
            "correction replaces the same account's same cycle",
        ),
      );
    }

    const known = new Set((original.categories ?? []).map((category) => category.category_id));
    const unknown = correction.rewards ? unknownCategories(correction.rewards, known) : [];
    if (unknown.length > 0) {
      throw invalidRequest(
        unknown.map(
          ({ index, categoryId }) =>
            `rewards.by_category[${index}] (${JSON.stringify(categoryId)}).category_id: is not ` +
            "one of the rewards categories of the account's product",
        ),
      );
    }

    const outcome = await restate(
      db,
      c.get("shard"),
      {
        statementId: originalId,
        accountId: original.accountId,
        partnerId: original.partnerId,
        environment: original.environment,
      } satisfies Original,
      correction,
      { digest: await lineItemsDigest(correction), actor: operatorActor(c), now: c.get("now")() },
    );
    if (!outcome) {
      throw conflict(
        "The statement was restated or hidden, or the correction's id was taken, by another " +
          "request meanwhile; nothing was stored.",
      );
    }
    await enqueueDeliveries(c.env.WEBHOOK_DELIVERIES, outcome.deliveries, c.get("requestId"));
    await enqueueRenders(c.env, outcome.renders, c.get("requestId"));
    return answer(c, correction.statement_id, originalId, 201);
  },
);
