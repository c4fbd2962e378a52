// The sandbox's bounds: simulations have their own, lower rate limit (per partner, API and
// dashboard together), a sandbox holds a capped number of customers, its simulations close a
// capped number of statements per day, an Admin can reset data older than an age (audited), and
// sandbox customers expire after 90 days. Every refusal names its quota, in each version's shape.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { policyField, RATE_LIMITS } from "../../src/app/rate-policies";
import { bundle } from "../../src/bundle";
import app from "../../src/index";
import { runMaintenance } from "../../src/jobs";
import { SANDBOX_LIMITS } from "../../src/simulations/quotas";
import { api, type ErrorBody, expectJson, operator } from "../support/api";
import { executionContext, fetchWithEnv } from "../support/app-env";
import { ALL_VERSIONS } from "../support/bundle-versions";
import { seedTeam } from "../support/dashboard";
import { eventually } from "../support/eventually";
import {
  createKey,
  type Fixture,
  importData,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import { partnerDatabase } from "../support/shards";

const TIGHT = { SIMULATION_RATE_LIMITER: env.TIGHT_RATE_LIMITER };

function simulate(f: { key: string }, what: string, body?: unknown, headers = {}) {
  return api(`/v2/simulations/${what}`, {
    key: f.key,
    method: "POST",
    ...(body === undefined ? {} : { body }),
    headers,
  });
}

/** Sends simulations with the tight limiter (3 a minute) until the first 429. */
async function untilLimited(send: () => Promise<Response>): Promise<Response[]> {
  const responses: Response[] = [];
  for (let i = 0; i < 7; i++) {
    const res = await send();
    responses.push(res);
    if (res.status === 429) break;
  }
  expect(responses.at(-1)?.status).toBe(429);
  expect(responses.length).toBeGreaterThan(3);
  return responses;
}

/** The text of an error body in any version's shape (ApiError or the SPEC's InvalidRequestError). */
function errorText(body: Record<string, unknown>): string {
  return JSON.stringify(body);
}

/** `count` sandbox customers of the fixture's product, imported. */
async function importCustomers(
  f: Fixture,
  count: number,
  environment: "sandbox" | "production" = "sandbox",
) {
  await importData({
    customers: Array.from({ length: count }, () => ({
      customer_id: uniqueId("cus"),
      partner_id: f.partnerId,
      environment,
      merchant_key: f.merchantKey,
    })),
  });
}

async function setStatementsToday(f: Fixture, statements: number) {
  const db = await partnerDatabase(f.partnerId);
  await db
    .prepare(
      "INSERT INTO sandbox_usage (partner_id, day, statements) VALUES (?, ?, ?) " +
        "ON CONFLICT (partner_id, day) DO UPDATE SET statements = excluded.statements",
    )
    .bind(f.partnerId, new Date().toISOString().slice(0, 10), statements)
    .run();
}

async function statementCount(f: Fixture): Promise<number> {
  const db = await partnerDatabase(f.partnerId);
  return (
    (await db
      .prepare("SELECT count(*) AS n FROM statements WHERE account_id = ?")
      .bind(f.accountId)
      .first<number>("n")) ?? 0
  );
}

describe("the simulation rate limit", () => {
  it("is the partner's own, lower limit: 429 naming it, while reads go on", async () => {
    const f = await seedAccount({ statements: 1 });
    const second = (await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"])).apiKey;
    let turn = 0;
    const send = () =>
      fetchWithEnv(
        "/v2/simulations/customers",
        {
          method: "POST",
          headers: { authorization: `Bearer ${turn++ % 2 === 0 ? f.key : second}` },
        },
        TIGHT,
      );
    const responses = await untilLimited(send);
    const policy = RATE_LIMITS.simulation;
    for (const ok of responses.slice(0, -1)) {
      expect(ok.status).toBe(201);
      expect(ok.headers.get("ratelimit-policy")).toContain(policyField(policy));
    }
    const limited = responses.at(-1) as Response;
    expect(limited.headers.get("retry-after")).toBe(String(policy.period));
    expect(limited.headers.get("ratelimit-policy")).toBe(policyField(policy));
    const body = await expectJson<ErrorBody>(limited, 429);
    expect(body.error.type).toBe("RATE_LIMITED_ERROR");
    expect(body.error.message).toContain(`${policy.limit} per ${policy.period} seconds`);
    expect(policy.limit).toBeLessThan(RATE_LIMITS.partner.limit);
    // Reads of the same partner are served; another partner's simulations too.
    const read = await fetchWithEnv(
      statementsPath(f),
      { headers: { authorization: `Bearer ${f.key}` } },
      TIGHT,
    );
    expect(read.status).toBe(200);
    const other = await seedAccount();
    const theirs = await fetchWithEnv(
      "/v2/simulations/customers",
      { method: "POST", headers: { authorization: `Bearer ${other.key}` } },
      TIGHT,
    );
    expect(theirs.status).toBe(201);
  });

  it("counts the dashboard's simulations with the API's", async () => {
    const team = await seedTeam();
    const tight = async (req: Request) => app.fetch(req, { ...env, ...TIGHT }, executionContext());
    const developer = team.developer.through(tight);
    const statuses: number[] = [];
    for (let i = 0; i < 7 && statuses.at(-1) !== 429; i++) {
      statuses.push((await developer.post("/dashboard/sandbox/simulations/customers", {})).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 303)).toBe(true);
    const page = await developer.post("/dashboard/sandbox/simulations/customers", {});
    expect(page.status).toBe(429);
    expect(await page.text()).toContain("Too many requests");
  });
});

describe("the sandbox's customer quota", () => {
  for (const version of ALL_VERSIONS) {
    it(`refuses the customer over it with 400 naming the quota (version ${version})`, async () => {
      const f = await seedAccount();
      // The fixture's own customer, and the rest up to the quota.
      await importCustomers(f, SANDBOX_LIMITS.customers - 1);
      // Production customers count apart.
      await importCustomers(f, 3, "production");
      const refused = await simulate(f, "customers", undefined, { "x-service-version": version });
      const body = await expectJson<Record<string, unknown>>(refused, 400);
      expect(errorText(body)).toContain("sandbox_customers");
      expect(errorText(body)).toContain(`at most ${SANDBOX_LIMITS.customers} customers`);
      const db = await partnerDatabase(f.partnerId);
      const held = await db
        .prepare("SELECT count(*) AS n FROM customers WHERE partner_id = ? AND environment = ?")
        .bind(f.partnerId, "sandbox")
        .first<number>("n");
      expect(held).toBe(SANDBOX_LIMITS.customers);
    });
  }
});

describe("the daily statement quota", () => {
  it("closes statements up to it, then answers 429 naming it, with when it resets", async () => {
    const f = await seedAccount();
    const body = { customer_id: f.customerId, account_id: f.accountId };
    await setStatementsToday(f, SANDBOX_LIMITS.statementsPerDay - 1);
    expect((await simulate(f, "statements", body)).status).toBe(201);
    expect(await statementCount(f)).toBe(1);

    const refused = await simulate(f, "statements", body);
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    // RateLimit says how long until midnight; Retry-After asks for a minute at most.
    const reset = Number(/;t=(\d+)$/.exec(refused.headers.get("ratelimit") ?? "")?.[1]);
    expect(Math.abs(reset - (midnight.getTime() - Date.now()) / 1000)).toBeLessThan(60);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit-policy")).toBe(
      `"sandbox-statements";q=${SANDBOX_LIMITS.statementsPerDay};w=86400`,
    );
    const error = await expectJson<ErrorBody>(refused, 429);
    expect(error.error.type).toBe("RATE_LIMITED_ERROR");
    expect(error.error.message).toContain("sandbox_statements_per_day");
    expect(error.error.message).toContain(`${SANDBOX_LIMITS.statementsPerDay} statements per day`);
    expect(error.error.message).toContain(midnight.toISOString());
    // Nothing was stored: no statement, event or render.
    expect(await statementCount(f)).toBe(1);
  });

  it("holds when cycles close at once: exactly the quota's remainder is stored", async () => {
    const a = await seedAccount();
    const db = await partnerDatabase(a.partnerId);
    // A second account of the same partner, so that the two cycles do not race on one account.
    const accountId = uniqueId("acc");
    await importData({
      accounts: [{ account_id: accountId, customer_id: a.customerId, status: "OPEN" }],
    });
    await setStatementsToday(a, SANDBOX_LIMITS.statementsPerDay - 1);
    const answers = await Promise.all(
      [a.accountId, accountId].map((account) =>
        simulate(a, "statements", { customer_id: a.customerId, account_id: account }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 429]);
    const closed = await db
      .prepare("SELECT statements FROM sandbox_usage WHERE partner_id = ?")
      .bind(a.partnerId)
      .first<number>("statements");
    expect(closed).toBe(SANDBOX_LIMITS.statementsPerDay);
  });

  it("is in every version's shape", async () => {
    for (const version of bundle.versions.map((v) => v.id)) {
      const f = await seedAccount();
      await setStatementsToday(f, SANDBOX_LIMITS.statementsPerDay);
      const refused = await simulate(
        f,
        "statements",
        { customer_id: f.customerId, account_id: f.accountId },
        { "x-service-version": version },
      );
      expect(refused.status).toBe(429);
      expect(refused.headers.get("x-service-version")).toBe(version);
    }
  });
});

describe("resetting sandbox data", () => {
  it("is for Admins: it deletes what is older than the age chosen, and the audit log says so", {
    timeout: 60_000,
  }, async () => {
    const team = await seedTeam();
    const { apiKey } = await createKey(team.partnerId, "sandbox", ["ACCOUNT_READ"]);
    const key = { key: apiKey };
    const made = async () =>
      expectJson<{ customer_id: string; accounts: { account_id: string }[] }>(
        await simulate(key, "customers"),
        201,
      );
    const [old, recent] = [await made(), await made()];
    const cycle = await expectJson<{ statement_id: string }>(
      await simulate(key, "statements", {
        customer_id: old.customer_id,
        account_id: old.accounts[0]?.account_id,
      }),
      201,
    );
    const db = await partnerDatabase(team.partnerId);
    // Its document rendered (the statement's events and render are written too).
    const pdfKey = await eventually(
      () =>
        db
          .prepare("SELECT pdf_key FROM statements WHERE statement_id = ?")
          .bind(cycle.statement_id)
          .first<string | null>("pdf_key"),
      (key) => typeof key === "string",
      30_000,
    );
    expect(await env.PDFS.head(pdfKey as string)).not.toBeNull();
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
    await db
      .prepare("UPDATE customers SET created_at = ? WHERE customer_id = ?")
      .bind(twoHoursAgo, old.customer_id)
      .run();
    // A production customer as old is no sandbox data.
    const production = uniqueId("cus");
    await importData({
      customers: [
        {
          customer_id: production,
          partner_id: team.partnerId,
          environment: "production",
          merchant_key: team.merchantKey as string,
        },
      ],
    });
    await db
      .prepare("UPDATE customers SET created_at = ? WHERE customer_id = ?")
      .bind(twoHoursAgo, production)
      .run();

    const page = await (await team.developer.get("/dashboard/sandbox/simulations")).text();
    expect(page).toContain("Only Admins can reset sandbox data.");
    const refused = await team.developer.post("/dashboard/sandbox/simulations/reset", {
      older_than_hours: "1",
    });
    expect(refused.status).toBe(403);
    const badAge = await team.admin.post("/dashboard/sandbox/simulations/reset", {
      older_than_hours: "0",
    });
    expect(badAge.status).toBe(400);

    const reset = await team.admin.post("/dashboard/sandbox/simulations/reset", {
      older_than_hours: "1",
    });
    expect(reset.status).toBe(303);
    const notice = await (await team.admin.get(reset.headers.get("location") ?? "")).text();
    expect(notice).toContain("Sandbox reset: 1 customer and 1 statement deleted.");
    const gone = await api(`/v2/customers/${old.customer_id}`, key);
    expect(gone.status).toBe(404);
    expect((await api(`/v2/customers/${recent.customer_id}`, key)).status).toBe(200);
    for (const table of ["statements", "statement_renders", "events"]) {
      const left = await db
        .prepare(`SELECT count(*) AS n FROM ${table} WHERE statement_id = ?`)
        .bind(cycle.statement_id)
        .first<number>("n");
      expect(left, table).toBe(0);
    }
    expect(await env.PDFS.head(pdfKey as string)).toBeNull();
    const kept = await db
      .prepare("SELECT count(*) AS n FROM customers WHERE customer_id = ?")
      .bind(production)
      .first<number>("n");
    expect(kept).toBe(1);

    const audit = await expectJson<{
      data: { action: string; details: unknown; actor: unknown }[];
    }>(await operator("GET", `/partners/${team.partnerId}/audit`), 200);
    const entry = audit.data.find((e) => e.action === "sandbox.reset");
    expect(entry?.details).toMatchObject({ older_than_hours: 1 });
    expect(entry?.actor).toMatchObject({ type: "user", label: team.admin.email });
  });
});

describe("the sandbox's expiry", () => {
  it("deletes sandbox customers 90 days after they were made, and nothing else", async () => {
    const f = await seedAccount({ statements: 2 });
    const young = await seedAccount();
    const db = await partnerDatabase(f.partnerId);
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    await db
      .prepare("UPDATE customers SET created_at = ? WHERE customer_id = ?")
      .bind(daysAgo(SANDBOX_LIMITS.expiryDays + 1), f.customerId)
      .run();
    const youngDb = await partnerDatabase(young.partnerId);
    await youngDb
      .prepare("UPDATE customers SET created_at = ? WHERE customer_id = ?")
      .bind(daysAgo(SANDBOX_LIMITS.expiryDays - 1), young.customerId)
      .run();
    await runMaintenance(
      createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }),
      env,
    );
    expect((await api(`/v2/customers/${f.customerId}`, { key: f.key })).status).toBe(404);
    expect(await statementCount(f)).toBe(0);
    expect((await api(`/v2/customers/${young.customerId}`, { key: young.key })).status).toBe(200);
  });
});

describe("the reference", () => {
  it("states every number of the sandbox's bounds", async () => {
    const doc = await expectJson<{ info: { description: string } }>(
      await fetchWithEnv(`/openapi/${ALL_VERSIONS[0]}.json`, {}, {}),
      200,
    );
    const text = doc.info.description;
    for (const fact of [
      `${RATE_LIMITS.simulation.limit} simulations per ${RATE_LIMITS.simulation.period} seconds`,
      `${SANDBOX_LIMITS.customers} customers`,
      `${SANDBOX_LIMITS.statementsPerDay} statements per day`,
      `${SANDBOX_LIMITS.expiryDays} days`,
      "sandbox_customers",
      "sandbox_statements_per_day",
    ]) {
      expect(text, fact).toContain(fact);
    }
  });
});
