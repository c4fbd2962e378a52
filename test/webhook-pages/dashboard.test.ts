// Webhook endpoints in the dashboard over HTTP: the list per environment and product, and
// creation with the API's own rules (the secret shown once, the saved version by default), each
// recorded in the audit log.
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { api, expectJson } from "../support/api";
import { seedTeam } from "../support/dashboard";
import {
  createInPage,
  createThroughApi,
  disableAsConsumerDoes,
  listThroughApi,
  partnerKey,
  teamWithKey,
  URL_A,
  webhookAudit,
} from "../support/dashboard-webhooks";
import { importData, uniqueId } from "../support/fixtures";

describe("the webhooks page", () => {
  it("lists the environment's endpoints with URL, description, version, status and creation time", async () => {
    const { team, key } = await teamWithKey();
    const sandbox = await createThroughApi(key, {
      url: URL_A,
      description: "ledger sync",
      api_version: "latest",
    });
    const live = await createThroughApi(await partnerKey(team.partnerId, "production"), {
      url: "https://hooks.example.com/live",
    });
    const page = await team.developer.get("/dashboard/sandbox/webhooks");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<code>${URL_A}</code>`);
    expect(html).toContain(sandbox.webhook_endpoint_id);
    expect(html).toContain("ledger sync");
    expect(html).toContain("<code>latest</code>");
    expect(html).toContain('<span class="status-active">Enabled</span>');
    expect(html).toMatch(/<time datetime="\d{4}-\d\d-\d\dT[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(html).not.toContain(live.webhook_endpoint_id);
    expect(html).not.toContain("whsec_");
    const livePage = await (await team.developer.get("/dashboard/production/webhooks")).text();
    expect(livePage).toContain(live.webhook_endpoint_id);
    expect(livePage).not.toContain(sandbox.webhook_endpoint_id);

    await disableAsConsumerDoes(sandbox.webhook_endpoint_id);
    const after = await (await team.developer.get("/dashboard/sandbox/webhooks")).text();
    expect(after).toContain("Disabled");
    expect(after).toContain(
      '<time datetime="2026-11-20T08:30:00.000Z">2026-11-20 08:30 UTC</time>',
    );
    expect(after).toContain("Every delivery attempt failed for too long.");
  });

  it("groups endpoints by product and asks which product when there are several", async () => {
    const partnerId = uniqueId("partner");
    const [cards, travel] = [uniqueId("mk_cards"), uniqueId("mk_travel")];
    await importData({
      partners: [
        {
          partner_id: partnerId,
          name: "Two Products",
          products: [
            { merchant_key: cards, name: "Everyday Card" },
            { merchant_key: travel, name: "Travel Card" },
          ],
        },
      ],
    });
    const team = await seedTeam(partnerId);
    const form = await (await team.admin.get("/dashboard/sandbox/webhooks")).text();
    expect(form).toContain(`<option value="${cards}">Everyday Card (${cards})</option>`);
    expect(form).toContain(`<option value="${travel}">Travel Card (${travel})</option>`);

    const unchosen = await team.admin.post("/dashboard/sandbox/webhooks", { url: URL_A });
    expect(unchosen.status).toBe(400);
    expect(await unchosen.text()).toContain("Choose one of your products.");
    const unknown = await team.admin.post("/dashboard/sandbox/webhooks", {
      url: URL_A,
      product: "mk_someone_else",
    });
    expect(unknown.status).toBe(400);
    // A partner without a product yet has nothing to subscribe an endpoint to.
    const bare = uniqueId("partner");
    await importData({ partners: [{ partner_id: bare, name: "Bare Partner", products: [] }] });
    const lone = await seedTeam(bare);
    const none = await lone.admin.post("/dashboard/sandbox/webhooks", { url: URL_A });
    expect(none.status).toBe(400);
    expect(await none.text()).toContain("no card product yet");

    const { endpointId } = await createInPage(team.admin, "sandbox", {
      url: URL_A,
      product: travel,
    });
    const key = await partnerKey(partnerId, "sandbox");
    expect((await listThroughApi(key, travel)).map((e) => e.webhook_endpoint_id)).toEqual([
      endpointId,
    ]);
    expect(await listThroughApi(key, cards)).toEqual([]);
    await createThroughApi(key, { url: "https://hooks.example.com/cards" }, cards);
    const list = await (await team.admin.get("/dashboard/sandbox/webhooks")).text();
    const cardsHeading = list.indexOf(`Everyday Card (<code>${cards}</code>)</h3>`);
    const travelHeading = list.indexOf(`Travel Card (<code>${travel}</code>)</h3>`);
    expect(cardsHeading).toBeGreaterThan(-1);
    expect(travelHeading).toBeGreaterThan(cardsHeading);
    expect(list.indexOf("https://hooks.example.com/cards")).toBeGreaterThan(cardsHeading);
    expect(list.indexOf(endpointId)).toBeGreaterThan(travelHeading);
    const page = await (await team.admin.get(`/dashboard/sandbox/webhooks/${endpointId}`)).text();
    expect(page).toContain(`<dt>Product</dt><dd>Travel Card (<code>${travel}</code>)</dd>`);
  });
});

describe("creating an endpoint", () => {
  it("shows the secret once, pins the saved version by default and records who made it", async () => {
    const { team, key } = await teamWithKey();
    const { secret, endpointId, html } = await createInPage(team.developer, "sandbox", {
      url: URL_A,
      description: "ledger sync",
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(html).toContain("shown only this once");
    expect(html).toContain('data-copy="new-secret"');
    const listed = await api("/v2/webhook_endpoints", { key });
    const saved = listed.headers.get("x-service-version");
    const [endpoint] = (await expectJson<{ data: Record<string, unknown>[] }>(listed, 200)).data;
    expect(endpoint).toEqual({
      webhook_endpoint_id: endpointId,
      url: URL_A,
      description: "ledger sync",
      api_version: saved,
      enabled_events: ["*"],
      status: "enabled",
      created_at: expect.any(String),
      health: { recent_attempts: 0, failure_streak: 0 },
    });
    // Shown once: neither the list nor the endpoint's page shows it again.
    for (const path of [
      "/dashboard/sandbox/webhooks",
      `/dashboard/sandbox/webhooks/${endpointId}`,
    ]) {
      const page = await (await team.developer.get(path)).text();
      expect(page, path).not.toContain(secret);
      expect(page, path).not.toContain("whsec_");
    }
    expect(await webhookAudit(team.partnerId)).toEqual([
      {
        id: expect.stringMatching(/^audit_/),
        occurred_at: expect.any(String),
        ip: team.developer.ip,
        action: "webhook_endpoint.created",
        actor: { type: "user", id: team.developerId, label: team.developer.email },
        environment: "sandbox",
        target: endpointId,
        details: {
          url: URL_A,
          merchant_key: expect.any(String),
          api_version: saved,
          description: "ledger sync",
          enabled_events: ["*"],
        },
      },
    ]);
  });

  it("pins the version chosen among those the environment offers", async () => {
    const { team, key } = await teamWithKey();
    const page = await (await team.admin.get("/dashboard/production/webhooks")).text();
    for (const version of bundle.supported("production")) {
      expect(page).toContain(`<option value="${version}"`);
    }
    expect(page).not.toContain('<option value="latest"');
    const { endpointId } = await createInPage(team.admin, "sandbox", {
      url: URL_A,
      api_version: "latest",
    });
    const [endpoint] = await listThroughApi(key);
    expect(endpoint).toMatchObject({ webhook_endpoint_id: endpointId, api_version: "latest" });
  });

  it.each([
    ["an http URL", { url: "http://hooks.example.com/x" }, "url must use https"],
    ["a private address", { url: "https://10.1.2.3/x" }, "url must name a public host"],
    ["loopback (allowed only locally)", { url: "http://127.0.0.1:8080/x" }, "url must use https"],
    ["localhost", { url: "https://localhost/x" }, "url must name a public host"],
    ["credentials", { url: "https://u:p@hooks.example.com/x" }, "url must not carry credentials"],
    ["a URL over 2048 characters", { url: `https://hooks.example.com/${"x".repeat(2050)}` }, "url"],
    ["no URL", { url: "" }, "url must be an absolute https URL"],
    ["a description over 255", { url: URL_A, description: "d".repeat(256) }, "description"],
    ["an unknown version", { url: URL_A, api_version: "2024-01-01" }, "is not offered"],
  ])("refuses %s as the API does, and stores nothing", async (_, fields, problem) => {
    const { team, key } = await teamWithKey();
    const res = await team.admin.post("/dashboard/sandbox/webhooks", fields);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(problem);
    expect(await listThroughApi(key)).toEqual([]);
    expect(await webhookAudit(team.partnerId)).toEqual([]);
  });

  it("refuses latest in production, and a seventeenth endpoint of a product", async () => {
    const { team, key } = await teamWithKey();
    const latest = await team.admin.post("/dashboard/production/webhooks", {
      url: URL_A,
      api_version: "latest",
    });
    expect(latest.status).toBe(400);
    expect(await latest.text()).toContain("not offered in production");
    for (let i = 0; i < 16; i++) {
      await createThroughApi(key, { url: `https://hooks.example.com/${i}` });
    }
    const over = await team.admin.post("/dashboard/sandbox/webhooks", { url: URL_A });
    expect(over.status).toBe(400);
    expect(await over.text()).toContain("at most 16 webhook endpoints");
    expect(await listThroughApi(key)).toHaveLength(16);
  });
});
