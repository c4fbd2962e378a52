// Re-driving dead letters: each goes back to the queue it died on, oldest first, and is deleted
// once sent. A request-log message is sent again as it was (its records are stored once however
// often they arrive). A render or a delivery starts a new cycle first (as the operator's re-render
// and a re-send do: a fresh retry window and generation), on the shard its partner lives on now,
// so that work the service itself gave up on is tried again; one whose statement, event or
// endpoint is gone has nothing left to do and is deleted. A partner being moved keeps its dead
// letters until its move is over.

import type { Bindings } from "../app/context";
import { sendMessages } from "../app/queue-send";
import { type Database, newQueryStats } from "../db/client";
import { requestLogQueueOf } from "../db/jurisdiction-stores";
import { openPartnerDatabase, openShards, type Shards } from "../db/shards";
import { enqueueRenders, type RenderRef, requestRender } from "../documents";
import { FIRST_SHARD, isShardCode } from "../domain/shard-code";
import { enqueueDeliveries, redriveDelivery } from "../webhook-deliveries";
import {
  type DeadLetterFilter,
  type DeadLetterRow,
  deleteDeadLetters,
  oldestDeadLetters,
} from "./store";

/** What a re-drive did. */
export interface RedriveOutcome {
  /** Sent back to their queue. */
  redriven: number;
  /** Deleted: their statement, event or endpoint is gone, so there is nothing left to do. */
  finished: number;
  /** Left where they are: their partner is being moved, or their body names no work. */
  waiting: number;
  /** More dead letters of the filter remain after those looked at. */
  hasMore: boolean;
}

/** What became of one dead letter. */
type Fate = "redriven" | "finished" | "waiting";

/** Pages of dead letters one call looks at, at most, per shard. */
const MAX_PAGES = 5;

interface Redriving {
  env: Bindings;
  shards: Shards;
  now: Date;
  requestId: string;
}

/** The JSON object a message's body holds, or null. */
function objectOf(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? { ...value }
      : null;
  } catch {
    return null;
  }
}

/** The partner's database now, from the shard the message names; "moving" while it moves. */
async function partnerOf(
  r: Redriving,
  ref: Record<string, unknown>,
): Promise<{ db: Database; shard: string } | "moving" | null> {
  if (typeof ref.partner_id !== "string") return null;
  const named = typeof ref.shard === "string" && isShardCode(ref.shard) ? ref.shard : FIRST_SHARD;
  const found = await openPartnerDatabase(r.shards, { shard: named, partnerId: ref.partner_id });
  if (!found) return null;
  return found.moving ? "moving" : found;
}

async function redriveRender(r: Redriving, row: DeadLetterRow): Promise<Fate> {
  const ref = objectOf(row.body);
  if (!ref || typeof ref.statement_id !== "string") return "waiting";
  const partner = await partnerOf(r, ref);
  if (partner === "moving") return "waiting";
  if (!partner) return "finished";
  const asked = await requestRender(partner.db, ref.statement_id, r.now);
  if (!asked) return "finished";
  const render: RenderRef = { ...asked, shard: partner.shard };
  await enqueueRenders(r.env, [render], r.requestId);
  return "redriven";
}

async function redriveDeliveryOf(r: Redriving, row: DeadLetterRow): Promise<Fate> {
  const ref = objectOf(row.body);
  if (!ref || typeof ref.event_id !== "string" || typeof ref.endpoint_id !== "string") {
    return "waiting";
  }
  const partner = await partnerOf(r, ref);
  if (partner === "moving") return "waiting";
  if (!partner) return "finished";
  const ids = { event_id: ref.event_id, endpoint_id: ref.endpoint_id };
  const deliveries = await redriveDelivery(partner.db, partner.shard, ids, r.now);
  if (deliveries.length === 0) return "finished";
  await enqueueDeliveries(r.env.WEBHOOK_DELIVERIES, deliveries, r.requestId);
  return "redriven";
}

/**
 * Request-log messages go back as they were (one send for the page), through the request-log
 * queue of shard `shard`'s jurisdiction: a record never leaves it.
 */
async function redriveRequestLogs(
  r: Redriving,
  shard: string,
  rows: readonly DeadLetterRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const queue = requestLogQueueOf(r.env, shard);
  if (!queue) throw new Error(`the request-log queue of shard ${shard} is not bound`);
  await sendMessages(
    queue,
    rows.map((row) => row.body),
  );
}

/** Re-drives one page of a shard's dead letters; answers each one's fate by id. */
async function redrivePage(
  r: Redriving,
  shard: string,
  db: Database,
  rows: readonly DeadLetterRow[],
): Promise<Map<string, Fate>> {
  const fates = new Map<string, Fate>();
  const logs = rows.filter((row) => row.queue === "request-logs");
  await redriveRequestLogs(r, shard, logs);
  for (const row of logs) fates.set(row.deadLetterId, "redriven");
  for (const row of rows) {
    if (row.queue === "statement-renders") fates.set(row.deadLetterId, await redriveRender(r, row));
    if (row.queue === "webhook-deliveries") {
      fates.set(row.deadLetterId, await redriveDeliveryOf(r, row));
    }
  }
  const done = [...fates].filter(([, fate]) => fate !== "waiting").map(([id]) => id);
  await deleteDeadLetters(db, done);
  return fates;
}

/**
 * Re-drives up to `limit` dead letters of the filter, oldest first, shard by shard (those of a
 * partner being moved are passed over and left).
 */
export async function redriveDeadLetters(
  env: Bindings,
  filter: DeadLetterFilter,
  limit: number,
  requestId: string,
): Promise<RedriveOutcome> {
  const r: Redriving = {
    env,
    shards: openShards(env, newQueryStats()),
    now: new Date(),
    requestId,
  };
  const outcome: RedriveOutcome = { redriven: 0, finished: 0, waiting: 0, hasMore: false };
  for (const shard of r.shards.codes) {
    const db = r.shards.mustOpen(shard);
    let after: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const left = limit - outcome.redriven - outcome.finished;
      if (left <= 0) {
        const [next] = await oldestDeadLetters(db, { ...filter, after }, 1);
        if (next) outcome.hasMore = true;
        break;
      }
      const rows = await oldestDeadLetters(db, { ...filter, after }, left);
      for (const fate of (await redrivePage(r, shard, db, rows)).values()) outcome[fate] += 1;
      after = rows.at(-1)?.deadLetterId ?? after;
      if (rows.length < left) break;
      if (page === MAX_PAGES - 1) outcome.hasMore = true;
    }
  }
  return outcome;
}
