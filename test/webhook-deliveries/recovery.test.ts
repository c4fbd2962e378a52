// Recovering an endpoint's missed events after an outage of its receiver, and the per-endpoint
// throttle everything goes through: each missed event of its types delivered once, in event order,
// at most WEBHOOK_MAX_PER_SECOND (10) attempts an endpoint a second, none dropped. Through the
// real queue, with the loopback receiver of test/support/webhook-receiver.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { eventually } from "../support/eventually";
import {
  type Fixture,
  importData,
  monthlyStatement,
  pdfBytes,
  seedAccount,
  uniqueId,
} from "../support/fixtures";
import { partnerDatabase } from "../support/shards";
import { RECEIVER, type Received, type Receiver, startReceiver } from "../support/webhook-receiver";

/** The test config's throttle: wrangler.toml's WEBHOOK_MAX_PER_SECOND. */
const PER_SECOND = 10;

interface Endpoint {
  webhook_endpoint_id: string;
  status: string;
}

interface Recovery {
  webhook_endpoint_id: string;
  since: string;
  until: string;
  queued: number;
  has_more: boolean;
}

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

async function createEndpoint(f: Fixture, path: string, body: Record<string, unknown> = {}) {
  return expectJson<Endpoint>(
    await api("/v2/webhook_endpoints", {
      key: f.key,
      method: "POST",
      body: { url: `${RECEIVER}${path}`, ...body },
    }),
    201,
  );
}

function recover(f: Fixture, id: string, body: unknown, headers: Record<string, string> = {}) {
  return api(`/v2/webhook_endpoints/${id}/recover`, {
    key: f.key,
    method: "POST",
    body,
    version: "latest",
    headers,
  });
}

/** The events of the fixture's product of one type, oldest first (event order). */
async function eventsInOrder(f: Fixture, type: string): Promise<string[]> {
  const listed = await expectJson<{ data: { event_id: string; created_at: string }[] }>(
    await api(`/v2/events?type=${type}&limit=100`, { key: f.key }),
    200,
  );
  return listed.data.reverse().map((e) => e.event_id);
}

