// What keeps webhook delivery whole over time: the five-minute sweep re-sends deliveries whose
// queue message was lost and purges old events and idempotency keys; the retry schedule spans the
// whole window; a disabled endpoint's notice reaches the partner's Admins.
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { MAX_DELAY_SECONDS, nextRetryDelay } from "../../src/domain/retry-schedule";
import worker from "../../src/index";
import type { Mailer, OutgoingMail } from "../../src/mail/mailer";
import { webhookConsumer } from "../../src/webhook-deliveries/deliver";
import type { DeliveryRef } from "../../src/webhook-deliveries/event-writes";
import { DISABLED } from "../../src/webhook-endpoints/endpoint-health";
import { notifyEndpointHealth } from "../../src/webhook-endpoints/health-notice";
import { api, expectJson } from "../support/api";
import { seedTeam } from "../support/dashboard";
import { importData, monthlyStatement, seedAccount, uniqueId } from "../support/fixtures";
import {
  countOnEveryShard,
  otherShard,
  partnerDatabase,
  shardDatabase,
  shardOf,
} from "../support/shards";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

function runCron(at: Date) {
  return worker.scheduled(
    createScheduledController({ scheduledTime: at, cron: "*/5 * * * *" }),
    env,
  );
}

describe("the maintenance cron", () => {
  it("re-sends a delivery whose queue message was lost", { timeout: 20_000 }, async () => {
    const f = await seedAccount();
    const path = `/ok/${uniqueId("lost")}`;
    await api("/v2/webhook_endpoints", {
      key: f.key,
      method: "POST",
      body: { url: `${RECEIVER}${path}` },
    });
    await importData({ statements: [monthlyStatement(f.accountId, 1)] });
    const [first] = await receiver.waitFor(path, 1);
    const eventId = first?.headers["webhook-id"] as string;
    // As if the change had committed but its message never reached the queue: pending and
    // overdue. Only overdue deliveries are touched: a fresh one is left to its message.
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000).toISOString();
    const db = await partnerDatabase(f.partnerId);
    await db
      .prepare(
        "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE event_id = ?",
      )
      .bind(tenMinutesAgo, eventId)
      .run();
    await runCron(new Date());
    const both = await receiver.waitFor(path, 2);
    expect(both.map((d) => d.headers["webhook-id"])).toEqual([eventId, eventId]);
    const row = await db
      .prepare("SELECT status FROM webhook_deliveries WHERE event_id = ?")
      .bind(eventId)
      .first<{ status: string }>();
    expect(row?.status).toBe("succeeded");
  });

  it("purges events older than 30 days with their deliveries, and expired idempotency keys", async () => {
    const f = await seedAccount({ statements: 2 });
    const statementId = `${f.accountId}_st_001`;
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    // Backdate one statement's event, as if it had been made 31 days ago.
    const db = await partnerDatabase(f.partnerId);
    await db
      .prepare("UPDATE events SET created_at = ? WHERE statement_id = ?")
      .bind(old, statementId)
      .run();
    await db
      .prepare(
        `INSERT INTO idempotency_keys (key_hash, fingerprint, state, created_at, expires_at)
       VALUES (?, 'f', 'completed', ?, ?)`,
      )
      .bind(uniqueId("expired"), old, old)
      .run();
    await runCron(new Date());
    const left = await db
      .prepare("SELECT statement_id FROM events WHERE statement_id IN (?, ?)")
      .bind(statementId, `${f.accountId}_st_002`)
      .all<{ statement_id: string }>();
    expect(left.results.map((r) => r.statement_id)).toEqual([`${f.accountId}_st_002`]);
    const expired = await countOnEveryShard(
      "SELECT count(*) AS n FROM idempotency_keys WHERE expires_at < ?",
      new Date().toISOString(),
    );
    expect(expired).toBe(0);
    const listed = await expectJson<{ data: unknown[] }>(
      await api("/v2/events", { key: f.key }),
      200,
    );
    expect(listed.data).toHaveLength(1);
  });
});

