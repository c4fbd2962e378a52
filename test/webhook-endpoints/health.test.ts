// An endpoint's health on the clock the test drives: its recent success rate and failure streak
// (API and dashboard), and the three notices its Admins get through the outbox, each once per run
// of failures, at its moment: failing (after 1 s of failures in the test config), to be disabled
// (1 s before the 5 s window closes), disabled. Attempts are made by the queue consumer, the
// moments between attempts by the five-minute cron, both called directly at the instants chosen.
import { createMessageBatch, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { bundle } from "../../src/bundle";
import worker from "../../src/index";
import { webhookConsumer } from "../../src/webhook-deliveries/deliver";
import type { DeliveryRef } from "../../src/webhook-deliveries/event-writes";
import { api, expectJson } from "../support/api";
import { inviteByOperator, outboxFor, seedTeam } from "../support/dashboard";
import { createKey, importData, monthlyStatement, uniqueId } from "../support/fixtures";
import { shardDatabase, shardOf } from "../support/shards";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

interface Health {
  recent_attempts: number;
  recent_success_rate?: number;
  failure_streak: number;
  failing_since?: string;
  disables_at?: string;
}

interface Endpoint {
  webhook_endpoint_id: string;
  status: string;
  health: Health;
}

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());
afterEach(() => {
  vi.useRealTimers();
});

/** A partner with a team, a sandbox key, one statement's event, and an endpoint at `path`. */
async function endpointOfTeam(path: string) {
  const team = await seedTeam();
  const merchantKey = team.merchantKey as string;
  const customerId = uniqueId("cus");
  const accountId = uniqueId("acc");
  // The event exists before the endpoint: only the deliveries the test makes reach it.
  await importData({
    customers: [
      {
        customer_id: customerId,
        partner_id: team.partnerId,
        environment: "sandbox",
        merchant_key: merchantKey,
      },
    ],
    accounts: [{ account_id: accountId, customer_id: customerId, status: "OPEN" }],
    statements: [monthlyStatement(accountId, 1)],
  });
  const { apiKey: key } = await createKey(team.partnerId, "sandbox", ["ACCOUNT_READ"]);
  const events = await expectJson<{ data: { event_id: string }[] }>(
    await api("/v2/events", { key }),
    200,
  );
  const endpoint = await expectJson<Endpoint>(
    await api("/v2/webhook_endpoints", {
      key,
      method: "POST",
      body: { url: `${RECEIVER}${path}` },
    }),
    201,
  );
  const shard = await shardOf(team.partnerId);
  return {
    team,
    key,
    eventId: events.data[0]?.event_id as string,
    endpointId: endpoint.webhook_endpoint_id,
    shard,
  };
}

type Target = Awaited<ReturnType<typeof endpointOfTeam>>;

