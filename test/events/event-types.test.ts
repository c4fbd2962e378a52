// Event types as each version names them, derived by reshaping events through the version
// bundle: the service's bundle, and a bundle of the test's own whose newest version shows two
// types older versions lack (one folded into an older type, one renamed), as a restatement would
// reach an older endpoint as `statement.hidden`. Filters, the catalogue, list filters and
// deliveries all follow the type an endpoint's version shows, never the canonical one.
import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle, bundleOf } from "../../src/bundle";
import { EVENT_TYPES } from "../../src/domain/event";
import {
  canonicalTypesFor,
  eventTypesOf,
  typeSeenIn,
  unknownEventTypes,
} from "../../src/events/event-types";
import type { ApiVersion, VersionChange } from "../../src/version-changes";
import { schema } from "../../src/version-changes";
import { webhookConsumer } from "../../src/webhook-deliveries/deliver";
import type { DeliveryRef } from "../../src/webhook-deliveries/event-writes";
import { VERSIONS } from "../../versions";
import { api, expectJson, operator } from "../support/api";
import { appServing } from "../support/apps";
import { ALL_VERSIONS, versionsWith } from "../support/bundle-versions";
import { pdfBytes, seedAccount, uniqueId } from "../support/fixtures";
import { plain } from "../support/json";
import { shardDatabase, shardOf } from "../support/shards";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

/**
 * In 2027-01-01, `statement.pdf_available` is new (older versions announce a statement's PDF as
 * another `statement.created`) and `statement.removed` becomes `statement.hidden`.
 */
const splitEventTypes: VersionChange = {
  name: "splitEventTypes",
  description:
    "A statement's PDF is announced by `statement.pdf_available` rather than a second " +
    "`statement.created`, and `statement.removed` is named `statement.hidden` (and, as " +
    "`statement.restated`, told apart from a correction).",
  instructions: [
    schema("Event")
      .field("type")
      .had({
        schema: { type: "string", enum: ["statement.created", "statement.removed"] },
        toOlder: (type) =>
          type === "statement.pdf_available"
            ? "statement.created"
            : type === "statement.hidden" || type === "statement.restated"
              ? "statement.removed"
              : type,
      }),
  ],
};

const NEWEST = "2027-01-01";
// The test's world has one change of event types, its own: the service's own change of them
// (statement.restated, folded into statement.hidden for older versions) is left out of it.
const REAL_TYPE_CHANGE = "announceRestatementsAsStatementRestated";
const released = VERSIONS.filter((v) => v.released).map((v) => ({
  ...v,
  changes: v.changes.filter((c) => c.name !== REAL_TYPE_CHANGE),
}));
const testBundle = bundleOf([
  { id: NEWEST, released: true, changes: [splitEventTypes] } satisfies ApiVersion,
  ...released,
]);
const OLDER = released[0]?.id as string;

describe("the type a version shows", () => {
  it("is the canonical type in the service's bundle, but statement.restated before its version", () => {
    const knowing = versionsWith(REAL_TYPE_CHANGE);
    expect(knowing).toContain(ALL_VERSIONS[0]);
    for (const version of ALL_VERSIONS) {
      const knows = knowing.includes(version);
      expect(eventTypesOf(bundle, version).map((e) => e.type)).toEqual(
        EVENT_TYPES.filter((type) => knows || type !== "statement.restated"),
      );
      for (const type of EVENT_TYPES) {
        const shown = type === "statement.restated" && !knows ? "statement.hidden" : type;
        expect(typeSeenIn(bundle, version, type), `${version} ${type}`).toBe(shown);
      }
    }
  });

  it("follows a version change that folds one type into another and renames one", () => {
    expect(eventTypesOf(testBundle, NEWEST).map((e) => e.type)).toEqual([...EVENT_TYPES]);
    expect(typeSeenIn(testBundle, OLDER, "statement.pdf_available")).toBe("statement.created");
    expect(typeSeenIn(testBundle, OLDER, "statement.hidden")).toBe("statement.removed");
    // Each type once, described as the canonical type of that name or else the one it shows.
    expect(eventTypesOf(testBundle, OLDER)).toEqual([
      { type: "statement.created", description: "A closed statement became readable." },
      { type: "statement.removed", description: "The statement left every read." },
    ]);
    expect(canonicalTypesFor(testBundle, OLDER, ["statement.created"])).toEqual([
      "statement.created",
      "statement.pdf_available",
    ]);
    expect(canonicalTypesFor(testBundle, OLDER, ["statement.removed"])).toEqual([
      "statement.hidden",
      "statement.restated",
    ]);
    expect(unknownEventTypes(testBundle, OLDER, ["statement.hidden", "statement.created"])).toEqual(
      ["statement.hidden"],
    );
  });

  it("is listed by each version's reference as its Event type enum", async () => {
    for (const b of [bundle, testBundle]) {
      for (const v of b.versions) {
        const types = eventTypesOf(b, v.id).map((e) => e.type);
        expect(plain(b.schemasOf(v.id)).Event?.properties.type.enum, v.id).toEqual(types);
      }
    }
  });
});