describe("the maintenance cron's other purges", () => {
  it("drains expired idempotency keys past one batch, and ended sessions and sign-in links", async () => {
    const team = await seedTeam();
    const old = new Date(Date.now() - 2 * 86_400_000).toISOString();
    // More expired keys than one purge batch holds (500), and no event to purge with them.
    const db = await partnerDatabase(team.partnerId);
    await db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
       INSERT INTO idempotency_keys (key_hash, fingerprint, state, created_at, expires_at)
       SELECT ? || i, 'f', 'completed', ?, ? FROM n`,
      )
      .bind(uniqueId("expired"), old, old)
      .run();
    // The Developer's sessions idle for two days; a sign-in link of the Admin's long expired.
    await db
      .prepare("UPDATE sessions SET last_seen_at = ? WHERE user_id = ?")
      .bind(old, team.developerId)
      .run();
    const link = uniqueId("link");
    await db
      .prepare(
        "INSERT INTO sign_in_tokens (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
      )
      .bind(link, team.adminId, old, old)
      .run();

    await runCron(new Date());
    const count = (sql: string, ...values: unknown[]) =>
      db
        .prepare(sql)
        .bind(...values)
        .first<{ n: number }>()
        .then((r) => r?.n);
    const now = new Date().toISOString();
    expect(
      await count("SELECT count(*) AS n FROM idempotency_keys WHERE expires_at < ?", now),
    ).toBe(0);
    expect(
      await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", team.developerId),
    ).toBe(0);
    expect(await count("SELECT count(*) AS n FROM sign_in_tokens WHERE token_hash = ?", link)).toBe(
      0,
    );
    // The Admin's live session is untouched.
    expect((await team.admin.get("/dashboard/sandbox/keys")).status).toBe(200);
    expect((await team.developer.get("/dashboard/sandbox/keys")).status).not.toBe(200);
  });
});

describe("the delivery consumer", () => {
  const message = (body: DeliveryRef) =>
    createMessageBatch("webhook-deliveries", [
      { id: uniqueId("m"), timestamp: new Date(), attempts: 1, body },
    ]);

  it("waits while the partner moves, spending no attempt, and drops a message whose partner exists nowhere", async () => {
    const f = await seedAccount();
    const shard = await shardOf(f.partnerId);
    const db = shardDatabase(shard);
    const ref = {
      event_id: uniqueId("evt"),
      endpoint_id: uniqueId("we"),
      generation: 0,
      partner_id: f.partnerId,
      shard,
    };
    const setMoving = (to: string | null) =>
      db
        .prepare("UPDATE partners SET moving_to = ? WHERE partner_id = ?")
        .bind(to, f.partnerId)
        .run();
    await setMoving(otherShard(shard));
    try {
      const moving = message(ref);
      // Sent again for later (MOVE_DEFER_SECONDS), as a fresh message: a long move spends none
      // of the delivery's attempts.
      const sentAgain: { body: unknown; delaySeconds?: number }[] = [];
      const queue = {
        sendBatch: async (messages: { body: unknown; delaySeconds?: number }[]) => {
          sentAgain.push(...messages.map(({ body, delaySeconds }) => ({ body, delaySeconds })));
        },
      };
      await webhookConsumer(bundle)(moving as MessageBatch<DeliveryRef>, {
        ...env,
        WEBHOOK_DELIVERIES: queue as unknown as Queue,
      });
      expect(sentAgain).toEqual([{ body: ref, delaySeconds: Number(env.MOVE_DEFER_SECONDS) }]);
      const waited = await getQueueResult(moving, createExecutionContext());
      expect(waited.explicitAcks).toEqual([moving.messages[0]?.id]);
      expect(waited.retryMessages).toEqual([]);
    } finally {
      await setMoving(null);
    }

    const unknown = message({ ...ref, partner_id: uniqueId("nobody") });
    await webhookConsumer(bundle)(unknown as MessageBatch<DeliveryRef>, env);
    const dropped = await getQueueResult(unknown, createExecutionContext());
    expect(dropped.explicitAcks).toEqual([unknown.messages[0]?.id]);
    expect(dropped.retryMessages).toEqual([]);
  });
});

describe("the retry schedule", () => {
  it("spans at least three days in waits of at most 12 hours, with jitter", () => {
    const policy = { baseSeconds: 30, windowSeconds: 3 * 86_400 };
    for (const random of [0, 0.5, 0.999]) {
      let elapsed = 0;
      let attempts = 1;
      const waits: number[] = [];
      for (;;) {
        const wait = nextRetryDelay(policy, attempts, elapsed, () => random);
        if (wait === null) break;
        waits.push(wait);
        elapsed += wait;
        attempts += 1;
      }
      expect(elapsed).toBeGreaterThanOrEqual(policy.windowSeconds);
      expect(Math.max(...waits)).toBeLessThanOrEqual(MAX_DELAY_SECONDS);
      // Doubling until the cap: each wait at least the previous one.
      for (let i = 1; i < waits.length; i++) {
        expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1] as number);
      }
      expect(attempts).toBeLessThan(100); // within the queue's max_retries
    }
    // Jitter: the same failure waits a different time for different draws.
    expect(nextRetryDelay(policy, 4, 0, () => 0)).toBe(120);
    expect(nextRetryDelay(policy, 4, 0, () => 0.999)).toBe(240);
  });
});

describe("the disabled-endpoint notice", () => {
  it("is sent by the consumer when the endpoint's failures pass the disable window", async () => {
    // An event made before the endpoint existed, so no queue message races this one.
    const f = await seedAccount({ statements: 1 });
    const event = (
      await expectJson<{ data: { event_id: string }[] }>(
        await api("/v2/events", { key: f.key }),
        200,
      )
    ).data[0]?.event_id as string;
    const path = `/always-500/${uniqueId("notice")}`;
    const endpoint = await expectJson<{ webhook_endpoint_id: string }>(
      await api("/v2/webhook_endpoints", {
        key: f.key,
        method: "POST",
        body: { url: `${RECEIVER}${path}` },
      }),
      201,
    );
    const id = endpoint.webhook_endpoint_id;
    const now = new Date().toISOString();
    // Failing for a day already (the test window is 5 s), and one delivery due now.
    const shard = await shardOf(f.partnerId);
    const db = shardDatabase(shard);
    await db.batch([
      db
        .prepare("UPDATE webhook_endpoints SET failing_since = ? WHERE endpoint_id = ?")
        .bind(new Date(Date.now() - 86_400_000).toISOString(), id),
      db
        .prepare(
          `INSERT INTO webhook_deliveries (event_id, endpoint_id, status, generation, attempts,
           cycle_started_at, next_attempt_at) VALUES (?, ?, 'pending', 0, 0, ?, ?)`,
        )
        .bind(event, id, now, now),
    ]);
    const sent: OutgoingMail[] = [];
    const consumer = webhookConsumer(bundle, () => ({
      mailer: {
        async send(mail) {
          sent.push(mail);
        },
      },
      adminEmailsOf: async (partnerId) =>
        partnerId === f.partnerId ? ["admin@partner.example"] : [],
    }));
    const batch = createMessageBatch("webhook-deliveries", [
      {
        id: "m1",
        timestamp: new Date(),
        attempts: 1,
        body: { event_id: event, endpoint_id: id, generation: 0, partner_id: f.partnerId, shard },
      },
    ]);
    await consumer(batch as MessageBatch<DeliveryRef>, env);
    expect(sent.map((m) => m.to)).toEqual(["admin@partner.example"]);
    expect(sent[0]?.text).toContain(id);
    const read = await expectJson<{ status: string }>(
      await api(`/v2/webhook_endpoints/${id}`, { key: f.key }),
      200,
    );
    expect(read.status).toBe("disabled");
    // Disabled, it gets no attempt when its delivery falls due again, and nobody is told twice.
    await db
      .prepare("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE endpoint_id = ?")
      .bind(new Date().toISOString(), id)
      .run();
    await consumer(batch as MessageBatch<DeliveryRef>, env);
    expect(sent).toHaveLength(1);
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(1);
    const attempts = await db
      .prepare("SELECT count(*) AS n FROM webhook_attempts WHERE endpoint_id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(attempts?.n).toBe(1);
    const delivery = await db
      .prepare("SELECT status FROM webhook_deliveries WHERE endpoint_id = ?")
      .bind(id)
      .first<{ status: string }>();
    expect(delivery?.status).toBe("failed");
  });

  it("mails each of the partner's Admins once, naming the endpoint and what to do", async () => {
    const sent: OutgoingMail[] = [];
    const mailer: Mailer = {
      async send(mail) {
        sent.push(mail);
      },
    };
    const told = await notifyEndpointHealth(
      {
        mailer,
        adminEmailsOf: async (partnerId) =>
          partnerId === "acme" ? ["ops@acme.example", "cto@acme.example", "ops@acme.example"] : [],
      },
      {
        stage: DISABLED,
        partnerId: "acme",
        environment: "production",
        endpointId: "we_123",
        url: "https://hooks.acme.example/statements",
        apiOrigin: "https://api.acme-cards.example",
        failingSince: "2026-11-20T10:00:00.000Z",
        failureStreak: 21,
        disabledAt: "2026-11-23T10:00:00.000Z",
      },
      {
        disableAfterSeconds: 259_200,
        disableWarningSeconds: 86_400,
        failingNoticeAfterSeconds: 3600,
      },
    );
    expect(told).toBe(2);
    expect(sent.map((m) => m.to)).toEqual(["ops@acme.example", "cto@acme.example"]);
    expect(sent[0]?.subject).toBe(
      "Webhook endpoint disabled (production): https://hooks.acme.example/statements",
    );
    expect(sent[0]?.text).toContain("since 2026-11-20T10:00:00.000Z");
    expect(sent[0]?.text).toContain("POST /v2/webhook_endpoints/we_123/enable");
    expect(sent[0]?.text).toContain(
      'POST /v2/webhook_endpoints/we_123/recover {"since":"2026-11-20T10:00:00.000Z"}',
    );
    expect(sent[0]?.text).toContain(
      "https://api.acme-cards.example/dashboard/production/webhooks/we_123",
    );
  });
});
