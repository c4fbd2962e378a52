// The request-log queue's consumer: the records of a delivery's messages written into each
// partner's storage, one atomic D1 batch per shard. Each record names its partner's shard; a
// partner that has moved since is followed to its new shard, and one that is being moved (its
// rows frozen by the move's fence until the switch) has its records sent again later, while
// everyone else's are written at once: one read per named shard per delivery says which. A write
// the fence refuses all the same (a move that started meanwhile) is tried again partner by
// partner, so that only the moving partner's records wait. A shard that fails otherwise (down, or
// not bound) has the messages holding its records retried by the queue, with a growing delay
// that spans an outage of minutes (after `max_retries` they go to the dead-letter queue, where the
// operator can re-drive them); records written twice are stored and counted once (log-store.ts),
// so a retry after a partial success is harmless.
import type { Bindings } from "../app/context";
import { moveDeferSeconds, sendAgainLater } from "../app/queue-deferral";
import { type Database, newQueryStats } from "../db/client";
import { requestLogQueueOf } from "../db/jurisdiction-stores";
import { openShards, partnerStates, type Shards } from "../db/shards";
import { isPartnerMoving } from "../db/storage";
import { ENVIRONMENTS } from "../domain/environment";
import {
  RECORD_FIELDS,
  REQUEST_LOG_RETENTION_MS,
  type RequestLogRecord,
} from "../domain/request-log";
import { FIRST_SHARD, isShardCode } from "../domain/shard-code";
import { writeRequestLogs } from "./log-store";
import { asMessages } from "./messages";

/**
 * Whether a delivery comes from the request-log queue: `request-logs` in wrangler.toml, or a name
 * that starts with it (`request-logs-staging`); the Worker's queue handler routes it here.
 */
export function isRequestLogQueue(name: string): boolean {
  return name.startsWith("request-logs");
}

/**
 * Seconds before a message whose write failed is tried again, after its `attempts`-th attempt:
 * 10 s, doubling per failure, at most five minutes. With the consumer's `max_retries` of 10
 * (wrangler.toml) the retries span about half an hour, so a shard down for minutes gets its
 * records once it is back instead of losing them to the dead-letter queue; a fixed 10 s gave up
 * after less than a minute.
 */
export function requestLogRetryDelay(attempts: number): number {
  return Math.min(10 * 2 ** Math.max(0, attempts - 1), 300);
}

