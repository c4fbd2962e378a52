// Who may do what, checked on the server for every action: the rules below are the whole table
// (role × action × environment), the permission table says the same, and each cell is tried over
// HTTP; a refused action changes nothing (the audit log, which records every change, stays as it
// was).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allows, type DashboardAction, PERMISSIONS } from "../../src/domain/permissions";
import { api, expectJson, operator } from "../support/api";
import { OLDEST, RELEASED_VERSIONS } from "../support/bundle-versions";
import { type DashboardClient, seedTeam, type Team } from "../support/dashboard";
import { createThroughApi, disableAsConsumerDoes, partnerKey } from "../support/dashboard-webhooks";
import { createKey, importData, uniqueId } from "../support/fixtures";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

// Re-sent events are delivered, to this receiver.
let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

type Role = "Admin" | "Developer";
type Where = "sandbox" | "production" | "partner-wide";

/** [action, where, Admin may, Developer may]: the rules the dashboard promises. */
const RULES: [string, Where, boolean, boolean][] = [
  ["view keys", "sandbox", true, true],
  ["view keys", "production", true, true],
  ["create a key", "sandbox", true, true],
  ["create a key", "production", true, false],
  ["roll a key", "sandbox", true, true],
  ["roll a key", "production", true, false],
  ["revoke a key", "sandbox", true, true],
  ["revoke a key", "production", true, false],
  ["view webhooks", "sandbox", true, true],
  ["view webhooks", "production", true, true],
  ["create a webhook endpoint", "sandbox", true, true],
  ["create a webhook endpoint", "production", true, false],
  ["roll a webhook secret", "sandbox", true, true],
  ["roll a webhook secret", "production", true, false],
  ["delete a webhook endpoint", "sandbox", true, true],
  ["delete a webhook endpoint", "production", true, false],
  ["enable a webhook endpoint", "sandbox", true, true],
  ["enable a webhook endpoint", "production", true, false],
  ["re-send an event", "sandbox", true, true],
  ["re-send an event", "production", true, false],
  ["view the API version", "sandbox", true, true],
  ["view the API version", "production", true, true],
  ["change the API version", "sandbox", true, false],
  ["change the API version", "production", true, false],
  ["roll back the API version", "sandbox", true, false],
  ["roll back the API version", "production", true, false],
  ["view the team", "partner-wide", true, false],
  ["invite a user", "partner-wide", true, false],
  ["change a role", "partner-wide", true, false],
  ["remove a user", "partner-wide", true, false],
  ["view the audit log", "partner-wide", true, false],
  ["view statement documents", "partner-wide", true, true],
  ["change how statement documents look", "partner-wide", true, false],
  ["run sandbox simulations", "sandbox", true, true],
  ["run sandbox simulations", "production", false, false],
  ["reset sandbox data", "sandbox", true, false],
  ["reset sandbox data", "production", false, false],
  ["view the overview", "sandbox", true, true],
  ["view the overview", "production", true, true],
  ["view request logs", "sandbox", true, true],
  ["view request logs", "production", true, true],
  ["view customer data", "sandbox", true, true],
  ["view customer data", "production", true, false],
];

/**
 * The permission an action is, what an attempt needs made first (by the operator, or through the
 * API with an operator's key), then the attempt itself.
 */
interface Attempt {
  action: DashboardAction;
  prepare?: (team: Team, env: Env) => Promise<string>;
  send: (client: DashboardClient, env: Env, prepared: string) => Promise<Response>;
}
type Env = "sandbox" | "production";

/** A key of the team's partner in `env`, made by the operator. */
const operatorKey = async (team: Team, env: Env) =>
  (await createKey(team.partnerId, env, ["ACCOUNT_READ"])).keyId;

/** A third user of the team, to change or remove. */
async function thirdUser(team: Team): Promise<string> {
  const res = await operator("POST", `/partners/${team.partnerId}/users`, {
    email: `third-${crypto.randomUUID()}@example.com`,
    role: "Developer",
  });
  return ((await res.json()) as { user_id: string }).user_id;
}

