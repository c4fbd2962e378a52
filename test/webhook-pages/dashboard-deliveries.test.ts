// An endpoint's recent deliveries in the dashboard over HTTP: every attempt (result, response,
// duration, time), newest first and paged, and re-sending an event to that endpoint alone, through
// the real queue to test/support/webhook-receiver.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DashboardClient, seedTeam } from "../support/dashboard";
import { createInPage, disableAsConsumerDoes, webhookAudit } from "../support/dashboard-webhooks";
import {
  type Fixture,
  importData,
  monthlyStatement,
  seedAccount,
  uniqueId,
} from "../support/fixtures";
import { withRequestLog } from "../support/request-log";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

/** A partner with a sandbox account and a signed-in Admin and Developer. */
async function teamWithAccount() {
  const f = await seedAccount();
  return { f, team: await seedTeam(f.partnerId) };
}

/** An endpoint made in the page, receiving at `RECEIVER` + `path`. */
async function endpointAt(client: DashboardClient, path: string): Promise<string> {
  return (await createInPage(client, "sandbox", { url: `${RECEIVER}${path}` })).endpointId;
}

/** Reloads the endpoint's page until `check` holds (deliveries run after the import). */
async function pageUntil(
  client: DashboardClient,
  endpointId: string,
  check: (html: string) => boolean,
  query = "",
): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const html = await (
      await client.get(`/dashboard/sandbox/webhooks/${endpointId}${query}`)
    ).text();
    if (check(html) || Date.now() > deadline) return html;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const rowsOf = (html: string) => html.match(/<tr id="att_\w+">/g) ?? [];

/** Imports statement `month` of the fixture's account: one `statement.created` event. */
async function newStatement(f: Fixture, month: number): Promise<void> {
  await importData({ statements: [monthlyStatement(f.accountId, month)] });
}

