// The five-minute maintenance while a partner is frozen by a move: every step passes over the
// frozen partner's rows (its fence refuses their deletes and updates) and does its work for every
// other partner of the shard, without failing; the frozen partner's expired rows go once the move
// is over, on its new shard.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runMaintenance } from "../../src/jobs";
import { consumeRequestLogs } from "../../src/request-logs/consumer";
import { api, expectJson, operator } from "../support/api";
import { type Fixture, seedAccount, uniqueId } from "../support/fixtures";
import { delivery, logRecord, storedRequests } from "../support/request-logs";
import { SHARDS, shardDatabase } from "../support/shards";
import { RECEIVER } from "../support/webhook-receiver";

afterEach(() => {
  vi.restoreAllMocks();
});

const DAY = 86_400_000;

/** Expired rows of the partner: a request 31 days old, an idempotency key past its window. */
async function expiredRowsOf(f: Fixture, shard: string) {
  const old = logRecord(f.partnerId, new Date(Date.now() - 31 * DAY), { shard });
  await consumeRequestLogs(delivery([JSON.stringify([old])]), env);
  const keyHash = uniqueId("idem");
  const past = new Date(Date.now() - 2 * DAY).toISOString();
  await shardDatabase(shard)
    .prepare(
      `INSERT INTO idempotency_keys (key_hash, partner_id, fingerprint, state, created_at,
       expires_at) VALUES (?, ?, 'f', 'completed', ?, ?)`,
    )
    .bind(keyHash, f.partnerId, past, past)
    .run();
  return { requestId: old.request_id, keyHash };
}

async function keyCount(keyHash: string): Promise<number> {
  let n = 0;
  for (const shard of SHARDS) {
    n +=
      (await shardDatabase(shard)
        .prepare("SELECT count(*) AS n FROM idempotency_keys WHERE key_hash = ?")
        .bind(keyHash)
        .first<number>("n")) ?? 0;
  }
  return n;
}

/** Runs the cron once; answers its log lines for `shard`. */
async function maintain(shard: string): Promise<string[]> {
  const lines: string[] = [];
  const keep = (line: unknown) => {
    if (typeof line === "string" && line.includes(`"shard":"${shard}"`)) lines.push(line);
  };
  vi.spyOn(console, "log").mockImplementation(keep);
  vi.spyOn(console, "error").mockImplementation(keep);
  await runMaintenance(
    createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }),
    env,
  );
  vi.restoreAllMocks();
  return lines;
}

describe("maintenance while a partner is frozen by a move", () => {
  it("passes over the frozen partner's rows and maintains everyone else's", {
    timeout: 60_000,
  }, async () => {
    const [from, to] = SHARDS as [string, string];
    const moving = await seedAccount({ shard: from });
    const neighbour = await seedAccount({ shard: from });
    const frozen = await expiredRowsOf(moving, from);
    const kept = await expiredRowsOf(neighbour, from);
    const path = `/partners/${moving.partnerId}/move`;
    await expectJson(await operator("POST", path, { shard: to, max_rows: 1 }), 202);

    const lines = await maintain(from);
    // No step failed on the shard: each did its work.
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("failed");
    const { shard, ...figures } = JSON.parse(lines[0] as string).maintenance as Record<
      string,
      unknown
    >;
    expect(shard).toBe(from);
    for (const [step, value] of Object.entries(figures)) expect(typeof value, step).toBe("number");
    // The neighbour's expired rows went; the frozen partner's wait.
    expect(await storedRequests(kept.requestId)).toEqual([]);
    expect(await keyCount(kept.keyHash)).toBe(0);
    expect((await storedRequests(frozen.requestId)).length).toBe(1);
    expect(await keyCount(frozen.keyHash)).toBe(1);

    // The move finishes (the old copy retired): the next run purges them on the new shard.
    for (let calls = 0; calls < 100; calls++) {
      const res = await operator("POST", path, { shard: to });
      if ((await expectJson<{ phase: string }>(res, res.status)).phase === "switched") break;
    }
    await env.DIRECTORY.prepare(
      "UPDATE partner_moves SET retire_after = ? WHERE partner_id = ? AND finished_at IS NULL",
    )
      .bind(new Date(Date.now() - 1000).toISOString(), moving.partnerId)
      .run();
    await expectJson(await operator("POST", path, { shard: to }), 200);
    await maintain(to);
    expect(await storedRequests(frozen.requestId)).toEqual([]);
    expect(await keyCount(frozen.keyHash)).toBe(0);
  });

  it("passes over a moved partner's old copy awaiting retirement: its failing endpoint waits", {
    timeout: 60_000,
  }, async () => {
    const [from, to] = SHARDS as [string, string];
    const moving = await seedAccount({ shard: from });
    const endpoint = await expectJson<{ webhook_endpoint_id: string }>(
      await api("/v2/webhook_endpoints", {
        key: moving.key,
        method: "POST",
        body: { url: `${RECEIVER}/retiring` },
      }),
      201,
    );
    // Failing for long enough to be disabled, so the health sweep has a change to write.
    await shardDatabase(from)
      .prepare("UPDATE webhook_endpoints SET failing_since = ? WHERE endpoint_id = ?")
      .bind(new Date(Date.now() - 30 * DAY).toISOString(), endpoint.webhook_endpoint_id)
      .run();
    const path = `/partners/${moving.partnerId}/move`;
    for (let calls = 0; calls < 100; calls++) {
      const res = await operator("POST", path, { shard: to });
      if ((await expectJson<{ phase: string }>(res, res.status)).phase === "switched") break;
    }

    // The old copy is fenced until it retires: no step of the source's run fails on it.
    const lines = await maintain(from);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("failed");
    expect(JSON.parse(lines[0] as string).maintenance.endpoint_health).toBe(0);
  });
});
