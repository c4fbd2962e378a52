// The request-log consumer beside a partner move: the records of everyone else on the shard are
// written at once, the moving partner's are sent again for later (no attempt spent), a write the
// move's fence refuses all the same is tried partner by partner, and only the messages holding a
// failed shard's records are retried.
import { createExecutionContext, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RequestLogRecord } from "../../src/domain/request-log";
import { consumeRequestLogs } from "../../src/request-logs/consumer";
import { expectJson, operator } from "../support/api";
import { seedAccount, uniqueId } from "../support/fixtures";
import { delivery, logRecord, storedRequests } from "../support/request-logs";
import { SHARDS, shardDatabase, unreachableD1 } from "../support/shards";

/** A request-log queue that keeps what is sent to it, with each message's delay. */
function capturingQueue() {
  const sent: { records: RequestLogRecord[]; delaySeconds: number | undefined }[] = [];
  const queue = {
    async sendBatch(messages: { body: string; delaySeconds?: number }[]) {
      for (const m of messages) {
        sent.push({ records: JSON.parse(m.body), delaySeconds: m.delaySeconds });
      }
    },
  } as unknown as Queue;
  return { queue, sent };
}

const setMovingTo = (shard: string, partnerId: string, to: string | null) =>
  shardDatabase(shard)
    .prepare("UPDATE partners SET moving_to = ? WHERE partner_id = ?")
    .bind(to, partnerId)
    .run();

describe("the request-log consumer while a partner moves", () => {
  it("writes the neighbours' records at once and sends the moving partner's again for later", async () => {
    const [from, to] = SHARDS as [string, string];
    const moving = await seedAccount({ shard: from });
    const neighbour = await seedAccount({ shard: from });
    const theirs = logRecord(moving.partnerId, new Date(), { shard: from });
    const ours = logRecord(neighbour.partnerId, new Date(), { shard: from });
    const { queue, sent } = capturingQueue();
    await setMovingTo(from, moving.partnerId, to);
    try {
      const batch = delivery([JSON.stringify([theirs, ours])]);
      await consumeRequestLogs(batch, { ...env, REQUEST_LOGS: queue });
      expect((await storedRequests(ours.request_id)).length).toBe(1);
      expect(await storedRequests(theirs.request_id)).toEqual([]);
      // The delivery is done; the moving partner's record travels on, delayed.
      const result = await getQueueResult(batch, createExecutionContext());
      expect(result.explicitAcks).toEqual(["m0"]);
      expect(result.retryMessages).toEqual([]);
      expect(sent).toEqual([{ records: [theirs], delaySeconds: Number(env.MOVE_DEFER_SECONDS) }]);
    } finally {
      await setMovingTo(from, moving.partnerId, null);
    }
    // Once the partner is no longer moving, the record sent again is written, once.
    await consumeRequestLogs(delivery([JSON.stringify(sent[0]?.records)]), env);
    await consumeRequestLogs(delivery([JSON.stringify(sent[0]?.records)]), env);
    expect((await storedRequests(theirs.request_id)).length).toBe(1);
  });

  it("tries partner by partner when a move's fence refuses the shard's batch", {
    timeout: 60_000,
  }, async () => {
    const [from, to] = SHARDS as [string, string];
    const moving = await seedAccount({ shard: from });
    const neighbour = await seedAccount({ shard: from });
    const path = `/partners/${moving.partnerId}/move`;
    // The move starts (frozen: its fence refuses the partner's writes) ...
    await expectJson(await operator("POST", path, { shard: to, max_rows: 1 }), 202);
    // ... after the consumer looked the partner up: its row does not say so yet.
    await setMovingTo(from, moving.partnerId, null);
    const theirs = logRecord(moving.partnerId, new Date(), { shard: from });
    const ours = logRecord(neighbour.partnerId, new Date(), { shard: from });
    const { queue, sent } = capturingQueue();
    try {
      const batch = delivery([JSON.stringify([theirs, ours])]);
      await consumeRequestLogs(batch, { ...env, REQUEST_LOGS: queue });
      expect((await storedRequests(ours.request_id)).length).toBe(1);
      expect(await storedRequests(theirs.request_id)).toEqual([]);
      const result = await getQueueResult(batch, createExecutionContext());
      expect(result.explicitAcks).toEqual(["m0"]);
      expect(sent.flatMap((m) => m.records)).toEqual([theirs]);
    } finally {
      await setMovingTo(from, moving.partnerId, to);
      // The move finishes; the record sent again lands on the partner's new shard.
      for (let calls = 0; calls < 100; calls++) {
        const res = await operator("POST", path, { shard: to });
        if ((await expectJson<{ phase: string }>(res, res.status)).phase === "switched") break;
      }
    }
    await consumeRequestLogs(delivery([JSON.stringify(sent[0]?.records)]), env);
    const [stored] = await storedRequests(theirs.request_id);
    expect(stored?.partner_id).toBe(moving.partnerId);
    const onTarget = await shardDatabase(to)
      .prepare("SELECT count(*) AS n FROM request_logs WHERE request_id = ?")
      .bind(theirs.request_id)
      .first<number>("n");
    expect(onTarget).toBe(1);
  });

  it("drops a moving partner's record older than the log keeps", async () => {
    const [from, to] = SHARDS as [string, string];
    const moving = await seedAccount({ shard: from });
    const old = logRecord(moving.partnerId, new Date(Date.now() - 31 * 86_400_000), {
      shard: from,
    });
    const { queue, sent } = capturingQueue();
    await setMovingTo(from, moving.partnerId, to);
    try {
      const batch = delivery([JSON.stringify([old])]);
      await consumeRequestLogs(batch, { ...env, REQUEST_LOGS: queue });
      const result = await getQueueResult(batch, createExecutionContext());
      expect(result.explicitAcks).toEqual(["m0"]);
      expect(sent).toEqual([]);
    } finally {
      await setMovingTo(from, moving.partnerId, null);
    }
  });

  it("retries only the messages holding a failed shard's records", async () => {
    const good = logRecord(uniqueId("partner"), new Date());
    // A shard code no database is bound as: its write fails.
    const stranded = logRecord(uniqueId("partner"), new Date(), { shard: "zz" });
    const batch = delivery([JSON.stringify([good]), JSON.stringify([stranded])]);
    await consumeRequestLogs(batch, env);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks).toEqual(["m0"]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["m1"]);
    expect((await storedRequests(good.request_id)).length).toBe(1);
  });

  it("writes the other shards' records while one shard cannot even be read", async () => {
    const [up, down] = SHARDS as [string, string];
    const good = logRecord(uniqueId("partner"), new Date(), { shard: up });
    const stranded = logRecord(uniqueId("partner"), new Date(), { shard: down });
    const batch = delivery([JSON.stringify([good]), JSON.stringify([stranded])]);
    await consumeRequestLogs(batch, { ...env, [`DB_${down}`]: unreachableD1() });
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks).toEqual(["m0"]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["m1"]);
    expect((await storedRequests(good.request_id)).length).toBe(1);
    expect(await storedRequests(stranded.request_id)).toEqual([]);
  });
});
