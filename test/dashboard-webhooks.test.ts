// Webhook endpoints in the dashboard over HTTP: the list per environment and product, creation
// with the API's own rules (the secret shown once, the saved version by default), rolling the
// secret with an overlap, enabling, deleting after a confirmation, each change in the audit log;
// other partners' endpoints out of reach, and every form bound to its session and this site.
import { describe, expect, it } from "vitest";
import { bundle } from "../versions";
import { seedTeam, signIn, type Team } from "./dashboard-helpers";
import {
  createInPage,
  createThroughApi,
  disableAsConsumerDoes,
  listThroughApi,
  partnerKey,
  shownSecret,
  webhookAudit,
} from "./dashboard-webhook-helpers";
import { api, expectJson, importData, request, uniqueId } from "./helpers";

const URL_A = "https://hooks.example.com/statements";

/** A team and a sandbox key of its partner. */
async function teamWithKey(): Promise<{ team: Team; key: string }> {
  const team = await seedTeam();
  return { team, key: await partnerKey(team.partnerId, "sandbox") };
}

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
      status: "enabled",
      created_at: expect.any(String),
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

describe("changing an endpoint", () => {
  it("rolls the secret, keeping the previous one signing as long as chosen", async () => {
    const { team, key } = await teamWithKey();
    const created = await createInPage(team.admin, "sandbox", { url: URL_A });
    const path = `/dashboard/sandbox/webhooks/${created.endpointId}/roll`;
    const form = await (await team.admin.get(path)).text();
    expect(form).toContain('name="previous" value="24h" checked');
    const before = Date.now();
    const rolled = await team.admin.post(path, { previous: "1h" });
    const html = await rolled.text();
    expect(rolled.status).toBe(200);
    const { secret } = shownSecret(html);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.secret);
    expect(html).toContain("signed with both secrets until");
    const [endpoint] = await listThroughApi(key);
    const overlap = Date.parse(endpoint?.previous_secret_expires_at ?? "") - before;
    expect(overlap).toBeGreaterThanOrEqual(3_600_000);
    expect(overlap).toBeLessThan(3_600_000 + 60_000);
    const page = await (
      await team.admin.get(`/dashboard/sandbox/webhooks/${created.endpointId}`)
    ).text();
    expect(page).toContain("The previous secret also signs until");

    const now = await team.admin.post(path, { previous: "now" });
    expect(await now.text()).toContain("The previous secret no longer signs deliveries.");
    expect((await listThroughApi(key))[0]).not.toHaveProperty("previous_secret_expires_at");
    const refused = await team.admin.post(path, { previous: "30d" });
    expect(refused.status).toBe(400);
    expect((await webhookAudit(team.partnerId)).map((e) => e.action)).toEqual([
      "webhook_endpoint.secret_rolled",
      "webhook_endpoint.secret_rolled",
      "webhook_endpoint.created",
    ]);
  });

  it("deletes an endpoint after a confirmation page", async () => {
    const { team, key } = await teamWithKey();
    const { endpointId } = await createInPage(team.developer, "sandbox", { url: URL_A });
    const path = `/dashboard/sandbox/webhooks/${endpointId}/delete`;
    const confirm = await team.developer.get(path);
    const html = await confirm.text();
    expect(confirm.status).toBe(200);
    expect(html).toContain(`<code>${URL_A}</code>`);
    expect(html).toContain("This cannot be undone.");
    expect(await listThroughApi(key)).toHaveLength(1);
    const deleted = await team.developer.post(path);
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("location")).toBe("/dashboard/sandbox/webhooks?notice=deleted");
    const list = await (
      await team.developer.get("/dashboard/sandbox/webhooks?notice=deleted")
    ).text();
    expect(list).toContain("Webhook endpoint deleted.");
    expect(list).not.toContain(endpointId);
    expect(await listThroughApi(key)).toEqual([]);
    expect((await team.developer.post(path)).status).toBe(404);
    const [entry] = await webhookAudit(team.partnerId);
    expect(entry).toMatchObject({
      action: "webhook_endpoint.deleted",
      target: endpointId,
      details: { url: URL_A },
    });
  });

  it("enables a disabled endpoint, and says why it was disabled until then", async () => {
    const { team, key } = await teamWithKey();
    const { endpointId } = await createInPage(team.admin, "sandbox", { url: URL_A });
    await disableAsConsumerDoes(endpointId);
    const path = `/dashboard/sandbox/webhooks/${endpointId}`;
    const page = await (await team.admin.get(path)).text();
    expect(page).toContain("Every delivery attempt failed for too long.");
    expect(page).toContain(`action="${path}/enable"`);
    expect(page).toContain("Enable the endpoint to re-send events to it.");
    expect(page).not.toContain(`action="${path}/resend"`);
    const enabled = await team.admin.post(`${path}/enable`);
    expect(enabled.status).toBe(303);
    expect(enabled.headers.get("location")).toBe(`${path}?notice=enabled`);
    const after = await (await team.admin.get(`${path}?notice=enabled`)).text();
    expect(after).toContain("Webhook endpoint enabled.");
    expect(after).toContain('<span class="status-active">Enabled</span>');
    expect(after).not.toContain(`action="${path}/enable"`);
    expect((await listThroughApi(key))[0]?.status).toBe("enabled");
    // Enabling it again changes nothing, and records nothing more.
    expect((await team.admin.post(`${path}/enable`)).status).toBe(303);
    expect((await webhookAudit(team.partnerId)).map((e) => e.action)).toEqual([
      "webhook_endpoint.enabled",
      "webhook_endpoint.created",
    ]);
  });
});

