// Production request logs follow the data browser's rule: an Admin sees a production request in
// full (ids in its path, its bodies, its client's address), and each view is written to the audit
// log first; a Developer sees it with every identifier masked, unaudited. Sandbox logs are shown in
// full to both. The Admin's production version preview writes its audit row too.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { sha256HexNow } from "../../src/domain/encoding";
import { maskedIdempotencyDigest } from "../../src/domain/request-log";
import { api, expectJson, operator } from "../support/api";
import { seedTeam, type Team } from "../support/dashboard";
import { createKey, importData, monthlyStatement, uniqueId } from "../support/fixtures";
import { allLogged, newRequestId, requestIdOf } from "../support/request-logs";

interface AuditEntry {
  action: string;
  environment: string | null;
  target: string | null;
  details: Record<string, unknown>;
  actor: { type: string; label: string };
}

async function dataViews(team: Team): Promise<AuditEntry[]> {
  const res = await operator("GET", `/partners/${team.partnerId}/audit?limit=100`);
  const body = await expectJson<{ data: AuditEntry[] }>(res, 200);
  return body.data.filter((e) => e.action === "customer_data.viewed");
}

describe("production request logs", () => {
  let team: Team;
  const customer = uniqueId("cus");
  const sandboxCustomer = uniqueId("cus");
  const crmId = `crm-${uniqueId("ref")}`;
  const ip = "203.0.113.77";
  let linked: string;
  let missing: string;
  let sandboxRead: string;

  beforeAll(async () => {
    team = await seedTeam();
    const merchantKey = team.merchantKey as string;
    await importData({
      customers: [
        {
          customer_id: customer,
          partner_id: team.partnerId,
          environment: "production",
          merchant_key: merchantKey,
        },
        {
          customer_id: sandboxCustomer,
          partner_id: team.partnerId,
          environment: "sandbox",
          merchant_key: merchantKey,
        },
      ],
    });
    const live = (await createKey(team.partnerId, "production", ["ACCOUNT_READ"])).apiKey;
    const test = (await createKey(team.partnerId, "sandbox", ["ACCOUNT_READ"])).apiKey;
    const headers = () => ({ "x-request-id": newRequestId(), "cf-connecting-ip": ip });
    linked = requestIdOf(
      await api(`/v2/customers/${customer}/link`, {
        key: live,
        method: "POST",
        body: { partner_customer_id: crmId },
        headers: headers(),
      }),
    );
    missing = requestIdOf(
      await api("/v2/customers/cus_0000nobody1234", { key: live, headers: headers() }),
    );
    sandboxRead = requestIdOf(
      await api(`/v2/customers/${sandboxCustomer}`, { key: test, headers: headers() }),
    );
    await allLogged([linked, missing, sandboxRead]);
  }, 60_000);

  it("are shown in full to an Admin, each view audited before it is read", async () => {
    const before = (await dataViews(team)).length;
    const list = await (await team.admin.get("/dashboard/production/logs")).text();
    expect(list).toContain(`/v2/customers/${customer}/link`);
    expect(list).toContain("Your views of production requests are recorded in the audit log.");
    const detail = await (await team.admin.get(`/dashboard/production/logs/${linked}`)).text();
    expect(detail).toContain(crmId);
    expect(detail).toContain(ip);
    const views = await dataViews(team);
    expect(views.length).toBe(before + 2);
    expect(views.slice(0, 2).map((v) => [v.details.page, v.target, v.environment])).toEqual([
      ["request", linked, "production"],
      ["request_log", null, "production"],
    ]);
    expect(views[0]?.actor).toMatchObject({ type: "user", label: team.admin.email });
  });

  it("are shown to a Developer with every identifier masked, unaudited", async () => {
    const before = (await dataViews(team)).length;
    const list = await (await team.developer.get("/dashboard/production/logs")).text();
    expect(list).not.toContain(customer);
    expect(list).toContain("/v2/customers/{customer_id}/link");
    expect(list).toContain("identifiers are masked here");
    for (const id of [linked, missing]) {
      const detail = await (await team.developer.get(`/dashboard/production/logs/${id}`)).text();
      for (const secret of [customer, crmId, ip, "cus_0000nobody1234"]) {
        expect(detail, `${id}: ${secret}`).not.toContain(secret);
      }
      expect(detail).toContain("•••");
    }
    // The body keeps its shape and field names; the error its type.
    const detail = await (await team.developer.get(`/dashboard/production/logs/${missing}`)).text();
    expect(detail).toContain("CUSTOMER_NOT_FOUND_ERROR");
    const linkDetail = await (
      await team.developer.get(`/dashboard/production/logs/${linked}`)
    ).text();
    expect(linkDetail).toContain("partner_customer_id");
    expect((await dataViews(team)).length).toBe(before);
  });

  it("hide a Developer the request id and User-Agent, and key the Idempotency-Key's digest", async () => {
    const live = (await createKey(team.partnerId, "production", ["ACCOUNT_READ"])).apiKey;
    // A client's own request id, User-Agent and Idempotency-Key may each name a customer.
    const requestId = `req-${crmId}`;
    const userAgent = "acme-app/3.1 SamsPhone-7Q2";
    const idempotencyKey = `link-${crmId}`;
    await api(`/v2/customers/${customer}/link`, {
      key: live,
      method: "POST",
      body: { partner_customer_id: crmId },
      headers: {
        "x-request-id": requestId,
        "user-agent": userAgent,
        "Idempotency-Key": idempotencyKey,
      },
    });
    const [row] = await allLogged([requestId]);
    const unsalted = sha256HexNow(idempotencyKey).slice(0, 16);
    const list = await (await team.developer.get("/dashboard/production/logs")).text();
    const entry = `/dashboard/production/logs/entries/${row?.log_id}`;
    expect(list).toContain(entry);
    const detail = await (await team.developer.get(entry)).text();
    for (const page of [list, detail]) {
      for (const hidden of [requestId, userAgent, unsalted]) expect(page).not.toContain(hidden);
    }
    const keyed = maskedIdempotencyDigest(
      env.SIGNING_SECRET ?? "",
      team.partnerId,
      row?.idempotency_key ?? "",
    );
    expect(keyed).toMatch(/^[0-9a-f]{16}$/);
    expect(keyed).not.toBe(unsalted);
    expect(detail).toContain(keyed);
    // An Admin sees the request in full (audited), by its id as by its log id.
    for (const path of [`/dashboard/production/logs/${requestId}`, entry]) {
      const full = await (await team.admin.get(path)).text();
      for (const shown of [requestId, userAgent, unsalted]) expect(full).toContain(shown);
    }
  });

  it("leave sandbox requests in full to both roles, unaudited", async () => {
    const before = (await dataViews(team)).length;
    for (const user of [team.admin, team.developer]) {
      const detail = await (await user.get(`/dashboard/sandbox/logs/${sandboxRead}`)).text();
      expect(detail).toContain(`/v2/customers/${sandboxCustomer}`);
      expect(detail).toContain(ip);
    }
    expect((await dataViews(team)).length).toBe(before);
  });
});

