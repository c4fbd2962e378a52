// The dashboard's side of production webhooks: an endpoint made in the page takes the event types
// checked, and the endpoint's page recovers the events it missed and enables it, with the API's
// own rules, budgets, writes and audit row; Developers do so in sandbox only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINT_BUDGET } from "../../src/webhook-endpoints";
import { api, expectJson, operator } from "../support/api";
import { seedTeam } from "../support/dashboard";
import { createInPage, listThroughApi, webhookAudit } from "../support/dashboard-webhooks";
import { eventually } from "../support/eventually";
import { createKey, seedAccount, uniqueId } from "../support/fixtures";
import { partnerDatabase } from "../support/shards";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

describe("the dashboard's webhook pages", { timeout: 30_000 }, () => {
  it("make an endpoint of the event types checked, or of every type", async () => {
    const f = await seedAccount();
    const team = await seedTeam(f.partnerId);
    const key = (await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"])).apiKey;
    const page = await (await team.developer.get("/dashboard/sandbox/webhooks")).text();
    expect(page).toContain('name="enabled_events" value="statement.pdf_available"');
    await createInPage(team.developer, "sandbox", {
      url: `${RECEIVER}/ok/${uniqueId("some")}`,
      enabled_events: ["statement.created", "statement.hidden"],
    });
    // "Every type" stays checked: every type, whatever else is.
    await createInPage(team.developer, "sandbox", {
      url: `${RECEIVER}/ok/${uniqueId("all")}`,
      enabled_events: ["*", "statement.hidden"],
    });
    const refused = await team.developer.post("/dashboard/sandbox/webhooks", {
      url: `${RECEIVER}/ok/${uniqueId("bad")}`,
      enabled_events: ["statement.closed"],
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("is not an event type of API version");
    const listed = await listThroughApi(key);
    expect(
      listed.map((e) => (e as unknown as { enabled_events: string[] }).enabled_events),
    ).toEqual([["statement.created", "statement.hidden"], ["*"]]);
    const list = await (await team.developer.get("/dashboard/sandbox/webhooks")).text();
    expect(list).toContain("<code>statement.created</code>, <code>statement.hidden</code>");
    expect(list).toContain("Every event type");
  });

  it("recovers the events an endpoint missed from its page, in order, once", async () => {
    const f = await seedAccount({ statements: 3 });
    const team = await seedTeam(f.partnerId);
    const path = `/ok/${uniqueId("recover")}`;
    const { endpointId } = await createInPage(team.developer, "sandbox", {
      url: `${RECEIVER}${path}`,
    });
    const base = `/dashboard/sandbox/webhooks/${endpointId}`;
    const page = await (await team.developer.get(base)).text();
    expect(page).toContain('<h2 id="recover-heading">Recover missed events</h2>');
    expect(page).toContain("at most 10 a second");
    const since = new Date(Date.now() - 3600_000).toISOString();
    const recovered = await team.developer.post(`${base}/recover`, { since, until: "" });
    expect(recovered.status).toBe(303);
    expect(recovered.headers.get("location")).toBe(`${base}?notice=recovered`);
    const received = await receiver.waitFor(path, 3);
    // Event order: the list's, oldest first (one import's events share an instant, then by id).
    const events = await expectJson<{ data: { event_id: string }[] }>(
      await api("/v2/events", { key: f.key }),
      200,
    );
    expect(received.map((r) => r.headers["webhook-id"])).toEqual(
      events.data.map((e) => e.event_id).reverse(),
    );
    // The recovery is over once each of its attempts is recorded.
    await eventually(
      async () => {
        const lists = await Promise.all(
          events.data.map(async (e) =>
            expectJson<{ data: unknown[] }>(
              await api(`/v2/events/${e.event_id}/delivery_attempts`, { key: f.key }),
              200,
            ),
          ),
        );
        return lists.every((list) => list.data.length > 0);
      },
      (done) => done,
    );
    const again = await team.developer.post(`${base}/recover`, { since });
    expect(again.headers.get("location")).toBe(`${base}?notice=recovered-none`);
    const after = await (await team.developer.get(`${base}?notice=recovered-none`)).text();
    expect(after).toContain("It has missed no event of its types in that window");
    // The form is the API's request: the same refusals.
    const bad = await team.developer.post(`${base}/recover`, { since: "last week" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("since must be an RFC 3339 timestamp");
    const [entry] = await webhookAudit(team.partnerId);
    expect(entry).toMatchObject({
      action: "webhook_endpoint.recovered",
      actor: { type: "user", id: team.developerId },
      target: endpointId,
      details: { since, queued: 3 },
    });
  });

  it("lets Developers recover only in sandbox", async () => {
    const team = await seedTeam();
    const { endpointId } = await createInPage(team.admin, "production", {
      url: `${RECEIVER}/ok/${uniqueId("live")}`,
    });
    const base = `/dashboard/production/webhooks/${endpointId}`;
    const since = new Date(Date.now() - 3600_000).toISOString();
    expect((await team.developer.post(`${base}/recover`, { since })).status).toBe(403);
    const page = await (await team.developer.get(base)).text();
    expect(page).not.toContain(`action="${base}/recover"`);
    expect((await team.admin.post(`${base}/recover`, { since })).status).toBe(303);
    const audit = await expectJson<{ data: { action: string }[] }>(
      await operator("GET", `/partners/${team.partnerId}/audit?limit=10`),
      200,
    );
    // Nothing was missed, so nothing was queued nor recorded.
    expect(audit.data.map((e) => e.action)).not.toContain("webhook_endpoint.recovered");
  });

  it("keeps to the API's budgets: one recovery at a time, and enables per hour", async () => {
    const f = await seedAccount({ statements: 30 });
    const team = await seedTeam(f.partnerId);
    const { endpointId } = await createInPage(team.developer, "sandbox", {
      url: `${RECEIVER}/ok/${uniqueId("budget")}`,
    });
    const base = `/dashboard/sandbox/webhooks/${endpointId}`;
    const since = new Date(Date.now() - 3600_000).toISOString();
    expect((await team.developer.post(`${base}/recover`, { since })).status).toBe(303);
    // Its 30 deliveries take three seconds: a second recovery meets the running one.
    const running = await team.developer.post(`${base}/recover`, { since });
    expect(running.status).toBe(409);
    expect(await running.text()).toContain("A recovery of this webhook endpoint is running");

    const db = await partnerDatabase(f.partnerId);
    const disable = () =>
      db
        .prepare("UPDATE webhook_endpoints SET status = 'disabled' WHERE endpoint_id = ?")
        .bind(endpointId)
        .run();
    for (let i = 0; i < ENDPOINT_BUDGET.enable; i++) {
      await disable();
      expect((await team.developer.post(`${base}/enable`, {})).status).toBe(303);
    }
    await disable();
    const spent = await team.developer.post(`${base}/enable`, {});
    expect(spent.status).toBe(429);
    expect(await spent.text()).toContain(`at most ${ENDPOINT_BUDGET.enable} an hour`);
  });
});
