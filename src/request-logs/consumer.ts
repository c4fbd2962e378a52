// The request-log queue's consumer: the records of a delivery's messages written into each
// partner's storage, one atomic D1 batch per database. A batch that fails is retried by the queue
// (after `max_retries` its records are lost, and a line says so); records written twice are
// stored and counted once (log-store.ts), so a retry after a partial success is harmless.
import type { Bindings } from "../app/context";
import { ENVIRONMENTS } from "../domain/environment";
import { RECORD_FIELDS, type RequestLogRecord } from "../domain/request-log";
import { logDatabaseOf, writeRequestLogs } from "./log-store";

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

/** Writes a delivery of request-log messages; the queue retries it whole if a write fails. */
export async function consumeRequestLogs(
  batch: MessageBatch<unknown>,
  env: Bindings,
): Promise<void> {
  const byDatabase = new Map<D1Database, RequestLogRecord[]>();
  let dropped = 0;
  for (const message of batch.messages) {
    const read = recordsOf(message.body);
    dropped += read.dropped;
    for (const record of read.records) {
      const database = logDatabaseOf(env, {
        partnerId: record.partner_id,
        environment: record.environment,
      });
      const records = byDatabase.get(database);
      if (records) records.push(record);
      else byDatabase.set(database, [record]);
    }
  }
  if (dropped > 0) console.error(JSON.stringify({ request_log: "malformed records", dropped }));
  const written = await Promise.allSettled(
    [...byDatabase].map(([database, records]) => writeRequestLogs(database, records)),
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