describe.concurrent("an endpoint's deliveries", { timeout: 30_000 }, () => {
  it("lists each attempt with its event, result, response, duration and time", async () => {
    const { f, team } = await teamWithAccount();
    const okPath = `/ok/${uniqueId("listed")}`;
    const redirectPath = `/redirect/${uniqueId("listed")}`;
    const ok = await endpointAt(team.developer, okPath);
    const redirected = await endpointAt(team.developer, redirectPath);
    const empty = await pageUntil(team.developer, ok, () => true);
    expect(empty).toContain("No delivery attempted yet.");
    await newStatement(f, 1);
    const [delivery] = await receiver.waitFor(okPath, 1);
    const eventId = delivery?.headers["webhook-id"] ?? "";
    const html = await pageUntil(team.developer, ok, (h) => h.includes("Succeeded"));
    const row = html.slice(
      html.indexOf('<tr id="att_'),
      html.indexOf("</tr>", html.indexOf('<tr id="att_')),
    );
    expect(row).toContain(`<code>${eventId}</code>`);
    expect(row).toContain("statement.created");
    expect(row).toContain('<span class="status-active">Succeeded</span>');
    expect(row).toContain("<td>200</td>");
    expect(row).toMatch(/<td>\d+ ms<\/td>/);
    expect(row).toMatch(/<time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>/);

    const failed = await pageUntil(team.developer, redirected, (h) => h.includes("Failed"));
    expect(failed).toContain('<span class="status-disabled">Failed</span>');
    expect(failed).toContain("302");
    expect(failed).toContain(`redirect to ${RECEIVER}/ok/elsewhere not followed`);
    // Each endpoint's page shows its own attempts only.
    expect(rowsOf(html)).toHaveLength(1);
  });

  it("re-sends an event to this endpoint alone, and records who asked", async () => {
    const { f, team } = await teamWithAccount();
    const [pathA, pathB] = [`/ok/${uniqueId("a")}`, `/ok/${uniqueId("b")}`];
    const a = await endpointAt(team.admin, pathA);
    await endpointAt(team.admin, pathB);
    await newStatement(f, 2);
    const [first] = await receiver.waitFor(pathA, 1);
    await receiver.waitFor(pathB, 1);
    const eventId = first?.headers["webhook-id"] ?? "";
    const page = await pageUntil(team.admin, a, (h) => h.includes("Succeeded"));
    // The row offers the re-send, as a form carrying the event's id.
    expect(page).toContain(`name="event_id" value="${eventId}"`);

    const res = await team.admin.post(`/dashboard/sandbox/webhooks/${a}/resend`, {
      event_id: eventId,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/dashboard/sandbox/webhooks/${a}?notice=resent`);
    const both = await receiver.waitFor(pathA, 2);
    expect(both.map((d) => d.headers["webhook-id"])).toEqual([eventId, eventId]);
    const after = await pageUntil(team.admin, a, (h) => rowsOf(h).length === 2, "?notice=resent");
    expect(after).toContain("The event is queued for delivery to this endpoint.");
    expect(rowsOf(after)).toHaveLength(2);
    // One re-send button per event, on its newest attempt.
    expect(after.split(`name="event_id" value="${eventId}"`)).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter((r) => r.path === pathB)).toHaveLength(1);
    const [entry] = await webhookAudit(f.partnerId);
    expect(entry).toMatchObject({
      action: "event.resent",
      actor: { type: "user", label: team.admin.email },
      environment: "sandbox",
      target: eventId,
      details: { webhook_endpoint_ids: [a] },
    });
  });

  it("re-sends by id an event from before the endpoint existed", async () => {
    const { f, team } = await teamWithAccount();
    const earlierPath = `/ok/${uniqueId("earlier")}`;
    await endpointAt(team.admin, earlierPath);
    await newStatement(f, 4);
    const [earlier] = await receiver.waitFor(earlierPath, 1);
    const eventId = earlier?.headers["webhook-id"] ?? "";
    const path = `/ok/${uniqueId("later")}`;
    const later = await endpointAt(team.admin, path);
    const form = await pageUntil(team.admin, later, () => true);
    expect(form).toContain('<label for="resend-event">Event id</label>');
    const res = await team.admin.post(`/dashboard/sandbox/webhooks/${later}/resend`, {
      event_id: eventId,
    });
    expect(res.status).toBe(303);
    const [delivery] = await receiver.waitFor(path, 1);
    expect(delivery?.headers["webhook-id"]).toBe(eventId);
    expect(JSON.parse(delivery?.body ?? "{}")).toMatchObject({ type: "statement.created" });
  });

  it("refuses an unknown event, another partner's, and a disabled endpoint", async () => {
    const { f, team } = await teamWithAccount();
    const other = await teamWithAccount();
    const path = `/ok/${uniqueId("refused")}`;
    const otherPath = `/ok/${uniqueId("theirs")}`;
    const endpoint = await endpointAt(team.admin, path);
    await endpointAt(other.team.admin, otherPath);
    await newStatement(other.f, 3);
    const [theirs] = await receiver.waitFor(otherPath, 1);
    const resend = (eventId: string) =>
      team.admin.post(`/dashboard/sandbox/webhooks/${endpoint}/resend`, { event_id: eventId });
    expect((await resend("")).status).toBe(400);
    const unknown = await resend("evt_unknown");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("No such event");
    expect((await resend(theirs?.headers["webhook-id"] ?? "")).status).toBe(404);
    await newStatement(f, 3);
    const [ours] = await receiver.waitFor(path, 1);
    await disableAsConsumerDoes(endpoint);
    const disabled = await resend(ours?.headers["webhook-id"] ?? "");
    expect(disabled.status).toBe(400);
    expect(await disabled.text()).toContain("enable it before re-sending events to it");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(1);
    expect((await webhookAudit(f.partnerId)).map((e) => e.action)).not.toContain("event.resent");
  });

  it("pages through the history, newest first, 50 attempts a page", async () => {
    const { f, team } = await teamWithAccount();
    const path = `/ok/${uniqueId("many")}`;
    const endpoint = await endpointAt(team.developer, path);
    // 55 closed statements: 30 months of the fixture's account and 25 of a second one.
    const second = uniqueId("acc");
    await importData({
      accounts: [
        { account_id: second, customer_id: f.customerId, status: "OPEN", currency: "USD" },
      ],
      statements: [
        ...Array.from({ length: 30 }, (_, i) => monthlyStatement(f.accountId, i + 1)),
        ...Array.from({ length: 25 }, (_, i) => monthlyStatement(second, i + 1)),
      ],
    });
    await receiver.waitFor(path, 55, 25_000);
    const first = await pageUntil(team.developer, endpoint, (h) => h.includes("Older deliveries"));
    const firstIds = rowsOf(first);
    expect(firstIds).toHaveLength(50);
    const before = /\?before=(att_\w+)"/.exec(first)?.[1] ?? "";
    expect(firstIds.at(-1)).toBe(`<tr id="${before}">`);
    const older = await pageUntil(team.developer, endpoint, () => true, `?before=${before}`);
    // Keyset pages: each reads its attempts (one more to know if older ones remain) and their
    // events, plus the session, the endpoint and the products, however deep it starts; and the
    // endpoint's health, its latest attempts of the day (55 here, at most 100: each an index
    // entry and its row).
    for (const [query, shown] of [
      ["", 50],
      [`?before=${before}`, 5],
    ] as const) {
      const { log } = await withRequestLog(() =>
        team.developer.get(`/dashboard/sandbox/webhooks/${endpoint}${query}`),
      );
      expect(log.status).toBe(200);
      expect(log.d1_queries).toBeLessThanOrEqual(5);
      expect(log.d1_rows_read, query).toBeLessThanOrEqual(2 * (shown + 1) + 6 + 2 * 55);
    }
    const secondIds = rowsOf(older);
    expect(secondIds).toHaveLength(5);
    expect(older).not.toContain("Older deliveries");
    const all = [...firstIds, ...secondIds];
    expect(new Set(all).size).toBe(55);
    expect([...all].sort().reverse()).toEqual(all);
    const bad = await team.developer.get(`/dashboard/sandbox/webhooks/${endpoint}?before=x`);
    expect(bad.status).toBe(404);
  });
});
