// The request-log queue's consumer: the records of a delivery's messages written into each
// partner's storage, one atomic D1 batch per shard. Each record names its partner's shard; a
// partner that has moved since is followed to its new shard (one read per shard per delivery). A batch that fails is retried by the queue
// (after `max_retries` its records are lost, and a line says so); records written twice are
// stored and counted once (log-store.ts), so a retry after a partial success is harmless.
import type { Bindings } from "../app/context";
import { newQueryStats } from "../db/client";
import { movedPartners, openShards, type Shards } from "../db/shards";
import { ENVIRONMENTS } from "../domain/environment";
import { RECORD_FIELDS, type RequestLogRecord } from "../domain/request-log";
import { FIRST_SHARD, isShardCode } from "../domain/shard-code";
import { writeRequestLogs } from "./log-store";

/**
 * Whether a delivery comes from the request-log queue: `request-logs` in wrangler.toml, or a name
 * that starts with it (`request-logs-staging`); the Worker's queue handler routes it here.
 */
export function isRequestLogQueue(name: string): boolean {
  return name.startsWith("request-logs");
}

/** Seconds before a failed delivery is tried again. */
const RETRY_DELAY_SECONDS = 10;

/** Whether a message's item is a record the recorder wrote (messages are not trusted blindly). */
function isRecord(item: unknown): item is RequestLogRecord {
  if (item === null || typeof item !== "object") return false;
  const r = item as Record<string, unknown>;
  return (
    RECORD_FIELDS.text.every((name) => typeof r[name] === "string") &&
    RECORD_FIELDS.optionalText.every((name) => r[name] === null || typeof r[name] === "string") &&
    RECORD_FIELDS.integer.every((name) => Number.isSafeInteger(r[name])) &&
    ENVIRONMENTS.includes(r.environment as never) &&
    typeof r.idempotent_replayed === "boolean"
  );
}

/** The records a message holds (a JSON array); those that are not records are dropped. */
function recordsOf(body: unknown): { records: RequestLogRecord[]; dropped: number } {
  let items: unknown;
  try {
    items = typeof body === "string" ? JSON.parse(body) : body;
  } catch {
    return { records: [], dropped: 1 };
  }
  if (!Array.isArray(items)) return { records: [], dropped: 1 };
  const records = items.filter(isRecord);
  return { records, dropped: items.length - records.length };
}

/** The records regrouped by the shard their partner lives on now (after any move). */
async function followMoves(
  shards: Shards,
  byShard: Map<string, RequestLogRecord[]>,
): Promise<Map<string, RequestLogRecord[]>> {
  const placed = new Map<string, RequestLogRecord[]>();
  const add = (shard: string, record: RequestLogRecord) => {
    const records = placed.get(shard);
    if (records) records.push(record);
    else placed.set(shard, [record]);
  };
  await Promise.all(
    [...byShard].map(async ([shard, records]) => {
      const moved = await movedPartners(
        shards,
        shard,
        records.map((r) => r.partner_id),
      );
      for (const record of records) add(moved.get(record.partner_id) ?? shard, record);
    }),
  );
  return placed;
}

/** Writes a delivery of request-log messages; the queue retries it whole if a write fails. */
export async function consumeRequestLogs(
  batch: MessageBatch<unknown>,
  env: Bindings,
): Promise<void> {
  const byShard = new Map<string, RequestLogRecord[]>();
  let dropped = 0;
  for (const message of batch.messages) {
    const read = recordsOf(message.body);
    dropped += read.dropped;
    for (const record of read.records) {
      const shard =
        typeof record.shard === "string" && isShardCode(record.shard) ? record.shard : FIRST_SHARD;
      const records = byShard.get(shard);
      if (records) records.push(record);
      else byShard.set(shard, [record]);
    }
  }
  if (dropped > 0) console.error(JSON.stringify({ request_log: "malformed records", dropped }));
  const shards = openShards(env, newQueryStats());
  const written = await Promise.allSettled(
    [...(await followMoves(shards, byShard))].map(([shard, records]) => {
      const db = shards.open(shard);
      if (!db) throw new Error(`no shard ${shard}`);
      return writeRequestLogs(db.$client, records);
    }),
  );
  const failed = written.filter((w) => w.status === "rejected");
  if (failed.length === 0) {
    batch.ackAll();
    return;
  }
  const attempts = Math.max(...batch.messages.map((m) => m.attempts));
  console.error(
    JSON.stringify({
      request_log: "write failed",
      messages: batch.messages.length,
      attempt: attempts,
      error: String((failed[0] as PromiseRejectedResult).reason),
    }),
  );
  batch.retryAll({ delaySeconds: RETRY_DELAY_SECONDS });
}