/** The saved version moved by the operator, so that a rollback is on offer; the change's id. */
async function recentChange(team: Team, env: Env): Promise<string> {
  const res = await operator("PUT", `/partners/${team.partnerId}/saved-versions/${env}`, {
    version: OLDEST,
  });
  expect(res.status).toBe(200);
  const page = await (await team.admin.get(`/dashboard/${env}/version`)).text();
  return /name="change" value="(\d+)"/.exec(page)?.[1] ?? "";
}

/** The saved version the page shows. */
async function savedVersion(team: Team, env: Env): Promise<string> {
  const page = await (await team.admin.get(`/dashboard/${env}/version`)).text();
  return /<strong>([^<]+)<\/strong>, the\s+saved version/.exec(page)?.[1] ?? "";
}

/** An endpoint of the team's partner in `env`, made through the API. */
async function apiEndpoint(team: Team, env: Env): Promise<string> {
  const key = await partnerKey(team.partnerId, env);
  const url = `${RECEIVER}/ok/${uniqueId("matrix")}`;
  return (await createThroughApi(key, { url })).webhook_endpoint_id;
}

async function disabledEndpoint(team: Team, env: Env): Promise<string> {
  const endpointId = await apiEndpoint(team, env);
  await disableAsConsumerDoes(endpointId);
  return endpointId;
}

/** A statement event of the team's product in `env`, and an endpoint: "endpoint event". */
async function eventAndEndpoint(team: Team, env: Env): Promise<string> {
  const [customer, account] = [uniqueId("cus"), uniqueId("acc")];
  await importData({
    customers: [
      {
        customer_id: customer,
        partner_id: team.partnerId,
        environment: env,
        merchant_key: team.merchantKey ?? "",
      },
    ],
    accounts: [{ account_id: account, customer_id: customer, status: "OPEN", currency: "USD" }],
    statements: [
      {
        statement_id: `${account}_st`,
        account_id: account,
        period_end_date: "2026-01-31T23:59:59Z",
        currency: "USD",
        statement_balance: 100,
      },
    ],
  });
  const events = await api("/v2/events?limit=1", { key: await partnerKey(team.partnerId, env) });
  const [event] = (await expectJson<{ data: { event_id: string }[] }>(events, 200)).data;
  return `${await apiEndpoint(team, env)} ${event?.event_id}`;
}

