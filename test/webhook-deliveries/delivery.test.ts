// Webhook delivery through the real queue: signed per Standard Webhooks (checked with the
// reference implementation), shaped in the endpoint's version, retried with backoff, recorded,
// disabled after failing for the disable window, and re-sendable. The receiver is
// test/support/webhook-receiver.ts; the vitest config shrinks retry timings to seconds.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { api, expectJson, operator } from "../support/api";
import { inviteByOperator, outboxFor } from "../support/dashboard";
import { eventually } from "../support/eventually";
import {
  type Fixture,
  importData,
  monthlyStatement,
  pdfBytes,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import { firstOnAnyShard } from "../support/shards";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

interface Endpoint {
  webhook_endpoint_id: string;
  secret: string;
  status: string;
  api_version: string;
}

interface Attempt {
  attempt_id: string;
  attempted_at: string;
  status: string;
  response_status?: number;
  error?: string;
  duration_ms: number;
}

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

async function createEndpoint(f: Fixture, path: string, version?: string): Promise<Endpoint> {
  const res = await api("/v2/webhook_endpoints", {
    key: f.key,
    method: "POST",
    body: { url: `${RECEIVER}${path}`, ...(version ? { api_version: version } : {}) },
  });
  return expectJson<Endpoint>(res, 201);
}

async function attemptsOf(f: Fixture, eventId: string): Promise<Attempt[]> {
  const res = await api(`/v2/events/${eventId}/delivery_attempts`, { key: f.key });
  return (await expectJson<{ data: Attempt[] }>(res, 200)).data;
}

describe.concurrent("webhook delivery", { timeout: 30_000 }, () => {
  it("delivers a new statement's event, signed with the endpoint's secret", async () => {
    const f = await seedAccount();
    const path = `/ok/${uniqueId("signed")}`;
    const endpoint = await createEndpoint(f, path);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await importData({ statements: [monthlyStatement(f.accountId, 1)] });

    const [delivery] = await receiver.waitFor(path, 1);
    expect(delivery).toBeDefined();
    const { headers, body } = delivery as (typeof receiver.received)[number];
    const verified = new Webhook(endpoint.secret).verify(body, headers) as Record<string, unknown>;
    expect(verified).toMatchObject({
      type: "statement.created",
      data: { statement: { statement_id: `${f.accountId}_st_001`, customer_id: f.customerId } },
    });
    expect(headers["webhook-id"]).toBe(verified.event_id);
    expect(headers["content-type"]).toBe("application/json");
    // Another secret does not verify it.
    const other = (await createEndpoint(f, `/ok/${uniqueId("other")}`)).secret;
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
  });

  it("shapes each endpoint's payload in the version it is pinned to", async () => {
    const f = await seedAccount({ statements: 1 });
    const pinned = new Map<string, string>();
    for (const version of bundle.supported("sandbox")) {
      const path = `/ok/${uniqueId("v")}`;
      await createEndpoint(f, path, version);
      pinned.set(version, path);
    }
    const statementId = `${f.accountId}_st_001`;
    const upload = await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes(), {
      "content-type": "application/pdf",
    });
    expect(upload.status).toBe(204);
    for (const [version, path] of pinned) {
      const [delivery] = await receiver.waitFor(path, 1);
      const event = JSON.parse(delivery?.body ?? "{}");
      expect(event.type).toBe("statement.pdf_available");
      // The statement reads exactly as the statements list reads it in that version, but for
      // the request-time values (as_of and the link's signature and expiry).
      const listed = await expectJson<{ data: Record<string, unknown>[] }>(
        await api(statementsPath(f), { key: f.key, version }),
        200,
      );
      const sameShape = (s: Record<string, unknown>) =>
        JSON.stringify(s, (key, value) =>
          key === "as_of" || key === "expires_at"
            ? "…"
            : key === "url" || key === "pdf_url"
              ? "link"
              : value,
        );
      expect(sameShape(event.data.statement)).toBe(
        sameShape(listed.data[0] as Record<string, unknown>),
      );
    }
  });

  it("retries a failing endpoint with backoff and records every attempt", async () => {
    const f = await seedAccount();
    const path = `/fail-twice/${uniqueId("retry")}`;
    const endpoint = await createEndpoint(f, path);
    await importData({ statements: [monthlyStatement(f.accountId, 2)] });
    const deliveries = await receiver.waitFor(path, 3);
    expect(deliveries).toHaveLength(3);
    // The same message each time, each attempt signed anew.
    const ids = new Set(deliveries.map((d) => d.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    for (const d of deliveries) new Webhook(endpoint.secret).verify(d.body, d.headers);
    const gaps = deliveries.slice(1).map((d, i) => d.at - (deliveries[i]?.at ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(400);

    const eventId = [...ids][0] as string;
    const attempts = await eventually(
      () => attemptsOf(f, eventId),
      (a) => a.length === 3,
    );
    expect(attempts.map((a) => [a.status, a.response_status])).toEqual([
      ["failed", 500],
      ["failed", 500],
      ["succeeded", 200],
    ]);
    expect(attempts[0]?.error).toBe("endpoint answered HTTP 500");
    for (const a of attempts) expect(a.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("records a timeout, and never follows a redirect", async () => {
    const f = await seedAccount();
    const slow = `/slow/${uniqueId("slow")}`;
    const redirect = `/redirect/${uniqueId("redirect")}`;
    await createEndpoint(f, slow);
    await createEndpoint(f, redirect);
    await importData({ statements: [monthlyStatement(f.accountId, 3)] });
    const [first] = await receiver.waitFor(redirect, 1);
    const eventId = first?.headers["webhook-id"] as string;
    const attempts = await eventually(
      () => attemptsOf(f, eventId),
      (a) => a.some((x) => x.status === "timed_out") && a.some((x) => x.response_status === 302),
    );
    expect(attempts.find((a) => a.status === "timed_out")).toMatchObject({
      error: "no answer from hooks.example.com within 1000 ms",
    });
    expect(attempts.find((a) => a.response_status === 302)).toMatchObject({
      status: "failed",
      error: `redirect to ${RECEIVER}/ok/elsewhere not followed`,
    });
    expect(receiver.received.some((r) => r.path === "/ok/elsewhere")).toBe(false);
  });

  it("gives up after the retry window, disables the endpoint and mails the Admins", async () => {
    const f = await seedAccount();
    const admin = `${uniqueId("admin")}@partner.example`;
    const developer = `${uniqueId("dev")}@partner.example`;
    await inviteByOperator(f.partnerId, admin, "Admin");
    await inviteByOperator(f.partnerId, developer, "Developer");
    const path = `/always-500/${uniqueId("dead")}`;
    const endpoint = await createEndpoint(f, path);
    await importData({ statements: [monthlyStatement(f.accountId, 4)] });
    const read = async () =>
      expectJson<Endpoint & { disabled_reason?: string; disabled_at?: string }>(
        await api(`/v2/webhook_endpoints/${endpoint.webhook_endpoint_id}`, { key: f.key }),
        200,
      );
    const disabled = await eventually(read, (e) => e.status === "disabled", 20_000);
    expect(disabled.status).toBe("disabled");
    expect(disabled.disabled_reason).toBe("Every delivery attempt failed for too long.");
    // Admins are told, once; Developers are not.
    const notices = await eventually(
      async () =>
        (await outboxFor(admin)).filter((m) => m.subject.startsWith("Webhook endpoint disabled (")),
      (mail) => mail.length > 0,
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]?.subject).toBe(`Webhook endpoint disabled (sandbox): ${RECEIVER}${path}`);
    expect(notices[0]?.text).toContain(endpoint.webhook_endpoint_id);
    // The mail links the endpoint's dashboard page, on the origin it was registered through.
    const page = `http://api.test/dashboard/sandbox/webhooks/${endpoint.webhook_endpoint_id}`;
    expect(notices[0]?.text).toContain(page);
    expect(
      (await outboxFor(developer)).filter((m) => m.subject.startsWith("Webhook endpoint")),
    ).toEqual([]);
    const [first] = await receiver.waitFor(path, 1);
    const eventId = first?.headers["webhook-id"] as string;
    const row = await eventually(
      () =>
        firstOnAnyShard<{ status: string; attempts: number }>(
          "SELECT status, attempts FROM webhook_deliveries WHERE event_id = ?",
          eventId,
        ),
      (r) => r?.status === "failed",
    );
    expect(row?.status).toBe("failed");
    // The window is 6 s with waits from 1 s doubling: retries go on until the event is at least
    // the window old, and stop there.
    const attempts = await attemptsOf(f, eventId);
    expect(attempts.length).toBe(row?.attempts);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    const event = await expectJson<{ created_at: string }>(
      await api(`/v2/events/${eventId}`, { key: f.key }),
      200,
    );
    const last = Date.parse(attempts.at(-1)?.attempted_at ?? "");
    expect(last - Date.parse(event.created_at)).toBeGreaterThanOrEqual(6000 - 1000);
    const beforeLast = Date.parse(attempts.at(-2)?.attempted_at ?? "");
    expect(beforeLast - Date.parse(event.created_at)).toBeLessThan(6000);

    // A disabled endpoint gets nothing more, and refuses a re-send until it is enabled again.
    const before = receiver.received.filter((r) => r.path === path).length;
    await importData({ statements: [monthlyStatement(f.accountId, 5)] });
    const resend = await api(`/v2/events/${eventId}/resend`, {
      key: f.key,
      method: "POST",
      body: { webhook_endpoint_id: endpoint.webhook_endpoint_id },
    });
    expect(resend.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(before);
    const enabled = await api(`/v2/webhook_endpoints/${endpoint.webhook_endpoint_id}/enable`, {
      key: f.key,
      method: "POST",
    });
    expect((await expectJson<Endpoint>(enabled, 200)).status).toBe("enabled");
  });

  it("re-sends an event on request, with the same webhook-id", async () => {
    const f = await seedAccount();
    const path = `/ok/${uniqueId("resend")}`;
    const endpoint = await createEndpoint(f, path);
    await importData({ statements: [monthlyStatement(f.accountId, 6)] });
    const [first] = await receiver.waitFor(path, 1);
    const eventId = first?.headers["webhook-id"] as string;
    const res = await api(`/v2/events/${eventId}/resend`, { key: f.key, method: "POST" });
    expect(await expectJson(res, 202)).toEqual({
      event_id: eventId,
      webhook_endpoint_ids: [endpoint.webhook_endpoint_id],
    });
    const both = await receiver.waitFor(path, 2);
    expect(both.map((d) => d.headers["webhook-id"])).toEqual([eventId, eventId]);
    const attempts = await eventually(
      () => attemptsOf(f, eventId),
      (a) => a.length === 2,
    );
    expect(attempts.map((a) => a.status)).toEqual(["succeeded", "succeeded"]);
    // The partner's audit log records the re-send, by the key that asked for it.
    const audit = await expectJson<{ data: { action: string }[] }>(
      await operator("GET", `/partners/${f.partnerId}/audit?limit=100`),
      200,
    );
    expect(audit.data.filter((e) => e.action === "event.resent")).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: "key", id: f.keyId }),
        environment: "sandbox",
        target: eventId,
        details: { webhook_endpoint_ids: [endpoint.webhook_endpoint_id] },
      }),
    ]);
  });

  it("signs with the new and the rolled secret until the rolled one expires", async () => {
    const f = await seedAccount();
    const path = `/ok/${uniqueId("roll")}`;
    const endpoint = await createEndpoint(f, path);
    const rolled = await expectJson<Endpoint & { previous_secret_expires_at: string }>(
      await api(`/v2/webhook_endpoints/${endpoint.webhook_endpoint_id}/roll_secret`, {
        key: f.key,
        method: "POST",
        body: { previous_secret_expires_in: 3600 },
      }),
      200,
    );
    expect(rolled.secret).not.toBe(endpoint.secret);
    await importData({ statements: [monthlyStatement(f.accountId, 7)] });
    const [delivery] = await receiver.waitFor(path, 1);
    const { headers, body } = delivery as (typeof receiver.received)[number];
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    new Webhook(rolled.secret).verify(body, headers);
    new Webhook(endpoint.secret).verify(body, headers);

    // Rolled again with no overlap: only the newest secret signs.
    const again = await expectJson<Endpoint>(
      await api(`/v2/webhook_endpoints/${endpoint.webhook_endpoint_id}/roll_secret`, {
        key: f.key,
        method: "POST",
        body: { previous_secret_expires_in: 0 },
      }),
      200,
    );
    await importData({ statements: [monthlyStatement(f.accountId, 8)] });
    const [, second] = await receiver.waitFor(path, 2);
    expect(second?.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
    new Webhook(again.secret).verify(second?.body ?? "", second?.headers ?? {});
    expect(() =>
      new Webhook(rolled.secret).verify(second?.body ?? "", second?.headers ?? {}),
    ).toThrow();
  });

  it("delivers nothing to a deleted endpoint, nor to another product's", async () => {
    const f = await seedAccount();
    const other = await seedAccount();
    const deletedPath = `/ok/${uniqueId("deleted")}`;
    const otherPath = `/ok/${uniqueId("other-product")}`;
    const keptPath = `/ok/${uniqueId("kept")}`;
    const deleted = await createEndpoint(f, deletedPath);
    await createEndpoint(other, otherPath);
    await createEndpoint(f, keptPath);
    const res = await api(`/v2/webhook_endpoints/${deleted.webhook_endpoint_id}`, {
      key: f.key,
      method: "DELETE",
    });
    expect(res.status).toBe(204);
    await importData({ statements: [monthlyStatement(f.accountId, 9)] });
    await receiver.waitFor(keptPath, 1);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(receiver.received.filter((r) => r.path === deletedPath)).toHaveLength(0);
    expect(receiver.received.filter((r) => r.path === otherPath)).toHaveLength(0);
  });
});
