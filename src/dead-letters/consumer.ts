// The dead-letter queues' consumer: every message that reaches one is stored on the shard of the
// partner whose work it is (the shard it names; a request-log message is split per partner, as
// its records name theirs), where the operator API lists and re-drives it. The same message
// delivered twice is stored once (its id is made from the message's own). A shard that cannot
// take it has the message retried; these queues have no dead-letter queue of their own. A message
// that names a shard this deployment does not bind is never filed on another shard, whose
// jurisdiction may not be its partner's: it is logged as an alert and retried, so it is stored
// once the binding is back, or dropped by the queue after its last retry, logged each time.
import type { Bindings } from "../app/context";
import { newQueryStats } from "../db/client";
import { openShards } from "../db/shards";
import { sha256Hex, toBase62 } from "../domain/encoding";
import { FIRST_SHARD, isShardCode } from "../domain/shard-code";
import type { DeadLetterQueue } from "./schema";
import { type DeadLetterRow, storeDeadLetters } from "./store";

/** Seconds before a message that could not be stored is tried again. */
const RETRY_DELAY_SECONDS = 60;

/**
 * The queue whose dead letters a dead-letter queue holds, by its name (wrangler.toml:
 * `request-log-dead-letters`, `statement-render-dead-letters`, `webhook-dead-letters`, or a name
 * that starts with one of them); null for a queue that is none of them.
 */
export function deadLetterQueueOf(name: string): DeadLetterQueue | null {
  if (name.startsWith("request-log-dead-letters")) return "request-logs";
  if (name.startsWith("statement-render-dead-letters")) return "statement-renders";
  if (name.startsWith("webhook-dead-letters")) return "webhook-deliveries";
  return null;
}

/** A dead letter's id: when it died, then 16 characters of the message's id and part. */
async function deadLetterId(message: Message<unknown>, part: string): Promise<string> {
  const hash = await sha256Hex(`${message.id}\n${part}`);
  // Two 44-bit slices of the hash, each below 62 ** 8.
  const suffix =
    toBase62(Number.parseInt(hash.slice(0, 11), 16), 8) +
    toBase62(Number.parseInt(hash.slice(11, 22), 16), 8);
  return `dl_${toBase62(Math.max(0, message.timestamp.getTime()), 9)}${suffix}`;
}

/** The shard a message names (messages sent before shards name none: the first shard). */
function shardNamed(value: unknown): string {
  return typeof value === "string" && isShardCode(value) ? value : FIRST_SHARD;
}

/** A partner id, when the value is one. */
function partnerNamed(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value.slice(0, 255) : null;
}

/** Where a message's body (or a record of it) says it belongs; anything else names nowhere. */
function placeOf(value: unknown): { shard?: unknown; partner_id?: unknown } {
  return typeof value === "object" && value !== null ? value : {};
}

/** What one message becomes: a row per shard and partner it concerns. */
async function rowsOf(
  queue: DeadLetterQueue,
  message: Message<unknown>,
  deadAt: string,
): Promise<{ shard: string; row: DeadLetterRow }[]> {
  const body = message.body;
  if (queue === "request-logs") {
    let items: unknown;
    try {
      items = typeof body === "string" ? JSON.parse(body) : body;
    } catch {
      items = null;
    }
    if (Array.isArray(items)) {
      // One row per partner, on the shard its records name.
      const groups = new Map<
        string,
        { shard: string; partnerId: string | null; items: unknown[] }
      >();
      for (const item of items) {
        const record = placeOf(item);
        const shard = shardNamed(record.shard);
        const partnerId = partnerNamed(record.partner_id);
        const key = `${shard} ${partnerId ?? ""}`;
        const group = groups.get(key) ?? { shard, partnerId, items: [] };
        group.items.push(item);
        groups.set(key, group);
      }
      return Promise.all(
        [...groups].map(async ([key, group]) => ({
          shard: group.shard,
          row: {
            deadLetterId: await deadLetterId(message, key),
            queue,
            partnerId: group.partnerId,
            body: JSON.stringify(group.items),
            deadAt,
          },
        })),
      );
    }
  }
  const ref = placeOf(body);
  return [
    {
      shard: shardNamed(ref.shard),
      row: {
        deadLetterId: await deadLetterId(message, ""),
        queue,
        partnerId: partnerNamed(ref.partner_id),
        body: typeof body === "string" ? body : JSON.stringify(body ?? null),
        deadAt,
      },
    },
  ];
}

/** Stores a delivery of a dead-letter queue (`queue`'s dead letters), shard by shard. */
export async function consumeDeadLetters(
  queue: DeadLetterQueue,
  batch: MessageBatch<unknown>,
  env: Bindings,
): Promise<void> {
  const shards = openShards(env, newQueryStats());
  const deadAt = new Date().toISOString();
  const placed = await Promise.all(
    batch.messages.map(async (message) => ({
      message,
      rows: await rowsOf(queue, message, deadAt),
    })),
  );
  const byShard = new Map<string, DeadLetterRow[]>();
  const failed = new Set<string>();
  for (const { message, rows } of placed) {
    for (const { shard, row } of rows) {
      if (!shards.open(shard)) {
        failed.add(shard);
        console.error(
          JSON.stringify({
            dead_letters: "unbound shard",
            alert: true,
            queue,
            shard,
            message_id: message.id,
            attempts: message.attempts,
          }),
        );
        continue;
      }
      byShard.set(shard, [...(byShard.get(shard) ?? []), row]);
    }
  }
  await Promise.all(
    [...byShard].map(async ([shard, rows]) => {
      try {
        const db = shards.open(shard);
        if (!db) throw new Error(`no shard ${shard}`);
        await storeDeadLetters(db, rows);
      } catch (err) {
        failed.add(shard);
        console.error(
          JSON.stringify({ dead_letters: "store failed", queue, shard, error: String(err) }),
        );
      }
    }),
  );
  for (const { message, rows } of placed) {
    const lost = rows.some(({ shard }) => failed.has(shard));
    if (lost) message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
    else message.ack();
  }
  console.warn(JSON.stringify({ dead_letters: "stored", queue, messages: batch.messages.length }));
}
