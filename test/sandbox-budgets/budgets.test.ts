// The sandbox's volume budgets: a simulated statement carries fewer line items than an imported
// one, a partner's simulations carry a bounded number of line items a day, its sandbox writes hold
// a bounded number of rows, and a shard near its capacity refuses sandbox writes while production
// writes and the operator's imports go on. Every refusal is a 429 naming its budget, with a
// Retry-After of a minute at most, and stores nothing.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { runMaintenance } from "../../src/jobs";
import { SANDBOX_BUDGETS, SHARD_THRESHOLD_BYTES } from "../../src/sandbox-budgets";
import { api, type ErrorBody, expectJson } from "../support/api";
import { fetchWithEnv } from "../support/app-env";
import { ALL_VERSIONS } from "../support/bundle-versions";
import { seedTeam } from "../support/dashboard";
import { createKey, type Fixture, importData, seedAccount, uniqueId } from "../support/fixtures";
import { partnerDatabase, SHARDS, shardDatabase, shardOf } from "../support/shards";

const WRITER = ["ACCOUNT_READ", "ORDER_WRITE", "TRANSACTION_INTENT_WRITE"];

function post(key: string, path: string, body: unknown) {
  return api(path, { key, method: "POST", body });
}

/** `count` purchases of 1.00 posted in May 2026, and the cycle they close. */
function cycleOf(f: Fixture, count: number) {
  return {
    customer_id: f.customerId,
    account_id: f.accountId,
    period_end_date: "2026-05-31T23:59:59Z",
    line_items: Array.from({ length: count }, (_, i) => ({
      line_item_id: `li_${i}`,
      type: "PURCHASE" as const,
      posted_at: `2026-05-${String(1 + (i % 28)).padStart(2, "0")}T12:00:00Z`,
      description: "GREEN VALLEY GROCERS",
      amount: 100,
    })),
  };
}

function orderOf(customerId: string) {
  return {
    partner_order_id: uniqueId("po"),
    customer_id: customerId,
    currency: "USD",
    total_amount: 2500,
  };
}

/** A capture of `amount` on the order `orderId`, under a fresh network transaction id. */
function captureOf(orderId: string, amount: number) {
  return { order_id: orderId, type: "CAPTURED", amount, network_transaction_id: uniqueId("ntx") };
}