/** Whether a message's item is a record the recorder wrote (messages are not trusted blindly). */
function isRecord(item: unknown): item is RequestLogRecord {
  if (item === null || typeof item !== "object") return false;
  // A copy, to read its own fields by name (`object` has no index signature).
  const r: Record<string, unknown> = { ...item };
  return (
    RECORD_FIELDS.text.every((name) => typeof r[name] === "string") &&
    RECORD_FIELDS.optionalText.every((name) => r[name] === null || typeof r[name] === "string") &&
    RECORD_FIELDS.integer.every((name) => Number.isSafeInteger(r[name])) &&
    ENVIRONMENTS.some((environment) => environment === r.environment) &&
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

/** The items grouped by `keyOf`, each group in the items' order; an item keyed null is left out. */
function groupBy<T>(items: Iterable<T>, keyOf: (item: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === null) continue;
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

/** Where a record goes: the shard its partner lives on now, or later, once its move switches. */
type Destination = { kind: "write"; shard: string } | { kind: "defer" };

/**
 * Where each record goes: the shard it names, or the one its partner has moved to since; later,
 * for a partner being moved (one read of each named shard). A named shard that cannot be read is
 * answered in `unreachable`: its records stay destined to it, and fail with it.
 */
async function destinations(
  shards: Shards,
  records: readonly RequestLogRecord[],
  unreachable: Map<string, unknown>,
): Promise<Map<RequestLogRecord, Destination>> {
  const destination = new Map<RequestLogRecord, Destination>();
  await Promise.all(
    [...groupBy(records, shardNamed)].map(async ([shard, group]) => {
      let states: Awaited<ReturnType<typeof partnerStates>> = new Map();
      try {
        states = await partnerStates(
          shards,
          shard,
          group.map((r) => r.partner_id),
        );
      } catch (err) {
        unreachable.set(shard, err);
      }
      for (const record of group) {
        const state = states.get(record.partner_id);
        destination.set(
          record,
          state?.movingTo ? { kind: "defer" } : { kind: "write", shard: state?.movedTo ?? shard },
        );
      }
    }),
  );
  return destination;
}

/**
 * Writes records into one shard, one batch; when a move's fence refuses it (a move started since
 * the records' partners were looked up), partner by partner. Answers the records the fence
 * refused: they wait for their partner's switch.
 */
async function writeShard(db: Database, records: RequestLogRecord[]): Promise<RequestLogRecord[]> {
  try {
    await writeRequestLogs(db.$client, records);
    return [];
  } catch (err) {
    if (!isPartnerMoving(err)) throw err;
  }
  const refused: RequestLogRecord[] = [];
  const written = await Promise.allSettled(
    [...groupBy(records, (r) => r.partner_id)].map(async ([, own]) => {
      try {
        await writeRequestLogs(db.$client, own);
      } catch (err) {
        if (!isPartnerMoving(err)) throw err;
        refused.push(...own);
      }
    }),
  );
  const failed = written.find((w): w is PromiseRejectedResult => w.status === "rejected");
  if (failed) throw failed.reason;
  return refused;
}

/** A message of the delivery with the records it holds. */
interface Held {
  message: Message<unknown>;
  records: RequestLogRecord[];
}

/**
 * Writes a delivery of request-log messages: every record it can at once; the records of a
 * partner being moved are sent again for later; the messages holding records of a shard that
 * failed are retried by the queue.
 */
export async function consumeRequestLogs(
  batch: MessageBatch<unknown>,
  env: Bindings,
): Promise<void> {
  const held: Held[] = [];
  let dropped = 0;
  for (const message of batch.messages) {
    const read = recordsOf(message.body);
    dropped += read.dropped;
    held.push({ message, records: read.records });
  }
  if (dropped > 0) console.error(JSON.stringify({ request_log: "malformed records", dropped }));
  const shards = openShards(env, newQueryStats());
  const records = held.flatMap((h) => h.records);
  // Everyone's records at once, one batch per shard; a shard that fails is remembered.
  const failedShards = new Map<string, unknown>();
  const destination = await destinations(shards, records, failedShards);
  const deferred = new Set<RequestLogRecord>();
  const byShard = groupBy(records, (r) => {
    const to = destination.get(r);
    if (to?.kind === "defer") deferred.add(r);
    return to?.kind === "write" ? to.shard : null;
  });
  await Promise.all(
    [...byShard].map(async ([shard, own]) => {
      if (failedShards.has(shard)) return;
      const db = shards.open(shard);
      try {
        if (!db) throw new Error(`no shard ${shard}`);
        for (const record of await writeShard(db, own)) deferred.add(record);
      } catch (err) {
        failedShards.set(shard, err);
      }
    }),
  );

  // A message holding a record of a failed shard is retried whole; the others are done, their
  // moving partners' records sent again for later (past the log's retention, dropped).
  const failed = (h: Held) =>
    h.records.some((r) => {
      const to = destination.get(r);
      return to?.kind === "write" && failedShards.has(to.shard) && !deferred.has(r);
    });
  const retried: Held[] = [];
  const done: Held[] = [];
  for (const h of held) (failed(h) ? retried : done).push(h);
  const wait = moveDeferSeconds(env);
  const oldest = Date.now() - REQUEST_LOG_RETENTION_MS;
  const later = done
    .flatMap((h) => h.records)
    .filter((r) => deferred.has(r) && Date.parse(r.at) >= oldest);
  // Back through the queue of the record's jurisdiction: a record never leaves it while it waits.
  let sent = true;
  for (const [shard, own] of groupBy(later, shardNamed)) {
    const queue = requestLogQueueOf(env, shard);
    sent =
      (await sendAgainLater(queue, asMessages(own.map((r) => JSON.stringify(r))), wait)) && sent;
  }
  if (later.length > 0 && sent) {
    console.log(JSON.stringify({ request_log: "deferred while moving", records: later.length }));
  }
  for (const h of done) {
    if (sent || !h.records.some((r) => deferred.has(r))) h.message.ack();
    else h.message.retry({ delaySeconds: wait });
  }
  if (retried.length > 0) {
    const [first] = failedShards.values();
    console.error(
      JSON.stringify({
        request_log: "write failed",
        messages: retried.length,
        shards: [...failedShards.keys()],
        attempt: Math.max(...retried.map((h) => h.message.attempts)),
        error: String(first),
      }),
    );
    for (const h of retried) {
      h.message.retry({ delaySeconds: requestLogRetryDelay(h.message.attempts) });
    }
  }
}
