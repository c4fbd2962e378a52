// /operator/v1/dead-letters: the messages the service's queues gave up on, across every shard,
// newest first; re-driving them (back to their queue, oldest first) and discarding one.
import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { validationError } from "../app/operator-requests";
import { idPageQuery } from "../app/query";
import { readJsonBody } from "../app/read-body";
import { acrossShards } from "../db/shards";
import { redriveDeadLetters } from "./redrive";
import { DEAD_LETTER_QUEUES, type DeadLetterQueue } from "./schema";
import {
  type DeadLetterFilter,
  type DeadLetterRow,
  deleteDeadLetters,
  readDeadLetters,
} from "./store";

const DEAD_LETTER_ID = /^dl_[0-9A-Za-z]{25}$/;

const RedriveBody = z.strictObject({
  queue: z.enum(DEAD_LETTER_QUEUES).optional(),
  partner_id: z.string().min(1).max(255).optional(),
  dead_letter_ids: z.array(z.string().regex(DEAD_LETTER_ID)).min(1).max(100).optional(),
  limit: z.number().int().min(1).max(100).optional(),
});

/** `?queue=`: one of the queues (400 naming them otherwise). */
function queueFilter(value: string | undefined): DeadLetterQueue | undefined {
  if (value === undefined) return undefined;
  const queue = DEAD_LETTER_QUEUES.find((name) => name === value);
  if (queue !== undefined) return queue;
  throw invalidRequest([`queue must be one of ${DEAD_LETTER_QUEUES.join(", ")}`], "queue");
}

/** The body as stored: its JSON, or its text when it is not JSON. */
function bodyOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function deadLetterJson(row: DeadLetterRow, shard: string) {
  return {
    dead_letter_id: row.deadLetterId,
    queue: row.queue,
    partner_id: row.partnerId,
    shard,
    dead_at: row.deadAt,
    body: bodyOf(row.body),
  };
}

export const deadLetterOperatorRoutes = new Hono<AppEnv>()
  // Every shard's dead letters of the filter, newest first; `starting_after` is a dead letter id.
  .get("/operator/v1/dead-letters", async (c) => {
    const { limit, after } = idPageQuery.parse((name) => c.req.queries(name));
    if (after !== null && !DEAD_LETTER_ID.test(after)) {
      throw invalidRequest(["starting_after must be a dead letter id"], "starting_after");
    }
    const filter: DeadLetterFilter = { queue: queueFilter(c.req.query("queue")) };
    const partnerId = c.req.query("partner_id");
    if (partnerId !== undefined) filter.partnerId = partnerId;
    const shards = c.get("shards");
    const pages = await acrossShards(shards, (db) => readDeadLetters(db, filter, after, limit + 1));
    const rows = pages
      .flatMap(({ shard, result }) => result.map((row) => ({ row, shard })))
      .sort((a, b) => (a.row.deadLetterId < b.row.deadLetterId ? 1 : -1));
    return c.json({
      data: rows.slice(0, limit).map(({ row, shard }) => deadLetterJson(row, shard)),
      has_more: rows.length > limit,
    });
  })

  // Sends dead letters back to their queues, oldest first: up to `limit` (100) a call.
  .post("/operator/v1/dead-letters/redrive", async (c) => {
    const body = (await readJsonBody(c.req.raw, { allowEmpty: true })) ?? {};
    const parsed = RedriveBody.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    const { queue, partner_id: partnerId, dead_letter_ids: ids, limit } = parsed.data;
    const filter: DeadLetterFilter = {};
    if (queue) filter.queue = queue;
    if (partnerId !== undefined) filter.partnerId = partnerId;
    if (ids) filter.ids = ids;
    const outcome = await redriveDeadLetters(c.env, filter, limit ?? 100, c.get("requestId"));
    return c.json({
      redriven: outcome.redriven,
      finished: outcome.finished,
      waiting: outcome.waiting,
      has_more: outcome.hasMore,
    });
  })

  // Discards one dead letter, wherever it is.
  .delete("/operator/v1/dead-letters/:dead_letter_id", async (c) => {
    const id = c.req.param("dead_letter_id");
    const gone = DEAD_LETTER_ID.test(id)
      ? (await acrossShards(c.get("shards"), (db) => deleteDeadLetters(db, [id]))).reduce(
          (n, { result }) => n + result,
          0,
        )
      : 0;
    if (gone === 0) {
      throw new ApiError("NOT_FOUND_ERROR", `No such dead letter: ${JSON.stringify(id)}`);
    }
    return c.body(null, 204);
  });