/** Today's usage of the partner, as the budgets count it. */
async function setUsage(
  f: { partnerId: string },
  usage: { lineItems?: number; rows?: number },
  day = new Date().toISOString().slice(0, 10),
) {
  const db = await partnerDatabase(f.partnerId);
  await db
    .prepare(
      "INSERT INTO sandbox_usage (partner_id, day, statements, line_items, rows) " +
        "VALUES (?1, ?2, 0, ?3, ?4) ON CONFLICT (partner_id, day) DO UPDATE SET " +
        "line_items = excluded.line_items, rows = excluded.rows",
    )
    .bind(f.partnerId, day, usage.lineItems ?? 0, usage.rows ?? 0)
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

/** A 429 naming `budget`, asking to wait a minute at most. */
async function expectRefused(res: Response, budget: string): Promise<void> {
  const wait = Number(res.headers.get("retry-after"));
  const body = await expectJson<ErrorBody>(res, 429);
  expect(body.error.type).toBe("RATE_LIMITED_ERROR");
  expect(body.error.message).toContain(budget);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(60);
}

describe("a simulated statement's line items", () => {
  it("are capped lower than an imported statement's: 400 naming the budget", async () => {
    const f = await seedAccount();
    const over = SANDBOX_BUDGETS.lineItemsPerStatement + 1;
    for (const version of ALL_VERSIONS) {
      const res = await api("/v2/simulations/statements", {
        key: f.key,
        method: "POST",
        body: cycleOf(f, over),
        headers: { "x-service-version": version },
      });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("sandbox_line_items_per_statement");
    }
    expect(await statementCount(f)).toBe(0);
    const fits = await post(f.key, "/v2/simulations/statements", cycleOf(f, over - 1));
    expect(fits.status).toBe(201);
    // The operator's import of a sandbox statement is bound by the import's own cap only.
    await importData({
      statements: [
        {
          statement_id: uniqueId("st"),
          account_id: f.accountId,
          period_start_date: "2026-06-01T00:00:00Z",
          period_end_date: "2026-06-30T23:59:59Z",
          currency: "USD",
          purchases: 100 * over,
          line_items: cycleOf(f, over).line_items.map((item, i) => ({
            ...item,
            posted_at: `2026-06-${String(1 + (i % 28)).padStart(2, "0")}T12:00:00Z`,
          })),
        },
      ],
    });
    expect(await statementCount(f)).toBe(2);
  });
});

describe("the daily line-item budget", () => {
  it("closes cycles up to it, then answers 429 naming it and stores nothing", async () => {
    const f = await seedAccount();
    await setUsage(f, { lineItems: SANDBOX_BUDGETS.lineItemsPerDay - 5 });
    const refused = await post(f.key, "/v2/simulations/statements", cycleOf(f, 6));
    await expectRefused(refused, "sandbox_line_items_per_day");
    expect(refused.headers.get("ratelimit-policy")).toBe(
      `"sandbox-line-items";q=${SANDBOX_BUDGETS.lineItemsPerDay};w=86400`,
    );
    expect(await statementCount(f)).toBe(0);
    const fits = await post(f.key, "/v2/simulations/statements", cycleOf(f, 5));
    expect(fits.status).toBe(201);
    const db = await partnerDatabase(f.partnerId);
    const usage = await db
      .prepare("SELECT line_items, rows, statements FROM sandbox_usage WHERE partner_id = ?")
      .bind(f.partnerId)
      .first();
    expect(usage).toEqual({
      line_items: SANDBOX_BUDGETS.lineItemsPerDay,
      rows: 6,
      statements: 1,
    });
  });
});

describe("the rows-held budget", () => {
  it("refuses every sandbox write once full, production's never, and frees as days expire", async () => {
    const f = await seedAccount({ scopes: WRITER });
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    // Rows made 30 days ago are still held: they have not expired.
    await setUsage(f, { rows: SANDBOX_BUDGETS.rowsHeld }, daysAgo(30));
    await expectRefused(
      await post(f.key, "/v2/orders", orderOf(f.customerId)),
      "sandbox_rows_held",
    );
    await expectRefused(
      await post(f.key, "/v2/transaction_intents", {
        customer_id: f.customerId,
        amount: 500,
        currency: "USD",
      }),
      "sandbox_rows_held",
    );
    await expectRefused(await post(f.key, "/v2/simulations/customers", {}), "sandbox_rows_held");
    await expectRefused(
      await post(f.key, "/v2/simulations/statements", cycleOf(f, 1)),
      "sandbox_rows_held",
    );
    await expectRefused(
      await post(f.key, "/v2/simulations/payment_methods", {
        customer_id: f.customerId,
        account_id: f.accountId,
      }),
      "sandbox_rows_held",
    );
    // Production writes of the same partner are not the sandbox's.
    const live = uniqueId("cus");
    await importData({
      customers: [
        {
          customer_id: live,
          partner_id: f.partnerId,
          environment: "production",
          merchant_key: f.merchantKey,
        },
      ],
    });
    const liveKey = (await createKey(f.partnerId, "production", WRITER)).apiKey;
    expect((await post(liveKey, "/v2/orders", orderOf(live))).status).toBe(201);
    // Rows made before the expiry window have expired with their data.
    const db = await partnerDatabase(f.partnerId);
    await db
      .prepare("UPDATE sandbox_usage SET day = ?1 WHERE partner_id = ?2")
      .bind(daysAgo(91), f.partnerId)
      .run();
    const order = await post(f.key, "/v2/orders", orderOf(f.customerId));
    expect(order.status).toBe(201);
    const { order_id: orderId } = await expectJson<{ order_id: string }>(order, 201);
    const event = await post(f.key, "/v2/order_events", captureOf(orderId, 100));
    expect(event.status).toBe(201);
    const counted = await db
      .prepare("SELECT rows FROM sandbox_usage WHERE partner_id = ? AND day = ?")
      .bind(f.partnerId, daysAgo(0))
      .first<number>("rows");
    expect(counted).toBe(2);
  });
});

describe("an order event's charge", () => {
  it("rides in the event's batch: refused with nothing written while full, counted only when written", async () => {
    const f = await seedAccount({ scopes: WRITER });
    const { order_id: orderId } = await expectJson<{ order_id: string }>(
      await post(f.key, "/v2/orders", orderOf(f.customerId)),
      201,
    );
    const capture = (amount: number) => post(f.key, "/v2/order_events", captureOf(orderId, amount));
    const db = await partnerDatabase(f.partnerId);
    const today = new Date().toISOString().slice(0, 10);
    const rowsToday = () =>
      db
        .prepare("SELECT rows FROM sandbox_usage WHERE partner_id = ? AND day = ?")
        .bind(f.partnerId, today)
        .first<number>("rows");
    const written = async () => ({
      events: await db
        .prepare("SELECT count(*) AS n FROM order_events WHERE order_id = ?")
        .bind(orderId)
        .first<number>("n"),
      captured: await db
        .prepare("SELECT captured_amount FROM orders WHERE order_id = ?")
        .bind(orderId)
        .first<number>("captured_amount"),
    });
    await setUsage(f, { rows: SANDBOX_BUDGETS.rowsHeld });
    await expectRefused(await capture(100), "sandbox_rows_held");
    expect(await written()).toEqual({ events: 0, captured: 0 });
    expect(await rowsToday()).toBe(SANDBOX_BUDGETS.rowsHeld);
    // An order of another partner is not found before any budget is read.
    const other = await seedAccount({ scopes: WRITER });
    const { order_id: theirs } = await expectJson<{ order_id: string }>(
      await post(other.key, "/v2/orders", orderOf(other.customerId)),
      201,
    );
    const foreign = await post(f.key, "/v2/order_events", captureOf(theirs, 1));
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).toContain("ORDER_NOT_FOUND_ERROR");
    await setUsage(f, { rows: 0 });
    expect((await capture(100)).status).toBe(201);
    expect(await rowsToday()).toBe(1);
    // A capture past the order's total is refused by the order, and holds no row.
    expect((await capture(1_000_000)).status).toBe(409);
    expect(await rowsToday()).toBe(1);
    expect(await written()).toEqual({ events: 1, captured: 100 });
  });
});

