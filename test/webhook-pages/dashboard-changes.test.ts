// Changing webhook endpoints in the dashboard over HTTP: rolling the secret with an overlap,
// deleting after a confirmation, enabling, each recorded in the audit log; other partners' and
// the other environment's endpoints out of reach, and every form bound to its session and this
// site.
import { describe, expect, it } from "vitest";
import { seedTeam, signIn } from "../support/dashboard";
import {
  createInPage,
  createThroughApi,
  disableAsConsumerDoes,
  listThroughApi,
  partnerKey,
  shownSecret,
  teamWithKey,
  URL_A,
  webhookAudit,
} from "../support/dashboard-webhooks";
import { request } from "../support/worker";

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

  it("enables a disabled endpoint, says why it was disabled until then, and offers recovery", async () => {
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
    // Recovery is offered from when its failures began, which the enable cleared.
    const recovery = `${path}?notice=enabled&recover_since=2026-11-17T08%3A00%3A00.000Z`;
    expect(enabled.headers.get("location")).toBe(`${recovery}#recover-heading`);
    const after = await (await team.admin.get(recovery)).text();
    expect(after).toContain("Webhook endpoint enabled.");
    expect(after).toContain("Enabled again: recover every event it missed");
    expect(after).toContain(`action="${path}/recover"`);
    expect(after).toContain('value="2026-11-17T08:00:00.000Z"');
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
