// What keeps webhook delivery whole over time: the five-minute sweep re-sends deliveries whose
// queue message was lost and purges old events and idempotency keys; the retry schedule spans the
// whole window; a disabled endpoint's notice reaches the partner's Admins.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mailer, OutgoingMail } from "../src/app/mailer";
import { notifyEndpointDisabled } from "../src/app/webhook-disabled-notice";
import { MAX_DELAY_SECONDS, nextRetryDelay } from "../src/domain/retry-schedule";
import worker from "../src/index";
import { api, expectJson, importData, monthlyStatement, seedAccount, uniqueId } from "./helpers";
import { RECEIVER, type Receiver, startReceiver } from "./webhook-receiver";

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
    await env.DB.prepare(
      "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE event_id = ?",
    )
      .bind(tenMinutesAgo, eventId)
      .run();
    await runCron(new Date());
    const both = await receiver.waitFor(path, 2);
    expect(both.map((d) => d.headers["webhook-id"])).toEqual([eventId, eventId]);
    const row = await env.DB.prepare("SELECT status FROM webhook_deliveries WHERE event_id = ?")
      .bind(eventId)
      .first<{ status: string }>();
    expect(row?.status).toBe("succeeded");
  });

  it("purges events older than 30 days with their deliveries, and expired idempotency keys", async () => {
    const f = await seedAccount({ statements: 2 });
    const statementId = `${f.accountId}_st_001`;
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    // Backdate one statement's event, as if it had been made 31 days ago.
    await env.DB.prepare("UPDATE events SET created_at = ? WHERE statement_id = ?")
      .bind(old, statementId)
      .run();
    await env.DB.prepare(
      `INSERT INTO idempotency_keys (key_hash, fingerprint, state, created_at, expires_at)
       VALUES (?, 'f', 'completed', ?, ?)`,
    )
      .bind(uniqueId("expired"), old, old)
      .run();
    await runCron(new Date());
    const left = await env.DB.prepare(
      "SELECT statement_id FROM events WHERE statement_id IN (?, ?)",
    )
      .bind(statementId, `${f.accountId}_st_002`)
      .all<{ statement_id: string }>();
    expect(left.results.map((r) => r.statement_id)).toEqual([`${f.accountId}_st_002`]);
    const expired = await env.DB.prepare(
      "SELECT count(*) AS n FROM idempotency_keys WHERE expires_at < ?",
    )
      .bind(new Date().toISOString())
      .first<{ n: number }>();
    expect(expired?.n).toBe(0);
    const listed = await expectJson<{ data: unknown[] }>(
      await api("/v2/events", { key: f.key }),
      200,
    );
    expect(listed.data).toHaveLength(1);
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
  it("mails each of the partner's Admins once, naming the endpoint and what to do", async () => {
    const sent: OutgoingMail[] = [];
    const mailer: Mailer = {
      async send(mail) {
        sent.push(mail);
      },
    };
    const told = await notifyEndpointDisabled(
      {
        mailer,
        adminEmailsOf: async (partnerId) =>
          partnerId === "acme" ? ["ops@acme.example", "cto@acme.example", "ops@acme.example"] : [],
      },
      {
        partnerId: "acme",
        environment: "production",
        endpointId: "we_123",
        url: "https://hooks.acme.example/statements",
        failingSince: "2026-11-20T10:00:00.000Z",
        disabledAt: "2026-11-23T10:00:00.000Z",
      },
    );
    expect(told).toBe(2);
    expect(sent.map((m) => m.to)).toEqual(["ops@acme.example", "cto@acme.example"]);
    expect(sent[0]?.subject).toBe(
      "Webhook endpoint disabled (production): https://hooks.acme.example/statements",
    );
    expect(sent[0]?.text).toContain("since 2026-11-20T10:00:00.000Z");
    expect(sent[0]?.text).toContain("POST /v2/webhook_endpoints/we_123/enable");
  });
});