/** The start second of each attempt to deliver to the endpoint, as the service recorded it. */
async function attemptSeconds(f: Fixture, endpointId: string): Promise<Map<number, number>> {
  const db = await partnerDatabase(f.partnerId);
  const rows = await db
    .prepare("SELECT attempted_at FROM webhook_attempts WHERE endpoint_id = ?")
    .bind(endpointId)
    .all<{ attempted_at: string }>();
  const perSecond = new Map<number, number>();
  for (const { attempted_at } of rows.results) {
    const second = Math.floor(Date.parse(attempted_at) / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  }
  return perSecond;
}

const ids = (deliveries: readonly Received[]) =>
  deliveries.map((d) => d.headers["webhook-id"] as string);

describe.concurrent("recovering an endpoint's missed events", { timeout: 60_000 }, () => {
  it("after a receiver outage, delivers each missed event of its types once, in order", async () => {
    const f = await seedAccount();
    const path = `/outage/${uniqueId("down")}`;
    receiver.setDown(path, true);
    const since = new Date(Date.now() - 1000).toISOString();
    const endpoint = await createEndpoint(f, path, { enabled_events: ["statement.created"] });
    const id = endpoint.webhook_endpoint_id;
    // Three imports while the receiver is down: events of different instants.
    for (const months of [
      [1, 2],
      [3, 4],
      [5, 6],
    ]) {
      await importData({ statements: months.map((m) => monthlyStatement(f.accountId, m)) });
    }
    // Every attempt fails until the endpoint is disabled (5 s in the test config).
    const disabled = await eventually(
      async () =>
        expectJson<Endpoint>(await api(`/v2/webhook_endpoints/${id}`, { key: f.key }), 200),
      (e) => e.status === "disabled",
      30_000,
    );
    expect(disabled.status).toBe("disabled");
    const refused = await recover(f, id, { since });
    expect(await expectJson(refused, 409)).toMatchObject({
      error: { type: "CONFLICT_ERROR", param: "webhook_endpoint_id" },
    });
    // Events while disabled reach nothing; a PDF event is not of its types.
    await importData({ statements: [7, 8].map((m) => monthlyStatement(f.accountId, m)) });
    const upload = await operator("PUT", `/statements/${f.accountId}_st_001/pdf`, pdfBytes(), {
      "content-type": "application/pdf",
    });
    expect(upload.status).toBe(204);

    // Its deliveries still waiting for a retry end failed as their messages come back: they are
    // what the recovery brings back (one waiting for its retry is not missed).
    const db = await partnerDatabase(f.partnerId);
    await eventually(
      () =>
        db
          .prepare(
            "SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? AND status = 'pending'",
          )
          .bind(id)
          .first<{ n: number }>(),
      (row) => row?.n === 0,
      20_000,
    );

    receiver.setDown(path, false);
    const enabled = await api(`/v2/webhook_endpoints/${id}/enable`, {
      key: f.key,
      method: "POST",
    });
    expect((await expectJson<Endpoint>(enabled, 200)).status).toBe("enabled");
    const before = receiver.received.filter((r) => r.path === path).length;
    const key = { "Idempotency-Key": uniqueId("recover") };
    const answer = await expectJson<Recovery>(await recover(f, id, { since }, key), 202);
    expect(answer).toMatchObject({
      webhook_endpoint_id: id,
      since,
      queued: 8,
      has_more: false,
    });
    // The same Idempotency-Key answers the same, queuing nothing again.
    const replay = await recover(f, id, { since }, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson(replay, 202)).toEqual(answer);

    const expected = await eventsInOrder(f, "statement.created");
    expect(expected).toHaveLength(8);
    const received = (await receiver.waitFor(path, before + 8, 20_000)).slice(before);
    expect(ids(received)).toEqual(expected);
    expect(received.every((d) => JSON.parse(d.body).type === "statement.created")).toBe(true);
    // Nothing more comes, and nothing is left to recover.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(before + 8);
    const again = await expectJson<Recovery>(await recover(f, id, { since }), 202);
    expect(again).toMatchObject({ queued: 0, has_more: false });
    // The partner's audit log names the window and the count, once.
    const audit = await expectJson<{ data: { action: string; details: object }[] }>(
      await operator("GET", `/partners/${f.partnerId}/audit?limit=100`),
      200,
    );
    expect(audit.data.filter((e) => e.action === "webhook_endpoint.recovered")).toEqual([
      expect.objectContaining({ details: { since, until: answer.until, queued: 8 } }),
    ]);
  });

  it("refuses a window outside the events' 30 days, an empty one, and another partner's endpoint", async () => {
    const f = await seedAccount();
    const other = await seedAccount();
    const { webhook_endpoint_id: id } = await createEndpoint(f, `/ok/${uniqueId("w")}`);
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    for (const [body, param] of [
      [{ since: iso(now - 31 * 86_400_000) }, "since"],
      [{ since: "yesterday" }, "since"],
      [{ since: iso(now - 3600_000), until: iso(now - 7200_000) }, "until"],
      [{ since: iso(now - 3600_000), until: "2026-13-01T00:00:00Z" }, "until"],
      [{}, "since"],
      [{ since: iso(now - 3600_000), after: "x" }, undefined],
    ] as const) {
      const res = await recover(f, id, body);
      const error = await expectJson<{ error: { type: string; param?: string } }>(res, 400);
      expect(error.error.type, JSON.stringify(body)).toBe("INVALID_REQUEST_ERROR");
      if (param) expect(error.error.param, JSON.stringify(body)).toBe(param);
    }
    expect((await recover(other, id, { since: iso(now - 3600_000) })).status).toBe(404);
    // A window reaching past now ends now.
    const later = await expectJson<Recovery>(
      await recover(f, id, { since: iso(now - 3600_000), until: iso(now + 86_400_000) }),
      202,
    );
    expect(Date.parse(later.until)).toBeLessThanOrEqual(Date.now());
  });
});

describe.concurrent("the per-endpoint throttle", { timeout: 60_000 }, () => {
  it("paces a recovery at most 10 attempts a second, in event order, dropping none", async () => {
    // The events exist before the endpoint: only the recovery sends them.
    const f = await seedAccount({ statements: 25 });
    const path = `/ok/${uniqueId("paced")}`;
    const { webhook_endpoint_id: id } = await createEndpoint(f, path);
    const answer = await expectJson<Recovery>(
      await recover(f, id, { since: new Date(Date.now() - 60_000).toISOString() }),
      202,
    );
    expect(answer.queued).toBe(25);
    const received = await receiver.waitFor(path, 25, 20_000);
    expect(ids(received)).toEqual(await eventsInOrder(f, "statement.created"));
    const seconds = await attemptSeconds(f, id);
    expect([...seconds.values()].reduce((a, b) => a + b, 0)).toBe(25);
    expect(Math.max(...seconds.values())).toBeLessThanOrEqual(PER_SECOND);
    expect(seconds.size).toBeGreaterThanOrEqual(Math.ceil(25 / PER_SECOND));
  });

  it("holds a burst of live events to the same pace: the excess waits its turn", async () => {
    const f = await seedAccount();
    const path = `/ok/${uniqueId("burst")}`;
    const { webhook_endpoint_id: id } = await createEndpoint(f, path);
    await importData({
      statements: Array.from({ length: 25 }, (_, i) => monthlyStatement(f.accountId, i + 1)),
    });
    const received = await receiver.waitFor(path, 25, 20_000);
    expect(new Set(ids(received)).size).toBe(25);
    const seconds = await attemptSeconds(f, id);
    expect([...seconds.values()].reduce((a, b) => a + b, 0)).toBe(25);
    expect(Math.max(...seconds.values())).toBeLessThanOrEqual(PER_SECOND);
    // Every delivery succeeded: deferred, not failed nor dropped.
    const db = await partnerDatabase(f.partnerId);
    const states = await db
      .prepare(
        "SELECT status, count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? GROUP BY status",
      )
      .bind(id)
      .all<{ status: string; n: number }>();
    expect(states.results).toEqual([{ status: "succeeded", n: 25 }]);
  });
});
