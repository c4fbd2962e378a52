// GET /v2/events: one event per statement transition, written with the change; newest first in
// signed keyset pages; only the caller's partner, environment and product; kept 30 days; each
// statement shaped like the statements list of the request's version.
import { afterEach, describe, expect, it, vi } from "vitest";
import { bundle } from "../../src/bundle";
import { api, expectJson, operator } from "../support/api";
import {
  createKey,
  type Fixture,
  importData,
  monthlyStatement,
  pdfBytes,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";

interface Event {
  event_id: string;
  type: string;
  created_at: string;
  data: { statement: Record<string, unknown> & { statement_id: string } };
}
interface EventPage {
  data: Event[];
  has_more: boolean;
  next_page_token?: string;
}

async function eventsOf(key: string, query = "", options: { version?: string } = {}) {
  return expectJson<EventPage>(await api(`/v2/events${query}`, { key, ...options }), 200);
}

function uploadPdf(statementId: string) {
  return operator("PUT", `/statements/${statementId}/pdf`, pdfBytes(), {
    "content-type": "application/pdf",
  });
}

const hide = (statementId: string) => operator("POST", `/statements/${statementId}/hide`);

afterEach(() => {
  vi.useRealTimers();
});

describe("statement events", () => {
  it("records each statement's creation, first PDF and hiding once, newest first", async () => {
    const f = await seedAccount({ statements: 2 });
    const [first, second] = [`${f.accountId}_st_001`, `${f.accountId}_st_002`];
    // Repeats are no-ops: the same import, a replaced PDF, a second hide.
    await importData({ statements: [monthlyStatement(f.accountId, 1)] });
    expect((await uploadPdf(first)).status).toBe(204);
    expect((await uploadPdf(first)).status).toBe(204);
    expect((await hide(second)).status).toBe(204);
    expect((await hide(second)).status).toBe(204);
    // A hidden statement's first PDF is not announced: it left every read.
    expect((await uploadPdf(second)).status).toBe(204);

    const page = await eventsOf(f.key);
    // Events of one import share their creation time; their order among themselves is by id.
    expect(page.data.slice(0, 2).map((e) => [e.type, e.data.statement.statement_id])).toEqual([
      ["statement.hidden", second],
      ["statement.pdf_available", first],
    ]);
    expect(page.data.slice(2).map((e) => e.type)).toEqual([
      "statement.created",
      "statement.created",
    ]);
    expect(new Set(page.data.slice(2).map((e) => e.data.statement.statement_id))).toEqual(
      new Set([first, second]),
    );
    expect(page.has_more).toBe(false);
    for (const event of page.data) expect(event.event_id).toMatch(/^evt_[0-9a-f]{24}$/);
  });

  it("shows the statement as it reads now: a fresh link, and only ids once hidden", async () => {
    const f = await seedAccount({ statements: 2 });
    const [withPdf, hidden] = [`${f.accountId}_st_001`, `${f.accountId}_st_002`];
    await uploadPdf(withPdf);
    await hide(hidden);
    const page = await eventsOf(f.key, "", { version: "latest" });
    const created = page.data.find(
      (e) => e.type === "statement.created" && e.data.statement.statement_id === withPdf,
    );
    const asOf = created?.data.statement.as_of as string;
    expect(created?.data.statement.pdf).toEqual({
      url: expect.stringContaining(`/files/statements/${withPdf}/pdf?expires=`),
      expires_at: new Date(Date.parse(asOf) + 3600_000).toISOString(),
    });
    // Every statement of a page is read at one instant.
    expect(new Set(page.data.map((e) => e.data.statement.as_of)).size).toBe(1);
    for (const event of page.data.filter((e) => e.data.statement.statement_id === hidden)) {
      expect(event.data.statement).toEqual({
        statement_id: hidden,
        customer_id: f.customerId,
        account_id: f.accountId,
        as_of: asOf,
      });
    }
  });

  it("shapes statements as the statements list of each version does", async () => {
    const f = await seedAccount({ statements: 1 });
    await uploadPdf(`${f.accountId}_st_001`);
    for (const version of bundle.supported("sandbox")) {
      const page = await eventsOf(f.key, "?limit=1", { version });
      const listed = await expectJson<{ data: Record<string, unknown>[] }>(
        await api(statementsPath(f), { key: f.key, version }),
        200,
      );
      const strip = (s: Record<string, unknown>) =>
        JSON.stringify(s, (k, v) =>
          ["as_of", "expires_at", "url", "pdf_url"].includes(k) ? 0 : v,
        );
      expect(page.data[0]?.type).toBe("statement.pdf_available");
      expect(strip(page.data[0]?.data.statement ?? {})).toBe(strip(listed.data[0] ?? {}));
    }
  });

  it("pages newest first with signed tokens bound to the product", async () => {
    const f = await seedAccount({ statements: 25 });
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await eventsOf(f.key, `?limit=10${token ? `&starting_after=${token}` : ""}`);
      seen.push(...page.data.map((e) => e.event_id));
      expect(page.next_page_token !== undefined).toBe(page.has_more);
      token = page.next_page_token;
    } while (token);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);

    const first = await eventsOf(f.key, "?limit=5");
    const tampered = `${first.next_page_token?.slice(0, -2)}xx`;
    const other = await seedAccount({ statements: 1 });
    for (const [key, cursor] of [
      [f.key, tampered],
      [f.key, "not-a-token"],
      [other.key, first.next_page_token],
    ] as const) {
      const res = await api(`/v2/events?starting_after=${cursor}`, { key, version: "latest" });
      expect(await expectJson(res, 400)).toMatchObject({
        error: { type: "INVALID_REQUEST_ERROR", param: "starting_after" },
      });
    }
  });

  it("lists only the caller's partner, environment and product", async () => {
    const partnerId = uniqueId("partner");
    const [productA, productB] = [uniqueId("mk"), uniqueId("mk")];
    const [cusA, cusB, cusLive] = [uniqueId("cus"), uniqueId("cus"), uniqueId("cus")];
    const customer = (id: string, environment: "sandbox" | "production", mk: string) => ({
      customer_id: id,
      partner_id: partnerId,
      environment,
      merchant_key: mk,
    });
    await importData({
      partners: [
        {
          partner_id: partnerId,
          name: "Two Products",
          products: [
            { merchant_key: productA, name: "A", documents: "uploaded" },
            { merchant_key: productB, name: "B", documents: "uploaded" },
          ],
        },
      ],
      customers: [
        customer(cusA, "sandbox", productA),
        customer(cusB, "sandbox", productB),
        customer(cusLive, "production", productA),
      ],
      accounts: [
        { account_id: `${cusA}_acc`, customer_id: cusA },
        { account_id: `${cusB}_acc`, customer_id: cusB },
        { account_id: `${cusLive}_acc`, customer_id: cusLive },
      ],
      statements: [
        monthlyStatement(`${cusA}_acc`, 1),
        monthlyStatement(`${cusB}_acc`, 1),
        monthlyStatement(`${cusLive}_acc`, 1),
      ],
    });
    const sandbox = (await createKey(partnerId, "sandbox", ["ACCOUNT_READ"])).apiKey;
    const live = (await createKey(partnerId, "production", ["ACCOUNT_READ"])).apiKey;
    const ids = async (key: string, merchantKey?: string) => {
      const res = await api("/v2/events", { key, ...(merchantKey ? { merchantKey } : {}) });
      return (await expectJson<EventPage>(res, 200)).data.map((e) => e.data.statement.account_id);
    };
    expect(await ids(sandbox, productA)).toEqual([`${cusA}_acc`]);
    expect(await ids(sandbox, productB)).toEqual([`${cusB}_acc`]);
    expect(await ids(live, productA)).toEqual([`${cusLive}_acc`]);
    // Several products: the merchant-key header is required, as for every product read.
    const res = await api("/v2/events", { key: sandbox });
    expect(res.status).toBe(400);
    const stranger = await seedAccount();
    expect((await eventsOf(stranger.key)).data).toEqual([]);
  });

  it("retrieves one event, and answers 404 for another product's or an unknown id", async () => {
    const f: Fixture = await seedAccount({ statements: 1 });
    const [event] = (await eventsOf(f.key)).data;
    const one = await expectJson<Event>(
      await api(`/v2/events/${event?.event_id}`, { key: f.key }),
      200,
    );
    expect(one.event_id).toBe(event?.event_id);
    expect(one.type).toBe("statement.created");
    const other = await seedAccount();
    for (const [key, id] of [
      [other.key, event?.event_id],
      [f.key, "evt_unknown"],
    ]) {
      const res = await api(`/v2/events/${id}`, { key: key as string });
      expect(await expectJson(res, 404)).toEqual({
        error: { type: "NOT_FOUND_ERROR", message: expect.any(String), param: "event_id" },
      });
    }
  });

  it("keeps events for 30 days", async () => {
    const f = await seedAccount({ statements: 1 });
    const [event] = (await eventsOf(f.key)).data;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(event?.created_at ?? "") + 29 * 86_400_000);
    expect((await eventsOf(f.key)).data).toHaveLength(1);
    vi.setSystemTime(Date.parse(event?.created_at ?? "") + 30 * 86_400_000 + 1);
    expect((await eventsOf(f.key)).data).toHaveLength(0);
    expect((await api(`/v2/events/${event?.event_id}`, { key: f.key })).status).toBe(404);
  });
});