describe("what reaches an endpoint", () => {
  it("is only the partner's own, in the page's environment", async () => {
    const [ours, theirs] = [await seedTeam(), await seedTeam()];
    const theirKey = await partnerKey(theirs.partnerId, "sandbox");
    const their = await createThroughApi(theirKey, { url: URL_A });
    const { endpointId: ourLive } = await createInPage(ours.admin, "production", { url: URL_A });
    for (const [env, id] of [
      ["sandbox", their.webhook_endpoint_id],
      ["sandbox", ourLive],
    ] as const) {
      const base = `/dashboard/${env}/webhooks/${id}`;
      for (const path of [base, `${base}/roll`, `${base}/delete`]) {
        expect((await ours.admin.get(path)).status, path).toBe(404);
      }
      for (const [suffix, fields] of [
        ["/roll", { previous: "now" }],
        ["/delete", {}],
        ["/enable", {}],
        ["/resend", { event_id: "evt_x" }],
      ] as const) {
        expect((await ours.admin.post(`${base}${suffix}`, fields)).status, suffix).toBe(404);
      }
    }
    const [kept] = await listThroughApi(theirKey);
    expect(kept).toMatchObject({ webhook_endpoint_id: their.webhook_endpoint_id });
    expect(kept).not.toHaveProperty("previous_secret_expires_at");
    expect((await webhookAudit(theirs.partnerId)).map((e) => e.action)).toEqual([
      "webhook_endpoint.created",
    ]);
  });

  it("takes no form without the session's CSRF token and this site's Origin", async () => {
    const { team, key } = await teamWithKey();
    const { endpointId } = await createInPage(team.admin, "sandbox", { url: URL_A });
    const base = `/dashboard/sandbox/webhooks/${endpointId}`;
    const other = await signIn(team.developer.email);
    const otherToken = await other.csrf("/dashboard/sandbox/webhooks");
    for (const [path, fields] of [
      ["/dashboard/sandbox/webhooks", { url: "https://hooks.example.com/forged" }],
      [`${base}/roll`, { previous: "now" }],
      [`${base}/delete`, {}],
      [`${base}/enable`, {}],
      [`${base}/resend`, { event_id: "evt_x" }],
    ] as const) {
      for (const csrf of ["", "forged", otherToken]) {
        const res = await team.admin.post(path, { ...fields, csrf });
        expect(res.status, `${path} ${csrf}`).toBe(403);
        expect(await res.text()).toContain("This form has expired");
      }
      for (const origin of ["https://evil.example", "null"]) {
        const res = await team.admin.post(path, fields, { origin });
        expect(res.status, `${path} ${origin}`).toBe(403);
      }
      const noOrigin = await request(path, {
        method: "POST",
        headers: {
          cookie: team.admin.cookie,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ ...fields, csrf: await team.admin.csrf() }).toString(),
        redirect: "manual",
      });
      expect(noOrigin.status, `${path} without Origin`).toBe(403);
    }
    const [endpoint] = await listThroughApi(key);
    expect(await listThroughApi(key)).toHaveLength(1);
    expect(endpoint).toMatchObject({ webhook_endpoint_id: endpointId, status: "enabled" });
    expect(endpoint).not.toHaveProperty("previous_secret_expires_at");
    expect((await webhookAudit(team.partnerId)).map((e) => e.action)).toEqual([
      "webhook_endpoint.created",
    ]);
  });

  it("shows a Developer production endpoints but no way to change them", async () => {
    const { team } = await teamWithKey();
    const live = await createThroughApi(await partnerKey(team.partnerId, "production"), {
      url: URL_A,
    });
    await disableAsConsumerDoes(live.webhook_endpoint_id);
    const list = await (await team.developer.get("/dashboard/production/webhooks")).text();
    expect(list).toContain(live.webhook_endpoint_id);
    expect(list).not.toContain('action="/dashboard/production/webhooks"');
    expect(list).not.toMatch(/\/roll"|\/delete"/);
    expect(list).toContain("Developers cannot create webhook endpoints in production");
    const page = await (
      await team.developer.get(`/dashboard/production/webhooks/${live.webhook_endpoint_id}`)
    ).text();
    expect(page).toContain(URL_A);
    expect(page).not.toMatch(/\/roll"|\/delete"|\/enable"|\/resend"/);
    const admin = await (
      await team.admin.get(`/dashboard/production/webhooks/${live.webhook_endpoint_id}`)
    ).text();
    expect(admin).toMatch(/\/roll"/);
    expect(admin).toMatch(/\/delete"/);
    expect(admin).toMatch(/\/enable"/);
  });
});