describe("the dashboard's sandbox page", () => {
  it("shows what the budgets count, and an Admin's reset gives back the rows before it", async () => {
    const team = await seedTeam();
    const f = { partnerId: team.partnerId };
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    await setUsage(f, { rows: 700 }, day(3));
    await setUsage(f, { lineItems: 42, rows: 50 }, day(0));
    const page = await (await team.developer.get("/dashboard/sandbox/simulations")).text();
    expect(page).toContain(
      `Line items of simulated statements today: 42 of ${SANDBOX_BUDGETS.lineItemsPerDay}`,
    );
    expect(page).toContain(`750 of ${SANDBOX_BUDGETS.rowsHeld}`);
    const reset = await team.admin.post("/dashboard/sandbox/simulations/reset", {
      older_than_hours: "24",
    });
    expect(reset.status).toBe(303);
    const after = await (await team.developer.get("/dashboard/sandbox/simulations")).text();
    expect(after).toContain(`50 of ${SANDBOX_BUDGETS.rowsHeld}`);
  });
});

describe("a row's weight", () => {
  it("is one row per kilobyte begun of the body it stores", async () => {
    const f = await seedAccount({ scopes: WRITER });
    const lines = Array.from({ length: 10 }, (_, i) => ({
      name: `Item ${i}`,
      quantity: 1,
      unit_amount: 250,
      product_url: `https://shop.example/${"p".repeat(1_000)}/${i}`,
    }));
    const body = { ...orderOf(f.customerId), lines };
    const bytes = new TextEncoder().encode(JSON.stringify(body)).byteLength;
    expect((await post(f.key, "/v2/orders", body)).status).toBe(201);
    const db = await partnerDatabase(f.partnerId);
    const counted = await db
      .prepare("SELECT rows FROM sandbox_usage WHERE partner_id = ?")
      .bind(f.partnerId)
      .first<number>("rows");
    expect(counted).toBe(Math.ceil(bytes / 1024));
    expect(counted).toBeGreaterThan(10);
  });
});