describe("an event's delivery attempts and re-sending, refused", () => {
  it("answers 404 for an unknown or another partner's event or endpoint, and 400 for bad input", async () => {
    const [f, other] = await Promise.all([
      seedAccount({ statements: 1 }),
      seedAccount({ statements: 1 }),
    ]);
    const eventId = (await eventsOf(f.key)).data[0]?.event_id as string;
    const unknown = "evt_000000000000000000000000";
    const attempts = (id: string, key: string, query = "") =>
      api(`/v2/events/${id}/delivery_attempts${query}`, { key });
    const resend = (id: string, key: string, body: unknown = {}) =>
      api(`/v2/events/${id}/resend`, { key, method: "POST", body });

    // Its own event: no endpoint yet, so no attempt.
    const own = await expectJson<{ data: unknown[]; has_more: boolean }>(
      await attempts(eventId, f.key),
      200,
    );
    expect(own).toMatchObject({ data: [], has_more: false });

    for (const [id, key] of [
      [eventId, other.key],
      [unknown, f.key],
    ] as const) {
      expect((await attempts(id, key)).status).toBe(404);
      expect((await resend(id, key)).status).toBe(404);
    }
    expect((await resend(eventId, f.key, { webhook_endpoint_id: "we_nowhere" })).status).toBe(404);
    expect((await attempts(eventId, f.key, "?limit=0")).status).toBe(400);
    expect((await attempts(eventId, f.key, "?starting_after=")).status).toBe(400);
    expect((await resend(eventId, f.key, { webhook_endpoint_id: 5 })).status).toBe(400);
    expect((await resend(eventId, f.key, { endpoint: "we_1" })).status).toBe(400);
  });
});