describe("the production version preview", () => {
  it("writes its audit row when an Admin previews production statements", async () => {
    const team = await seedTeam();
    const [customer, account] = [uniqueId("cus"), uniqueId("acc")];
    await importData({
      customers: [
        {
          customer_id: customer,
          partner_id: team.partnerId,
          environment: "production",
          merchant_key: team.merchantKey as string,
        },
      ],
      accounts: [{ account_id: account, customer_id: customer, status: "OPEN", currency: "USD" }],
      statements: [monthlyStatement(account, 1)],
    });
    // The partner saves the newest released version: any other is a move to preview.
    const target = bundle
      .supported("production")
      .find((v) => v !== bundle.newestReleased) as string;
    const path = `/dashboard/production/version?target=${target}`;
    const before = (await dataViews(team)).length;
    const admin = await (await team.admin.get(path)).text();
    expect(admin).toContain(`/customers/${customer}/accounts/${account}/statements`);
    const views = await dataViews(team);
    expect(views.length).toBe(before + 1);
    expect(views[0]).toMatchObject({
      environment: "production",
      target,
      details: { page: "version_preview" },
      actor: { type: "user", label: team.admin.email },
    });
    // A Developer's preview is built from sandbox data: nothing to audit.
    await team.developer.get(path);
    expect((await dataViews(team)).length).toBe(before + 1);
  });
});