const ATTEMPTS: Record<string, Attempt> = {
  "view keys": { action: "keys.view", send: (client, env) => client.get(`/dashboard/${env}/keys`) },
  "create a key": {
    action: "keys.create",
    send: (client, env) => client.post(`/dashboard/${env}/keys`, { name: "k" }),
  },
  "roll a key": {
    action: "keys.roll",
    prepare: operatorKey,
    send: (client, env, key) =>
      client.post(`/dashboard/${env}/keys/${key}/roll`, { expires: "1h" }),
  },
  "revoke a key": {
    action: "keys.revoke",
    prepare: operatorKey,
    send: (client, env, key) =>
      client.post(`/dashboard/${env}/keys/${key}/revoke`, { cascade: "1" }),
  },
  "view webhooks": {
    action: "webhooks.view",
    send: (client, env) => client.get(`/dashboard/${env}/webhooks`),
  },
  "create a webhook endpoint": {
    action: "webhooks.create",
    send: (client, env) =>
      client.post(`/dashboard/${env}/webhooks`, { url: `${RECEIVER}/ok/${uniqueId("made")}` }),
  },
  "roll a webhook secret": {
    action: "webhooks.roll_secret",
    prepare: apiEndpoint,
    send: (client, env, endpoint) =>
      client.post(`/dashboard/${env}/webhooks/${endpoint}/roll`, { previous: "1h" }),
  },
  "delete a webhook endpoint": {
    action: "webhooks.delete",
    prepare: apiEndpoint,
    send: (client, env, endpoint) => client.post(`/dashboard/${env}/webhooks/${endpoint}/delete`),
  },
  "enable a webhook endpoint": {
    action: "webhooks.enable",
    prepare: disabledEndpoint,
    send: (client, env, endpoint) => client.post(`/dashboard/${env}/webhooks/${endpoint}/enable`),
  },
  "re-send an event": {
    action: "webhooks.resend",
    prepare: eventAndEndpoint,
    send: (client, env, prepared) => {
      const [endpoint, eventId = ""] = prepared.split(" ");
      return client.post(`/dashboard/${env}/webhooks/${endpoint}/resend`, { event_id: eventId });
    },
  },
  "view the API version": {
    action: "version.view",
    send: (client, env) => client.get(`/dashboard/${env}/version`),
  },
  "change the API version": {
    action: "version.change",
    prepare: savedVersion,
    send: (client, env, saved) =>
      client.post(`/dashboard/${env}/version`, {
        from: saved,
        to: RELEASED_VERSIONS.find((v) => v !== saved) as string,
      }),
  },
  "roll back the API version": {
    action: "version.rollback",
    prepare: recentChange,
    send: (client, env, change) => client.post(`/dashboard/${env}/version/rollback`, { change }),
  },
  "view the team": { action: "team.view", send: (client) => client.get("/dashboard/team") },
  "invite a user": {
    action: "team.invite",
    send: (client) =>
      client.post("/dashboard/team", {
        email: `invitee-${crypto.randomUUID()}@example.com`,
        role: "Developer",
      }),
  },
  "change a role": {
    action: "team.change_role",
    prepare: thirdUser,
    send: (client, _env, user) => client.post(`/dashboard/team/${user}/role`, { role: "Admin" }),
  },
  "remove a user": {
    action: "team.remove",
    prepare: thirdUser,
    send: (client, _env, user) => client.post(`/dashboard/team/${user}/remove`),
  },
  "view the audit log": { action: "audit.view", send: (client) => client.get("/dashboard/audit") },
  "view statement documents": {
    action: "documents.view",
    send: (client) => client.get("/dashboard/documents"),
  },
  "change how statement documents look": {
    action: "documents.change",
    prepare: async (team) => team.merchantKey ?? "",
    send: (client, _env, product) =>
      client.post(`/dashboard/documents/${product}`, { accent_colour: "#0a7d4f" }),
  },
  "reset sandbox data": {
    action: "sandbox.reset",
    send: (client, env) =>
      client.post(`/dashboard/${env}/simulations/reset`, { older_than_hours: "24" }),
  },
  "run sandbox simulations": {
    action: "simulations.run",
    send: (client, env) => client.post(`/dashboard/${env}/simulations/customers`),
  },
  "view the overview": {
    action: "overview.view",
    send: (client, env) => client.get(`/dashboard/${env}`),
  },
  "view request logs": {
    action: "logs.view",
    send: (client, env) => client.get(`/dashboard/${env}/logs`),
  },
  "view customer data": {
    action: "data.view",
    send: (client, env) => client.get(`/dashboard/${env}/customers`),
  },
};

async function auditCount(team: Team): Promise<number> {
  const res = await operator("GET", `/partners/${team.partnerId}/audit?limit=100`);
  return (await expectJson<{ data: unknown[] }>(res, 200)).data.length;
}

describe("the role × action × environment rules", () => {
  it("cover every action the dashboard has", () => {
    expect(new Set(RULES.map(([action]) => action))).toEqual(new Set(Object.keys(ATTEMPTS)));
    expect(new Set(Object.values(ATTEMPTS).map((a) => a.action))).toEqual(
      new Set(Object.keys(PERMISSIONS)),
    );
  });

  it("are what the permission table says", () => {
    for (const [action, where, ...allowed] of RULES) {
      const permission = (ATTEMPTS[action] as Attempt).action;
      const envs: Env[] = where === "partner-wide" ? ["sandbox", "production"] : [where];
      for (const env of envs) {
        expect(allows("Admin", permission, env), `Admin ${action} ${env}`).toBe(allowed[0]);
        expect(allows("Developer", permission, env), `Developer ${action} ${env}`).toBe(allowed[1]);
      }
    }
  });

  for (const [action, where, ...allowed] of RULES) {
    const env = where === "partner-wide" ? "production" : where;
    for (const [index, role] of (["Admin", "Developer"] as Role[]).entries()) {
      const may = allowed[index] as boolean;
      it(`${role} ${may ? "may" : "may not"} ${action}${where === "partner-wide" ? "" : ` in ${where}`}`, async () => {
        const team = await seedTeam();
        const client = role === "Admin" ? team.admin : team.developer;
        const attempt = ATTEMPTS[action] as Attempt;
        const prepared = (await attempt.prepare?.(team, env)) ?? "";
        const before = await auditCount(team);
        const res = await attempt.send(client, env, prepared);
        if (may) {
          expect([200, 201, 303], await res.clone().text()).toContain(res.status);
        } else {
          expect(res.status).toBe(403);
          expect(await res.text()).toMatch(/Only Admins can|Developers cannot|Nobody can/);
          expect(await auditCount(team)).toBe(before);
        }
      });
    }
  }
});