describe("an endpoint of an older version, under a change of event types", () => {
  const fetch = appServing(testBundle);
  let receiver: Receiver;
  beforeAll(() => {
    receiver = startReceiver();
  });
  afterAll(() => receiver.restore());

  it("is offered and takes its version's types, and refuses the newer ones", async () => {
    const f = await seedAccount();
    const catalogue = await expectJson<{ data: { type: string }[] }>(
      await api("/v2/event_types", { key: f.key, version: OLDER, fetch }),
      200,
    );
    expect(catalogue.data.map((e) => e.type)).toEqual(["statement.created", "statement.removed"]);
    const refused = await api("/v2/webhook_endpoints", {
      key: f.key,
      version: OLDER,
      fetch,
      method: "POST",
      body: { url: `${RECEIVER}/ok/x`, enabled_events: ["statement.pdf_available"] },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(
      `enabled_events: \\"statement.pdf_available\\" is not an event type of API version ${OLDER}`,
    );
  });

  it("gets an event under the type its version shows it, and none of the types it does not take", async () => {
    // The event exists before the endpoints, so that only this test's consumer delivers it.
    const f = await seedAccount({ statements: 1 });
    const statementId = `${f.accountId}_st_001`;
    const upload = await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes(), {
      "content-type": "application/pdf",
    });
    expect(upload.status).toBe(204);
    const listed = await expectJson<{ data: { event_id: string; type: string }[] }>(
      await api("/v2/events?type=statement.created", { key: f.key, version: OLDER, fetch }),
      200,
    );
    // Both events are `statement.created` to this version: its list filter finds both.
    expect(listed.data.map((e) => e.type)).toEqual(["statement.created", "statement.created"]);
    const newest = await expectJson<{ data: { event_id: string; type: string }[] }>(
      await api("/v2/events?type=statement.pdf_available", { key: f.key, version: NEWEST, fetch }),
      200,
    );
    expect(newest.data).toHaveLength(1);
    const pdfEvent = newest.data[0]?.event_id as string;

    const create = async (path: string, types: string[]) =>
      (
        await expectJson<{ webhook_endpoint_id: string; enabled_events: string[] }>(
          await api("/v2/webhook_endpoints", {
            key: f.key,
            version: OLDER,
            fetch,
            method: "POST",
            body: { url: `${RECEIVER}${path}`, enabled_events: types },
          }),
          201,
        )
      ).webhook_endpoint_id;
    const takes = `/ok/${uniqueId("created")}`;
    const skips = `/ok/${uniqueId("removed")}`;
    const taking = await create(takes, ["statement.created"]);
    const skipping = await create(skips, ["statement.removed"]);

    const shard = await shardOf(f.partnerId);
    const db = shardDatabase(shard);
    const now = new Date().toISOString();
    const consumer = webhookConsumer(testBundle);
    for (const endpointId of [taking, skipping]) {
      await db
        .prepare(
          `INSERT INTO webhook_deliveries (event_id, endpoint_id, status, generation, attempts,
           cycle_started_at, next_attempt_at) VALUES (?, ?, 'pending', 0, 0, ?, ?)`,
        )
        .bind(pdfEvent, endpointId, now, now)
        .run();
      const ref: DeliveryRef = {
        event_id: pdfEvent,
        endpoint_id: endpointId,
        generation: 0,
        partner_id: f.partnerId,
        shard,
      };
      const batch = createMessageBatch("webhook-deliveries", [
        { id: uniqueId("m"), timestamp: new Date(), attempts: 1, body: ref },
      ]);
      await consumer(batch as MessageBatch<DeliveryRef>, env);
    }
    const [delivered] = await receiver.waitFor(takes, 1);
    expect(JSON.parse(delivered?.body ?? "{}")).toMatchObject({
      event_id: pdfEvent,
      type: "statement.created",
    });
    expect(receiver.received.filter((r) => r.path === skips)).toEqual([]);
    // The one it does not take is dropped, not attempted.
    const left = await db
      .prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?")
      .bind(skipping)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});
