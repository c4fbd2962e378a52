// Event types per endpoint: `enabled_events` on create and update (every type by default, or a
// list of the endpoint's version's types), honoured by delivery and by re-sends; the catalogue at
// GET /v2/event_types; and GET /v2/events filtered by type. Versions come from the bundle.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { eventTypesOf } from "../../src/events/event-types";
import { api, expectJson, operator } from "../support/api";
import { ALL_VERSIONS } from "../support/bundle-versions";
import { eventually } from "../support/eventually";
import {
  type Fixture,
  importData,
  monthlyStatement,
  pdfBytes,
  seedAccount,
  uniqueId,
} from "../support/fixtures";
import { plain } from "../support/json";
import { withRequestLog } from "../support/request-log";
import { partnerDatabase } from "../support/shards";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";
import { request } from "../support/worker";

interface Endpoint {
  webhook_endpoint_id: string;
  url: string;
  description?: string;
  api_version: string;
  enabled_events: string[];
}

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

function create(f: Fixture, body: Record<string, unknown>, version?: string) {
  return api("/v2/webhook_endpoints", {
    key: f.key,
    method: "POST",
    body,
    ...(version ? { version } : {}),
  });
}

function update(f: Fixture, id: string, body: unknown) {
  return api(`/v2/webhook_endpoints/${id}`, { key: f.key, method: "POST", body });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.concurrent("event types per endpoint", { timeout: 30_000 }, () => {
  it("delivers only the types an endpoint takes; every type by default", async () => {
    const f = await seedAccount();
    const pdfOnly = `/ok/${uniqueId("pdf")}`;
    const everything = `/ok/${uniqueId("all")}`;
    const filtered = await expectJson<Endpoint>(
      await create(f, {
        url: `${RECEIVER}${pdfOnly}`,
        enabled_events: ["statement.pdf_available"],
      }),
      201,
    );
    expect(filtered.enabled_events).toEqual(["statement.pdf_available"]);
    const all = await expectJson<Endpoint>(
      await create(f, { url: `${RECEIVER}${everything}` }),
      201,
    );
    expect(all.enabled_events).toEqual(["*"]);

    await importData({ statements: [monthlyStatement(f.accountId, 1)] });
    const upload = await operator("PUT", `/statements/${f.accountId}_st_001/pdf`, pdfBytes(), {
      "content-type": "application/pdf",
    });
    expect(upload.status).toBe(204);
    const both = await receiver.waitFor(everything, 2);
    expect(both.map((d) => JSON.parse(d.body).type).sort()).toEqual([
      "statement.created",
      "statement.pdf_available",
    ]);
    const [only] = await receiver.waitFor(pdfOnly, 1);
    expect(JSON.parse(only?.body ?? "{}").type).toBe("statement.pdf_available");
    await sleep(1500);
    expect(receiver.received.filter((r) => r.path === pdfOnly)).toHaveLength(1);
    // Read back as created.
    const read = await expectJson<Endpoint>(
      await api(`/v2/webhook_endpoints/${filtered.webhook_endpoint_id}`, { key: f.key }),
      200,
    );
    expect(read.enabled_events).toEqual(["statement.pdf_available"]);
  });

  it("re-sends an event only to endpoints that take its type", async () => {
    const f = await seedAccount({ statements: 1 });
    const created = (
      await expectJson<{ data: { event_id: string; type: string }[] }>(
        await api("/v2/events", { key: f.key }),
        200,
      )
    ).data[0];
    expect(created?.type).toBe("statement.created");
    const eventId = created?.event_id as string;
    const hiddenOnly = await expectJson<Endpoint>(
      await create(f, {
        url: `${RECEIVER}/ok/${uniqueId("h")}`,
        enabled_events: ["statement.hidden"],
      }),
      201,
    );
    const path = `/ok/${uniqueId("c")}`;
    const createdOnly = await expectJson<Endpoint>(
      await create(f, { url: `${RECEIVER}${path}`, enabled_events: ["statement.created"] }),
      201,
    );
    // To every enabled endpoint: only the one that takes it.
    const toAll = await api(`/v2/events/${eventId}/resend`, { key: f.key, method: "POST" });
    expect(await expectJson(toAll, 202)).toEqual({
      event_id: eventId,
      webhook_endpoint_ids: [createdOnly.webhook_endpoint_id],
    });
    await receiver.waitFor(path, 1);
    // Named: refused, saying why.
    const named = await api(`/v2/events/${eventId}/resend`, {
      key: f.key,
      method: "POST",
      body: { webhook_endpoint_id: hiddenOnly.webhook_endpoint_id },
    });
    expect(named.status).toBe(400);
    expect(await named.text()).toContain(
      "This webhook endpoint does not take statement.created events (its enabled_events are statement.hidden).",
    );
  });

  it("refuses a type its version does not have, a wildcard among types, and an empty list", async () => {
    const f = await seedAccount();
    const url = `${RECEIVER}/ok/${uniqueId("bad")}`;
    for (const [enabled, detail] of [
      [
        ["statement.created", "statement.closed", "invoice.paid"],
        'enabled_events: \\"statement.closed\\" is not an event type of API version',
      ],
      [["*", "statement.created"], 'enabled_events: \\"*\\" stands for every type'],
      [[], "enabled_events"],
      [[""], "enabled_events"],
    ] as const) {
      const res = await create(f, { url, enabled_events: enabled }, "latest");
      const text = await res.text();
      expect(res.status, text).toBe(400);
      expect(text).toContain(detail);
    }
    const unknown = await create(
      f,
      { url, enabled_events: ["statement.closed", "invoice.paid"] },
      "latest",
    );
    const body = await expectJson<{ error: { details: string[]; param: string } }>(unknown, 400);
    expect(body.error.param).toBe("enabled_events");
    expect(body.error.details).toHaveLength(2);
    expect(body.error.details[1]).toContain('"invoice.paid"');
    expect(body.error.details[1]).toContain(
      `its types are ${eventTypesOf(bundle, "latest")
        .map((e) => e.type)
        .join(", ")}`,
    );
    // Nothing was stored.
    const listed = await expectJson<{ data: unknown[] }>(
      await api("/v2/webhook_endpoints", { key: f.key }),
      200,
    );
    expect(listed.data).toEqual([]);
    // Repeats are taken once; `["*"]` is every type.
    const twice = await expectJson<Endpoint>(
      await create(f, { url, enabled_events: ["statement.hidden", "statement.hidden"] }),
      201,
    );
    expect(twice.enabled_events).toEqual(["statement.hidden"]);
    const star = await expectJson<Endpoint>(await create(f, { url, enabled_events: ["*"] }), 201);
    expect(star.enabled_events).toEqual(["*"]);
  });
});

describe("a filter worked out under other event types", { timeout: 30_000 }, () => {
  it("lets the fan-out through, while the consumer delivers only what it takes and works it out anew", async () => {
    const f = await seedAccount();
    const path = `/ok/${uniqueId("stale")}`;
    const endpoint = await expectJson<Endpoint>(
      await create(f, { url: `${RECEIVER}${path}`, enabled_events: ["statement.created"] }),
      201,
    );
    const db = await partnerDatabase(f.partnerId);
    const row = () =>
      db
        .prepare(
          "SELECT event_types, event_types_revision FROM webhook_endpoints WHERE endpoint_id = ?",
        )
        .bind(endpoint.webhook_endpoint_id)
        .first<{ event_types: string; event_types_revision: string }>();
    const current = await row();
    expect(current?.event_types).toBe('["statement.created"]');
    // As if stored by a build that knew other canonical types, and got them wrong.
    await db
      .prepare(
        "UPDATE webhook_endpoints SET event_types = '[]', event_types_revision = 'statement.created' WHERE endpoint_id = ?",
      )
      .bind(endpoint.webhook_endpoint_id)
      .run();
    await importData({ statements: [monthlyStatement(f.accountId, 1)] });
    const upload = await operator("PUT", `/statements/${f.accountId}_st_001/pdf`, pdfBytes(), {
      "content-type": "application/pdf",
    });
    expect(upload.status).toBe(204);
    const [delivered] = await receiver.waitFor(path, 1);
    expect(JSON.parse(delivered?.body ?? "{}").type).toBe("statement.created");
    const refreshed = await eventually(
      row,
      (r) => r?.event_types_revision === current?.event_types_revision,
    );
    expect(refreshed).toEqual(current);
    await sleep(1500);
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(1);
  });
});

describe.concurrent("updating an endpoint", { timeout: 30_000 }, () => {
  it("changes only the fields sent, keeps its version, and checks them as creation does", async () => {
    const f = await seedAccount();
    const path = `/ok/${uniqueId("before")}`;
    const endpoint = await expectJson<Endpoint>(
      await create(f, { url: `${RECEIVER}${path}`, description: "ledger" }),
      201,
    );
    const id = endpoint.webhook_endpoint_id;
    const later = `/ok/${uniqueId("after")}`;
    const changed = await expectJson<Endpoint>(
      await update(f, id, { url: `${RECEIVER}${later}`, enabled_events: ["statement.created"] }),
      200,
    );
    expect(changed).toMatchObject({
      webhook_endpoint_id: id,
      url: `${RECEIVER}${later}`,
      description: "ledger",
      api_version: endpoint.api_version,
      enabled_events: ["statement.created"],
    });
    expect(changed).not.toHaveProperty("secret");
    // An empty description removes it; an empty body changes nothing.
    const cleared = await expectJson<Endpoint>(await update(f, id, { description: "" }), 200);
    expect(cleared).not.toHaveProperty("description");
    expect(await expectJson<Endpoint>(await update(f, id, {}), 200)).toEqual(cleared);
    // Back to every type.
    const all = await expectJson<Endpoint>(await update(f, id, { enabled_events: ["*"] }), 200);
    expect(all.enabled_events).toEqual(["*"]);
    // The same rules as creation: nothing changes on a refusal.
    for (const body of [
      { url: "http://hooks.example.com/plain" },
      { enabled_events: ["statement.closed"] },
      { api_version: "latest" },
      { description: "x".repeat(256) },
    ]) {
      const res = await update(f, id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const read = await expectJson<Endpoint>(
      await api(`/v2/webhook_endpoints/${id}`, { key: f.key }),
      200,
    );
    expect(read).toEqual(all);
    // Deliveries go to the new URL, of the new types.
    await importData({ statements: [monthlyStatement(f.accountId, 1)] });
    await receiver.waitFor(later, 1);
    expect(receiver.received.filter((r) => r.path === path)).toEqual([]);
    expect((await update(f, "we_missing", { description: "x" })).status).toBe(404);
  });
});

describe("the event type catalogue", () => {
  it("lists the types of the request's version, each described", async () => {
    const f = await seedAccount();
    for (const version of ALL_VERSIONS) {
      const res = await api("/v2/event_types", { key: f.key, version });
      const body = await expectJson<{ data: { type: string; description: string }[] }>(res, 200);
      expect(body).toEqual({ data: eventTypesOf(bundle, version), has_more: false });
      const reference = plain(bundle.schemasOf(version)).Event?.properties.type.enum;
      expect(body.data.map((e) => e.type)).toEqual(reference);
      for (const entry of body.data) expect(entry.description.length).toBeGreaterThan(10);
      // The same catalogue in the version's reference: one webhook per type, described, with
      // the delivery rules and their numbers (the throttle's among them).
      const doc = await expectJson<{ webhooks: Record<string, { post: { description: string } }> }>(
        await request(`/openapi/${version}.json`),
        200,
      );
      expect(Object.keys(doc.webhooks)).toEqual(body.data.map((e) => e.type));
      for (const entry of body.data) {
        const { description } = doc.webhooks[entry.type]?.post ?? { description: "" };
        expect(description.startsWith(entry.description)).toBe(true);
        expect(description).toContain("at most 10 deliveries a second");
        expect(description).toContain("answer 2xx within 10 seconds");
      }
    }
  });
});

describe("listing events by type", () => {
  it("filters by one or several types, in either form, paging within the filter", async () => {
    const f = await seedAccount({ statements: 3 });
    const hide = await operator("POST", `/statements/${f.accountId}_st_002/hide`);
    expect(hide.status).toBe(204);
    const types = async (query: string) =>
      (
        await expectJson<{ data: { type: string }[] }>(
          await api(`/v2/events${query}`, { key: f.key }),
          200,
        )
      ).data.map((e) => e.type);
    expect(await types("?type=statement.hidden")).toEqual(["statement.hidden"]);
    expect(await types("?type=statement.created")).toHaveLength(3);
    const both = [
      "statement.hidden",
      "statement.created",
      "statement.created",
      "statement.created",
    ];
    expect(await types("?type=statement.created,statement.hidden")).toEqual(both);
    expect(await types("?type=statement.created&type=statement.hidden")).toEqual(both);
    expect(await types("?type=statement.pdf_available")).toEqual([]);
    // Pages within the filter, the cursor carrying on.
    const first = await expectJson<{ data: { event_id: string }[]; next_page_token: string }>(
      await api("/v2/events?type=statement.created&limit=2", { key: f.key }),
      200,
    );
    expect(first.data).toHaveLength(2);
    const rest = await expectJson<{ data: { event_id: string }[]; has_more: boolean }>(
      await api(
        `/v2/events?type=statement.created&limit=2&starting_after=${first.next_page_token}`,
        { key: f.key },
      ),
      200,
    );
    expect(rest.data).toHaveLength(1);
    expect(rest.has_more).toBe(false);
    for (const [query, detail] of [
      ["?type=statement.closed", '\\"statement.closed\\" is not an event type'],
      ["?type=", "type must name one or more event types"],
      ["?type=statement.created,,statement.hidden", "type must name one or more event types"],
    ]) {
      const res = await api(`/v2/events${query}`, { key: f.key });
      const text = await res.text();
      expect(res.status, query).toBe(400);
      expect(text).toContain(detail);
    }
  });
});

describe("a page of events of one type", () => {
  it("reads the rows of that type's page only, however many events of other types there are", async () => {
    const f = await seedAccount({ statements: 30 });
    const hide = await operator("POST", `/statements/${f.accountId}_st_007/hide`);
    expect(hide.status).toBe(204);
    for (const [query, shown] of [
      ["?type=statement.hidden&limit=10", 1],
      ["?type=statement.created&limit=10", 10],
      ["?type=statement.hidden,statement.pdf_available&limit=10", 1],
    ] as const) {
      const { res, log } = await withRequestLog(() => api(`/v2/events${query}`, { key: f.key }));
      const body = await expectJson<{ data: unknown[] }>(res, 200);
      expect(body.data).toHaveLength(shown);
      // The key lookup's rows, then per type at most limit + 1 index entries, the list of their
      // ids, and each event and its statement by key: bounded by the page, not by the product
      // (a hidden event among 31 reads a handful of rows).
      expect(log.d1_rows_read, query).toBeLessThanOrEqual(6 + 5 * (shown + 1));
    }
  });
});
