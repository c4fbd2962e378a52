// The request-log queue's consumer: the records of a delivery's messages written into each
// partner's storage, one atomic D1 batch per shard. Each record names its partner's shard; a
// partner that has moved since is followed to its new shard (one read per named shard per
// delivery). A delivery a write of which fails (a shard down, or not bound) is retried whole by
// the queue (after `max_retries` its records are lost, and a line says so); records written twice
// are stored and counted once (log-store.ts), so a retry after a partial success is harmless.
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

/** The items grouped by `keyOf`, each group in the items' order. */
function groupBy<T>(items: Iterable<T>, keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** The shard a record names (records queued before shards name none: the first shard). */
function shardNamed(record: RequestLogRecord): string {
  return typeof record.shard === "string" && isShardCode(record.shard) ? record.shard : FIRST_SHARD;
}

/**
 * The records grouped by the shard their partner lives on now: the shard each names, or the one
 * a partner has moved to since (one read of each named shard).
 */
async function byPartnerShard(
  shards: Shards,
  records: readonly RequestLogRecord[],
): Promise<Map<string, RequestLogRecord[]>> {
  // Where each record goes, decided once per named shard's group; the records keep their order.
  const destination = new Map<RequestLogRecord, string>();
  await Promise.all(
    [...groupBy(records, shardNamed)].map(async ([shard, group]) => {
      const partners = group.map((r) => r.partner_id);
      const moves = await movedPartners(shards, shard, partners);
      for (const record of group) destination.set(record, moves.get(record.partner_id) ?? shard);
    }),
  );
  // Every record was given one above.
  return groupBy(records, (record) => destination.get(record) as string);
}

/** Writes a delivery of request-log messages; the queue retries it whole if a write fails. */
export async function consumeRequestLogs(
  batch: MessageBatch<unknown>,
  env: Bindings,
): Promise<void> {
  const records: RequestLogRecord[] = [];
  let dropped = 0;
  for (const message of batch.messages) {
    const read = recordsOf(message.body);
    dropped += read.dropped;
    records.push(...read.records);
  }
  if (dropped > 0) console.error(JSON.stringify({ request_log: "malformed records", dropped }));
  const shards = openShards(env, newQueryStats());
  const written = await Promise.allSettled(
    [...(await byPartnerShard(shards, records))].map(async ([shard, records]) => {
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
