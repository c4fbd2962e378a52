// What restarts deliveries by hand has a budget: a recovery leaves a delivery waiting for its
// retry alone, runs one at a time per endpoint, and with re-sends and enables is bounded per
// endpoint per hour (429 with Retry-After); a re-queue keeps the delivery's retry window and its
// attempts, which are capped. Through the real queue, with the receiver of
// test/support/webhook-receiver.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINT_BUDGET, MAX_DELIVERY_ATTEMPTS } from "../../src/webhook-endpoints";
import { api, expectJson } from "../support/api";
import { eventually } from "../support/eventually";
import {
  type Fixture,
  importData,
  monthlyStatement,
  seedAccount,
  uniqueId,
} from "../support/fixtures";
import { partnerDatabase } from "../support/shards";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

interface Endpoint {
  webhook_endpoint_id: string;
  status: string;
  health: { failure_streak: number; failing_since?: string };
}

interface Recovery {
  queued: number;
  has_more: boolean;
}

interface ErrorBody {
  error: { type: string; message: string; param?: string };
}

interface Delivery {
  status: string;
  attempts: number;
  generation: number;
  cycle_started_at: string;
}

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

async function createEndpoint(f: Fixture, path: string): Promise<string> {
  const created = await expectJson<Endpoint>(
    await api("/v2/webhook_endpoints", {
      key: f.key,
      method: "POST",
      body: { url: `${RECEIVER}${path}` },
    }),
    201,
  );
  return created.webhook_endpoint_id;
}

const anHourAgo = () => new Date(Date.now() - 3600_000).toISOString();

function recover(f: Fixture, id: string, since = anHourAgo()) {
  return api(`/v2/webhook_endpoints/${id}/recover`, {
    key: f.key,
    method: "POST",
    body: { since },
  });
}

function resend(f: Fixture, eventId: string, endpointId?: string) {
  return api(`/v2/events/${eventId}/resend`, {
    key: f.key,
    method: "POST",
    body: endpointId === undefined ? {} : { webhook_endpoint_id: endpointId },
  });
}

function enable(f: Fixture, id: string) {
  return api(`/v2/webhook_endpoints/${id}/enable`, { key: f.key, method: "POST" });
}

/** The product's events, oldest first. */
async function eventIds(f: Fixture): Promise<string[]> {
  const listed = await expectJson<{ data: { event_id: string }[] }>(
    await api("/v2/events?limit=100", { key: f.key }),
    200,
  );
  return listed.data.reverse().map((e) => e.event_id);
}

/** Runs one statement of the partner's shard. */
async function run(f: Fixture, query: string, ...values: unknown[]): Promise<void> {
  const db = await partnerDatabase(f.partnerId);
  await db
    .prepare(query)
    .bind(...values)
    .run();
}

async function delivery(f: Fixture, eventId: string, endpointId: string): Promise<Delivery> {
  const db = await partnerDatabase(f.partnerId);
  const row = await db
    .prepare(
      `SELECT status, attempts, generation, cycle_started_at FROM webhook_deliveries
        WHERE event_id = ? AND endpoint_id = ?`,
    )
    .bind(eventId, endpointId)
    .first<Delivery>();
  if (!row) throw new Error(`no delivery of ${eventId} to ${endpointId}`);
  return row;
}

/** The endpoints' deliveries. */
async function deliveryRows(f: Fixture, endpointIds: readonly string[]) {
  const db = await partnerDatabase(f.partnerId);
  const marks = endpointIds.map(() => "?").join(", ");
  const rows = await db
    .prepare(
      `SELECT event_id, endpoint_id, status, attempts FROM webhook_deliveries
        WHERE endpoint_id IN (${marks})`,
    )
    .bind(...endpointIds)
    .all<{ event_id: string; endpoint_id: string; status: string; attempts: number }>();
  return rows.results;
}

/** The endpoints' deliveries once none is pending any more. */
function settled(f: Fixture, endpointIds: readonly string[], ms = 30_000) {
  return eventually(
    () => deliveryRows(f, endpointIds),
    (rows) => rows.length > 0 && rows.every((row) => row.status !== "pending"),
    ms,
  );
}