describe("the shard's guard", () => {
  let restore: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await restore?.();
    restore = null;
  });

  it("refuses sandbox writes on a shard past its threshold, never production's or imports", async () => {
    const f = await seedAccount({ scopes: WRITER });
    const shard = shardDatabase(await shardOf(f.partnerId));
    const before = await shard.prepare("SELECT bytes, measured_at FROM shard_size").first();
    restore = async () => {
      await shard.prepare("DELETE FROM shard_size").run();
      if (before) {
        await shard
          .prepare("INSERT INTO shard_size (id, bytes, measured_at) VALUES (1, ?, ?)")
          .bind(before.bytes, before.measured_at)
          .run();
      }
    };
    await shard
      .prepare(
        "INSERT INTO shard_size (id, bytes, measured_at) VALUES (1, ?1, ?2) " +
          "ON CONFLICT (id) DO UPDATE SET bytes = excluded.bytes",
      )
      .bind(SHARD_THRESHOLD_BYTES, new Date().toISOString())
      .run();
    await expectRefused(
      await post(f.key, "/v2/orders", orderOf(f.customerId)),
      "sandbox_shard_capacity",
    );
    await expectRefused(
      await post(f.key, "/v2/simulations/statements", cycleOf(f, 1)),
      "sandbox_shard_capacity",
    );
    await expectRefused(
      await post(f.key, "/v2/simulations/customers", {}),
      "sandbox_shard_capacity",
    );
    expect(await statementCount(f)).toBe(0);
    // Production writes on the same shard, and the operator's imports, go on.
    const live = uniqueId("cus");
    await importData({
      customers: [
        {
          customer_id: live,
          partner_id: f.partnerId,
          environment: "production",
          merchant_key: f.merchantKey,
        },
      ],
    });
    const liveKey = (await createKey(f.partnerId, "production", WRITER)).apiKey;
    expect((await post(liveKey, "/v2/orders", orderOf(live))).status).toBe(201);
  });

  it("reads the size the maintenance cron measures on every shard", async () => {
    const started = new Date().toISOString();
    await runMaintenance(
      createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }),
      env,
    );
    for (const code of SHARDS) {
      const { meta } = await shardDatabase(code).prepare("SELECT 1").run();
      const row = await shardDatabase(code)
        .prepare("SELECT bytes, measured_at FROM shard_size WHERE id = 1")
        .first<{ bytes: number; measured_at: string }>();
      expect(row?.bytes, code).toBeGreaterThan(0);
      expect(row?.bytes, code).toBeLessThanOrEqual(meta.size_after);
      expect(row?.bytes, code).toBeLessThan(SHARD_THRESHOLD_BYTES);
      expect((row?.measured_at ?? "") >= started.slice(0, 16), code).toBe(true);
    }
  });
});

describe("the reference", () => {
  it("states every budget and its number", async () => {
    const doc = await expectJson<{ info: { description: string } }>(
      await fetchWithEnv(`/openapi/${ALL_VERSIONS[0]}.json`, {}, {}),
      200,
    );
    const text = doc.info.description;
    for (const fact of [
      "sandbox_line_items_per_statement",
      `${SANDBOX_BUDGETS.lineItemsPerStatement} line items`,
      "sandbox_line_items_per_day",
      `${SANDBOX_BUDGETS.lineItemsPerDay.toLocaleString("en-US")} line items per day`,
      "sandbox_rows_held",
      `${SANDBOX_BUDGETS.rowsHeld.toLocaleString("en-US")} rows`,
      "sandbox_shard_capacity",
      `${SANDBOX_BUDGETS.shardThreshold * 100} %`,
    ]) {
      expect(text, fact).toContain(fact);
    }
  });
});
