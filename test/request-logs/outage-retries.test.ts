// A shard's database down for minutes loses no request-log record: the queue retries the message
// holding it with a growing delay, within the consumer's `max_retries` (wrangler.toml), until the
// shard is back; the record is then written once, however often it arrives.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { consumeRequestLogs } from "../../src/request-logs/consumer";
import wranglerToml from "../../wrangler.toml?raw";
import { uniqueId } from "../support/fixtures";
import { logRecord, storedRequests } from "../support/request-logs";
import { SHARDS, unreachableD1 } from "../support/shards";

/** The `max_retries` of the consumer of `queue`, as wrangler.toml sets it. */
function maxRetriesOf(queue: string): number {
  const block = wranglerToml
    .split("[[queues.consumers]]")
    .find((part) => part.trimStart().startsWith(`queue = "${queue}"\n`));
  const retries = Number(/^max_retries = (\d+)$/m.exec(block ?? "")?.[1]);
  if (!Number.isSafeInteger(retries)) throw new Error(`no max_retries for ${queue}`);
  return retries;
}

/** What the consumer told the queue of a message: acknowledged, or retried after a delay. */
interface Told {
  acked: boolean;
  retriedAfter: number | null;
}

/**
 * One delivery of the message, as its `attempts`-th attempt, to a consumer on `bindings` (a
 * message of our own: the test pool's keeps no retry's delay).
 */
async function deliver(body: string, attempts: number, bindings: typeof env): Promise<Told> {
  const told: Told = { acked: false, retriedAfter: null };
  const message = {
    id: "m-outage",
    timestamp: new Date(),
    attempts,
    body,
    ack: () => {
      told.acked = true;
    },
    retry: (options?: { delaySeconds?: number }) => {
      told.retriedAfter = options?.delaySeconds ?? 0;
    },
  };
  // A batch of the one message: the consumer reads only its queue's name and its messages.
  const batch = { queue: "request-logs", messages: [message] } as unknown as MessageBatch<unknown>;
  await consumeRequestLogs(batch, bindings);
  return told;
}

describe("request-log records through a shard's outage", () => {
  for (const queue of ["request-logs", "request-logs-eu"]) {
    it(`are retried by ${queue} across half an hour of delays, then written once`, async () => {
      const down = SHARDS[1] as string;
      const record = logRecord(uniqueId("partner"), new Date(), { shard: down });
      const body = JSON.stringify([record]);
      const outage = { ...env, [`DB_${down}`]: unreachableD1() };
      // The queue gives a message `max_retries` retries: every attempt but the last may fail.
      const retries = maxRetriesOf(queue);
      let waited = 0;
      for (let attempts = 1; attempts <= retries; attempts++) {
        const told = await deliver(body, attempts, outage);
        expect(told.acked).toBe(false);
        expect(told.retriedAfter).toBeGreaterThan(0);
        waited += told.retriedAfter ?? 0;
      }
      // The retries span far more than a 60 s outage: an outage of minutes is outlasted.
      expect(waited).toBeGreaterThanOrEqual(30 * 60);
      expect(await storedRequests(record.request_id)).toEqual([]);

      // The shard is back for the last attempt: the record is written, and a copy of the message
      // delivered again leaves it written once.
      expect(await deliver(body, retries + 1, env)).toEqual({ acked: true, retriedAfter: null });
      await deliver(body, 1, env);
      const stored = await storedRequests(record.request_id);
      expect(stored.map((row) => row.request_id)).toEqual([record.request_id]);
    });
  }
});