/** Attempts recorded to the endpoints. */
async function attemptCount(f: Fixture, endpointIds: readonly string[]): Promise<number> {
  const db = await partnerDatabase(f.partnerId);
  const marks = endpointIds.map(() => "?").join(", ");
  const row = await db
    .prepare(`SELECT count(*) AS n FROM webhook_attempts WHERE endpoint_id IN (${marks})`)
    .bind(...endpointIds)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The 429 of a spent budget: Retry-After within the hour, and the policy named. */
async function expectBudgetSpent(res: Response, policy: string, limit: number): Promise<void> {
  const body = await expectJson<ErrorBody>(res, 429);
  expect(body.error.type).toBe("RATE_LIMITED_ERROR");
  const wait = Number(res.headers.get("retry-after"));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(3600);
  expect(res.headers.get("ratelimit-policy")).toBe(`"${policy}";q=${limit};w=3600`);
}

describe.concurrent("a recovery", { timeout: 60_000 }, () => {
  it("leaves a delivery waiting for its retry alone: it is not missed", async () => {
    const f = await seedAccount({ statements: 2 });
    const path = `/ok/${uniqueId("waiting")}`;
    const id = await createEndpoint(f, path);
    const [waiting, given] = (await eventIds(f)) as [string, string];
    // The events came before the endpoint: a re-send of each delivers them.
    for (const eventId of [waiting, given]) expect((await resend(f, eventId)).status).toBe(202);
    await receiver.waitFor(path, 2);
    await settled(f, [id]);
    // One waits for its next retry, an hour away, its message in the queue; one was given up.
    await run(
      f,
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 2, next_attempt_at = ?,
        completed_at = NULL WHERE event_id = ? AND endpoint_id = ?`,
      new Date(Date.now() + 3600_000).toISOString(),
      waiting,
      id,
    );
    await run(
      f,
      "UPDATE webhook_deliveries SET status = 'failed' WHERE event_id = ? AND endpoint_id = ?",
      given,
      id,
    );
    const before = await delivery(f, waiting, id);
    const answer = await expectJson<Recovery>(await recover(f, id), 202);
    expect(answer).toMatchObject({ queued: 1, has_more: false });
    // The one waiting keeps its cycle: same generation, same retry, nothing sent.
    expect(await delivery(f, waiting, id)).toEqual(before);
    const received = await receiver.waitFor(path, 3);
    expect(received.at(-1)?.headers["webhook-id"]).toBe(given);
  });

  it("runs one at a time per endpoint: a second answers 409 naming the running one", async () => {
    const f = await seedAccount({ statements: 30 });
    const path = `/ok/${uniqueId("running")}`;
    const id = await createEndpoint(f, path);
    const since = anHourAgo();
    const first = await expectJson<Recovery & { until: string }>(await recover(f, id, since), 202);
    expect(first.queued).toBe(30);
    // Its 30 deliveries take three seconds at 10 a second: it is running.
    const second = await recover(f, id, since);
    const refused = await expectJson<ErrorBody>(second, 409);
    expect(refused.error).toMatchObject({ type: "CONFLICT_ERROR", param: "webhook_endpoint_id" });
    expect(refused.error.message).toContain(`for events from ${since} until ${first.until}`);
    expect(refused.error.message).toMatch(/with \d+ deliver(y|ies) still to make/);
    // Once its deliveries are made, the next one runs (and finds nothing missed).
    await receiver.waitFor(path, 30);
    await settled(f, [id]);
    expect((await expectJson<Recovery>(await recover(f, id, since), 202)).queued).toBe(0);
  });

  it(`is bounded per endpoint: ${ENDPOINT_BUDGET.recover} an hour, then 429 with Retry-After`, async () => {
    const f = await seedAccount();
    const id = await createEndpoint(f, `/ok/${uniqueId("recoveries")}`);
    const other = await createEndpoint(f, `/ok/${uniqueId("recoveries")}`);
    for (let i = 0; i < ENDPOINT_BUDGET.recover; i++) {
      expect((await recover(f, id)).status).toBe(202);
    }
    await expectBudgetSpent(
      await recover(f, id),
      "webhook-endpoint-recoveries",
      ENDPOINT_BUDGET.recover,
    );
    // The budget is the endpoint's own.
    expect((await recover(f, other)).status).toBe(202);
  });
});

describe.concurrent("re-sends and enables", { timeout: 60_000 }, () => {
  it(`are bounded per endpoint: ${ENDPOINT_BUDGET.resend} re-sends an hour, then 429 for nothing`, async () => {
    const f = await seedAccount({ statements: 1 });
    const path = `/ok/${uniqueId("resends")}`;
    const id = await createEndpoint(f, path);
    const other = await createEndpoint(f, `/ok/${uniqueId("resends")}`);
    const [eventId] = (await eventIds(f)) as [string];
    for (let i = 0; i < ENDPOINT_BUDGET.resend; i++) {
      expect((await resend(f, eventId, id)).status).toBe(202);
    }
    await expectBudgetSpent(
      await resend(f, eventId, id),
      "webhook-endpoint-resends",
      ENDPOINT_BUDGET.resend,
    );
    // To every endpoint: one of them has no re-send left, so none is queued.
    const before = await delivery(f, eventId, id);
    const toAll = await resend(f, eventId);
    expect((await expectJson<ErrorBody>(toAll, 429)).error.message).toContain(id);
    expect(await delivery(f, eventId, other).catch(() => null)).toBeNull();
    expect((await delivery(f, eventId, id)).generation).toBe(before.generation);
    // The other endpoint's budget is its own.
    expect((await resend(f, eventId, other)).status).toBe(202);
  });

  it(`are bounded per endpoint: ${ENDPOINT_BUDGET.enable} enables an hour, then 429`, async () => {
    const f = await seedAccount();
    const id = await createEndpoint(f, `/ok/${uniqueId("enables")}`);
    const disable = () =>
      run(
        f,
        `UPDATE webhook_endpoints SET status = 'disabled', disabled_at = ?,
          disabled_reason = 'Every delivery attempt failed for too long.' WHERE endpoint_id = ?`,
        new Date().toISOString(),
        id,
      );
    for (let i = 0; i < ENDPOINT_BUDGET.enable; i++) {
      await disable();
      expect((await expectJson<Endpoint>(await enable(f, id), 200)).status).toBe("enabled");
    }
    await disable();
    await expectBudgetSpent(
      await enable(f, id),
      "webhook-endpoint-enables",
      ENDPOINT_BUDGET.enable,
    );
    const read = await api(`/v2/webhook_endpoints/${id}`, { key: f.key });
    expect((await expectJson<Endpoint>(read, 200)).status).toBe("disabled");
  });

  it("enabling an enabled endpoint keeps its run of failures, and spends nothing", async () => {
    const f = await seedAccount();
    const id = await createEndpoint(f, `/ok/${uniqueId("enabled")}`);
    const failingSince = new Date(Date.now() - 60_000).toISOString();
    await run(
      f,
      "UPDATE webhook_endpoints SET failing_since = ?, failure_streak = 7 WHERE endpoint_id = ?",
      failingSince,
      id,
    );
    for (let i = 0; i <= ENDPOINT_BUDGET.enable; i++) {
      const enabled = await expectJson<Endpoint>(await enable(f, id), 200);
      expect(enabled.health).toMatchObject({ failure_streak: 7, failing_since: failingSince });
    }
  });
});

describe.concurrent("a delivery queued again", { timeout: 60_000 }, () => {
  it("keeps its retry window and its attempts: one attempt once the window has closed", async () => {
    const f = await seedAccount({ statements: 1 });
    const path = `/always-500/${uniqueId("window")}`;
    const id = await createEndpoint(f, path);
    const [eventId] = (await eventIds(f)) as [string];
    // Given up a day ago after three attempts, in a window that began the day before.
    const began = new Date(Date.now() - 2 * 86_400_000).toISOString();
    await run(
      f,
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, status, generation, attempts,
        cycle_started_at, next_attempt_at, completed_at) VALUES (?, ?, 'failed', 0, 3, ?, ?, ?)`,
      eventId,
      id,
      began,
      began,
      began,
    );
    expect((await resend(f, eventId, id)).status).toBe(202);
    await receiver.waitFor(path, 1);
    await settled(f, [id]);
    // Give any retry of a restarted window its chance to show.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await delivery(f, eventId, id)).toEqual({
      status: "failed",
      attempts: 4,
      generation: 1,
      cycle_started_at: began,
    });
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(1);
  });

  it(`is attempted ${MAX_DELIVERY_ATTEMPTS} times at most, then neither re-sent nor recovered`, async () => {
    const f = await seedAccount({ statements: 1 });
    const path = `/always-500/${uniqueId("capped")}`;
    const id = await createEndpoint(f, path);
    const [eventId] = (await eventIds(f)) as [string];
    const began = new Date(Date.now() - 2 * 86_400_000).toISOString();
    await run(
      f,
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, status, generation, attempts,
        cycle_started_at, next_attempt_at, completed_at) VALUES (?, ?, 'failed', 0, ?, ?, ?, ?)`,
      eventId,
      id,
      MAX_DELIVERY_ATTEMPTS - 1,
      began,
      began,
      began,
    );
    // Its last attempt.
    expect((await resend(f, eventId, id)).status).toBe(202);
    await receiver.waitFor(path, 1);
    await settled(f, [id]);
    expect((await delivery(f, eventId, id)).attempts).toBe(MAX_DELIVERY_ATTEMPTS);
    // Then no more: to it, 409; to every endpoint, queued to none; a recovery, nothing.
    const refused = await expectJson<ErrorBody>(await resend(f, eventId, id), 409);
    expect(refused.error).toMatchObject({ type: "CONFLICT_ERROR", param: "webhook_endpoint_id" });
    const toAll = await expectJson<{ webhook_endpoint_ids: string[] }>(
      await resend(f, eventId),
      202,
    );
    expect(toAll.webhook_endpoint_ids).toEqual([]);
    expect((await expectJson<Recovery>(await recover(f, id), 202)).queued).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(1);
    expect((await delivery(f, eventId, id)).attempts).toBe(MAX_DELIVERY_ATTEMPTS);
  });
});

describe("sixteen endpoints on one host that answers 500", { timeout: 180_000 }, () => {
  it("keep a bounded number of attempts however often they are recovered, re-sent and enabled", async () => {
    const f = await seedAccount();
    const path = `/always-500/${uniqueId("one-host")}`;
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) ids.push(await createEndpoint(f, path));
    await importData({ statements: [1, 2].map((m) => monthlyStatement(f.accountId, m)) });
    const events = await eventIds(f);
    expect(events).toHaveLength(2);
    // Every delivery fails until its window closes and its endpoint is disabled.
    await settled(f, ids);
    const first = await attemptCount(f, ids);

    // Round after round, every endpoint is enabled, recovered and re-sent each event.
    let requeued = 0;
    const statuses = { enable: [] as number[], recover: [] as number[], resend: [] as number[] };
    const recovered = new Map<string, number>();
    for (let round = 0; round < 10; round++) {
      for (const id of ids) {
        statuses.enable.push((await enable(f, id)).status);
        const recovery = await recover(f, id);
        statuses.recover.push(recovery.status);
        if (recovery.status === 202) {
          requeued += (await recovery.json<Recovery>()).queued;
          recovered.set(id, (recovered.get(id) ?? 0) + 1);
        }
        for (const eventId of events) {
          const resent = await resend(f, eventId, id);
          statuses.resend.push(resent.status);
          if (resent.status === 202) requeued += 1;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const atEnd = await attemptCount(f, ids);
    const pendingAtEnd = (await deliveryRows(f, ids)).filter((r) => r.status === "pending").length;
    const rows = await settled(f, ids, 60_000);
    // Give any retry of a restarted window its chance to show.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const later = await attemptCount(f, ids);

    // Each re-queue of a given-up delivery gets one attempt: its window is not restarted, so
    // what was still queued when the calls stopped gets one attempt each, and then nothing.
    expect(later - atEnd).toBeLessThanOrEqual(pendingAtEnd);
    expect(later - first).toBeLessThanOrEqual(requeued);
    expect(rows.every((row) => row.attempts <= MAX_DELIVERY_ATTEMPTS)).toBe(true);
    // What was refused was refused as the budget says: a running recovery (409), a spent budget
    // (429), a disabled endpoint's re-send (400); never a 5xx.
    const all = [...statuses.enable, ...statuses.recover, ...statuses.resend];
    expect(all.every((status) => [200, 202, 400, 409, 429].includes(status))).toBe(true);
    // Ten rounds, but no endpoint got more recoveries than its hour's budget.
    for (const count of recovered.values()) {
      expect(count).toBeLessThanOrEqual(ENDPOINT_BUDGET.recover);
    }
  });
});