/** One attempt to deliver the event to the endpoint now (on the test's clock), by the consumer. */
async function attempt(target: Target, generation: number) {
  const now = new Date().toISOString();
  await shardDatabase(target.shard)
    .prepare(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, status, generation, attempts,
       cycle_started_at, next_attempt_at) VALUES (?, ?, 'pending', ?, 0, ?, ?)
     ON CONFLICT (event_id, endpoint_id) DO UPDATE SET status = 'pending',
       generation = excluded.generation, next_attempt_at = excluded.next_attempt_at,
       cycle_started_at = excluded.cycle_started_at, lease_until = NULL`,
    )
    .bind(target.eventId, target.endpointId, generation, now, now)
    .run();
  const ref: DeliveryRef = {
    event_id: target.eventId,
    endpoint_id: target.endpointId,
    generation,
    partner_id: target.team.partnerId,
    shard: target.shard,
  };
  const batch = createMessageBatch("webhook-deliveries", [
    { id: uniqueId("m"), timestamp: new Date(), attempts: 1, body: ref },
  ]);
  await webhookConsumer(bundle)(batch as MessageBatch<DeliveryRef>, env);
}

/** The five-minute cron, run at the test clock's instant. */
function runCron() {
  return worker.scheduled(
    createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }),
    env,
  );
}

async function healthOf(target: Target): Promise<Endpoint> {
  return expectJson<Endpoint>(
    await api(`/v2/webhook_endpoints/${target.endpointId}`, { key: target.key }),
    200,
  );
}

async function noticesTo(email: string): Promise<string[]> {
  return (await outboxFor(email))
    .filter((m) => m.subject.startsWith("Webhook endpoint"))
    .map((m) => m.subject);
}

describe("an endpoint's health", { timeout: 30_000 }, () => {
  it("mails its Admins when it starts failing, a day before the disable and when disabled, each once", async () => {
    const path = `/always-500/${uniqueId("sick")}`;
    const target = await endpointOfTeam(path);
    const admin = `${uniqueId("admin")}@partner.example`;
    await inviteByOperator(target.team.partnerId, admin, "Admin");
    const url = `${RECEIVER}${path}`;
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    const at = (ms: number) => vi.setSystemTime(start + ms);

    at(0);
    await attempt(target, 1);
    expect(await noticesTo(admin)).toEqual([]);
    const failing = await healthOf(target);
    expect(failing.health).toEqual({
      recent_attempts: 1,
      recent_success_rate: 0,
      failure_streak: 1,
      failing_since: new Date(start).toISOString(),
      disables_at: new Date(start + 5000).toISOString(),
    });

    // Not yet failing for 1 s: nothing. Then the cron finds it failing, and says so once.
    at(900);
    await runCron();
    expect(await noticesTo(admin)).toEqual([]);
    at(1100);
    await runCron();
    at(1500);
    await attempt(target, 2);
    await runCron();
    expect(await noticesTo(admin)).toEqual([`Webhook endpoint failing (sandbox): ${url}`]);
    expect((await healthOf(target)).health.failure_streak).toBe(2);

    // One second before the 5 s disable window closes: warned, once.
    at(3900);
    await runCron();
    expect(await noticesTo(admin)).toHaveLength(1);
    at(4100);
    await runCron();
    await runCron();
    expect(await noticesTo(admin)).toEqual([
      `Webhook endpoint failing (sandbox): ${url}`,
      `Webhook endpoint will be disabled in 1 second (sandbox): ${url}`,
    ]);

    // The window closes: disabled by the cron, with no attempt due, and told once.
    at(5100);
    await runCron();
    await runCron();
    const mail = (await outboxFor(admin)).filter((m) => m.subject.startsWith("Webhook endpoint"));
    expect(mail.map((m) => m.subject)).toEqual([
      `Webhook endpoint failing (sandbox): ${url}`,
      `Webhook endpoint will be disabled in 1 second (sandbox): ${url}`,
      `Webhook endpoint disabled (sandbox): ${url}`,
    ]);
    const since = new Date(start).toISOString();
    expect(mail[0]?.text).toContain(`every delivery to it has failed since ${since}`);
    expect(mail[0]?.text).toContain(
      `it will be disabled at ${new Date(start + 5000).toISOString()}`,
    );
    expect(mail[1]?.text).toContain(`will be disabled at\n${new Date(start + 5000).toISOString()}`);
    expect(mail[2]?.text).toContain(
      `POST /v2/webhook_endpoints/${target.endpointId}/recover {"since":"${since}"}`,
    );
    const page = `http://api.test/dashboard/sandbox/webhooks/${target.endpointId}`;
    for (const m of mail) expect(m.text).toContain(page);
    const disabled = await healthOf(target);
    expect(disabled.status).toBe("disabled");
    expect(disabled.health).not.toHaveProperty("disables_at");

    // Enabled again: a new run of failures, told again from its start.
    const enabled = await expectJson<Endpoint>(
      await api(`/v2/webhook_endpoints/${target.endpointId}/enable`, {
        key: target.key,
        method: "POST",
      }),
      200,
    );
    expect(enabled.health).toMatchObject({ failure_streak: 0 });
    expect(enabled.health).not.toHaveProperty("failing_since");
    at(10_000);
    await attempt(target, 3);
    at(11_500);
    await runCron();
    expect((await noticesTo(admin)).slice(3)).toEqual([
      `Webhook endpoint failing (sandbox): ${url}`,
    ]);
  });

  it("ends a run of failures with a success: its streak and notices start afresh", async () => {
    const path = `/fail-twice/${uniqueId("flaky")}`;
    const target = await endpointOfTeam(path);
    const admin = `${uniqueId("admin")}@partner.example`;
    await inviteByOperator(target.team.partnerId, admin, "Admin");
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    await attempt(target, 1);
    vi.setSystemTime(start + 1500);
    await attempt(target, 2);
    expect(await noticesTo(admin)).toHaveLength(1);
    expect((await healthOf(target)).health.failure_streak).toBe(2);
    vi.setSystemTime(start + 2000);
    await attempt(target, 3);
    const healthy = await healthOf(target);
    expect(healthy.health).toEqual({
      recent_attempts: 3,
      recent_success_rate: 0.3333,
      failure_streak: 0,
    });
    // Nothing further is sent for the run that ended.
    vi.setSystemTime(start + 4500);
    await runCron();
    expect(await noticesTo(admin)).toHaveLength(1);
  });

  it("shows its success rate and failure streak in the dashboard", async () => {
    const path = `/always-500/${uniqueId("shown")}`;
    const target = await endpointOfTeam(path);
    await attempt(target, 1);
    await attempt(target, 2);
    const list = await (await target.team.developer.get("/dashboard/sandbox/webhooks")).text();
    expect(list).toContain("0% of its last 2 attempts succeeded");
    expect(list).toContain("2 failed in a row");
    const page = await (
      await target.team.developer.get(`/dashboard/sandbox/webhooks/${target.endpointId}`)
    ).text();
    expect(page).toContain("2 failed attempts in a row");
    expect(page).toContain("if every attempt keeps failing");
    expect(page).toContain(`action="/dashboard/sandbox/webhooks/${target.endpointId}/recover"`);
  });
});
