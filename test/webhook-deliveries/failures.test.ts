// A failed delivery reads well: each attempt records a reason a partner can act on (never the
// runtime's internal reference), and its log line names the endpoint, the attempt and that reason.
// The receiver (test/webhook-receiver.ts) fails the way the runtime fails. That a local run logs
// exactly this one line per attempt, and no stack, is test/e2e/webhook-failures.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failedAttemptLine } from "../../src/webhook-deliveries/deliver";
import { connectionReason } from "../../src/webhook-deliveries/post-webhook";
import { api, expectJson } from "../support/api";
import { importData, monthlyStatement, seedAccount, uniqueId } from "../support/fixtures";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

interface Attempt {
  webhook_endpoint_id: string;
  status: string;
  response_status?: number;
  error?: string;
}

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

const HOST = new URL(RECEIVER).host;

describe.concurrent("a failed webhook delivery", { timeout: 30_000 }, () => {
  it.each([
    ["unresolvable", { status: "failed", error: `DNS lookup or TLS handshake failed for ${HOST}` }],
    [
      "refused",
      { status: "failed", error: `connection to ${HOST} refused or lost before an answer` },
    ],
    ["slow", { status: "timed_out", error: `no answer from ${HOST} within 1000 ms` }],
    ["always-500", { status: "failed", response_status: 500, error: "endpoint answered HTTP 500" }],
    [
      "cf-530",
      {
        status: "failed",
        response_status: 530,
        error: `DNS lookup failed for ${HOST} (HTTP 530, error 1016)`,
      },
    ],
    [
      "cf-521",
      {
        status: "failed",
        response_status: 521,
        error: `${HOST} refused the connection (HTTP 521)`,
      },
    ],
    [
      "cf-525",
      {
        status: "failed",
        response_status: 525,
        error: `TLS handshake with ${HOST} failed (HTTP 525)`,
      },
    ],
  ])(
    "to a %s endpoint is recorded with a readable reason on every attempt",
    async (kind, recorded) => {
      const f = await seedAccount();
      const path = `/${kind}/${uniqueId("hook")}`;
      const created = await api("/v2/webhook_endpoints", {
        key: f.key,
        method: "POST",
        body: { url: `${RECEIVER}${path}?token=receiver-secret` },
      });
      const endpoint = await expectJson<{ webhook_endpoint_id: string }>(created, 201);
      await importData({ statements: [monthlyStatement(f.accountId, 1)] });
      const [delivery] = await receiver.waitFor(path, 1);
      const eventId = delivery?.headers["webhook-id"] as string;
      expect(eventId).toMatch(/^evt_/);

      // Every attempt (the first retry comes a second or so later) says the same.
      let attempts: Attempt[] = [];
      const deadline = Date.now() + 15_000;
      while (attempts.length < 2 && Date.now() < deadline) {
        const res = await api(`/v2/events/${eventId}/delivery_attempts`, { key: f.key });
        attempts = (await expectJson<{ data: Attempt[] }>(res, 200)).data;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      for (const attempt of attempts) {
        expect(attempt).toMatchObject({
          ...recorded,
          webhook_endpoint_id: endpoint.webhook_endpoint_id,
        });
      }
      expect(JSON.stringify(attempts)).not.toMatch(/internal error|reference/);
    },
  );
});

describe("the log line of a failed attempt", () => {
  const ref = {
    event_id: "evt_1",
    endpoint_id: "we_1",
    generation: 1,
    partner_id: "p_1",
    shard: "00",
  };
  const outcome = {
    status: "failed" as const,
    durationMs: 3,
    responseStatus: null,
    error: "DNS lookup or TLS handshake failed for hooks.example.com",
  };

  it("names the endpoint, its URL without the query, the attempt, the reason and what is next", () => {
    const next = { status: "pending" as const, nextAttemptAt: "2026-11-26T11:00:30.000Z" };
    const line = failedAttemptLine(ref, `${RECEIVER}/hooks?token=secret#x`, 2, outcome, next);
    expect(line).not.toContain("\n");
    expect(JSON.parse(line)).toEqual({
      webhook_attempt: "failed",
      webhook_endpoint_id: "we_1",
      url: `${RECEIVER}/hooks`,
      event_id: "evt_1",
      attempt: 2,
      reason: "DNS lookup or TLS handshake failed for hooks.example.com",
      next_attempt_at: "2026-11-26T11:00:30.000Z",
    });
  });

  it("says when nothing follows", () => {
    const line = failedAttemptLine(ref, `${RECEIVER}/hooks`, 20, outcome, { status: "failed" });
    expect(JSON.parse(line)).toMatchObject({ attempt: 20, next_attempt_at: null });
  });
});

describe("the reason for a runtime error", () => {
  it.each([
    ["http://hooks.example.com/x", "DNS lookup failed for hooks.example.com"],
    ["https://127.0.0.1:8443/x", "TLS handshake with 127.0.0.1:8443 failed"],
    ["https://localhost:8443/x", "TLS handshake with localhost:8443 failed"],
    ["https://[::1]:8443/x", "TLS handshake with [::1]:8443 failed"],
    ["https://hooks.example.com/x", "DNS lookup or TLS handshake failed for hooks.example.com"],
  ])("tells from %s what the runtime's internal error can be", (url, reason) => {
    const thrown = new Error("internal error; reference = 5kq0test1reference2");
    expect(connectionReason(new URL(url), thrown)).toBe(reason);
  });

  it("keeps any other error's message, bounded", () => {
    const reason = connectionReason(
      new URL("https://hooks.example.com/x"),
      new Error("x".repeat(400)),
    );
    expect(reason.startsWith("could not connect to hooks.example.com: xxx")).toBe(true);
    expect(reason).toHaveLength(300);
  });
});