describe("what the pages offer", () => {
  it("shows a Developer no production key forms, no version form, no production data and no Admin pages", async () => {
    const team = await seedTeam();
    await createKey(team.partnerId, "production", ["ACCOUNT_READ"]);
    await createKey(team.partnerId, "sandbox", ["ACCOUNT_READ"]);
    const live = await (await team.developer.get("/dashboard/production/keys")).text();
    expect(live).not.toContain('action="/dashboard/production/keys"');
    expect(live).not.toMatch(/\/roll"|\/revoke"/);
    expect(live).toContain("Developers cannot create API keys in production");
    const sandbox = await (await team.developer.get("/dashboard/sandbox/keys")).text();
    expect(sandbox).toContain('action="/dashboard/sandbox/keys"');
    expect(sandbox).toMatch(/\/roll"/);
    const version = await (
      await team.developer.get("/dashboard/sandbox/version?target=latest")
    ).text();
    expect(version).not.toContain('action="/dashboard/sandbox/version"');
    expect(version).toContain("Only Admins can change the saved API version");
    expect(live).not.toContain('href="/dashboard/team"');
    expect(live).not.toContain('href="/dashboard/audit"');
    expect(live).not.toContain('href="/dashboard/production/customers"');
    expect(live).toContain('href="/dashboard/production/logs"');
    expect(sandbox).toContain('href="/dashboard/sandbox/customers"');
  });

  it("never lets one partner's users reach another partner's keys or users", async () => {
    const [ours, theirs] = [await seedTeam(), await seedTeam()];
    const theirKey = await operatorKey(theirs, "sandbox");
    for (const path of [
      `/dashboard/sandbox/keys/${theirKey}/roll`,
      `/dashboard/sandbox/keys/${theirKey}/revoke`,
    ]) {
      expect((await ours.admin.get(path)).status, path).toBe(404);
    }
    expect(
      (await ours.admin.post(`/dashboard/sandbox/keys/${theirKey}/roll`, { expires: "now" }))
        .status,
    ).toBe(404);
    expect(
      (await ours.admin.post(`/dashboard/sandbox/keys/${theirKey}/revoke`, { cascade: "1" }))
        .status,
    ).toBe(404);
    expect(
      (await ours.admin.post(`/dashboard/team/${theirs.adminId}/role`, { role: "Developer" }))
        .status,
    ).toBe(404);
    expect((await ours.admin.post(`/dashboard/team/${theirs.developerId}/remove`)).status).toBe(
      404,
    );
    expect((await ours.admin.get(`/dashboard/team/${theirs.developerId}/remove`)).status).toBe(404);
    // Their key still works, their team is whole.
    const keys = await operator("GET", `/partners/${theirs.partnerId}/keys`);
    const listed = await expectJson<{ data: { key_id: string; status: string }[] }>(keys, 200);
    expect(listed.data.find((k) => k.key_id === theirKey)?.status).toBe("active");
    const users = await expectJson<{ data: unknown[] }>(
      await operator("GET", `/partners/${theirs.partnerId}/users`),
      200,
    );
    expect(users.data).toHaveLength(2);
  });
});
