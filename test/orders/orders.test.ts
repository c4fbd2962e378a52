// /v2/orders: created 201 with lines adding up to the total, unique partner ids per product (409
// naming the order holding it), identity fields that cannot change, a total never below the
// captures, no delete while events exist, and every version's error shapes.
import { describe, expect, it } from "vitest";
import { api, type ErrorBody, expectJson } from "../support/api";
import { ALL_VERSIONS } from "../support/bundle-versions";
import { storeCard } from "../support/card-rows";
import {
  createKey,
  type Fixture,
  importData,
  newAccountImport,
  seedAccount,
  uniqueId,
} from "../support/fixtures";
import { partnerDatabase } from "../support/shards";

const SCOPES = ["ORDER_READ", "ORDER_WRITE"];

interface Order {
  order_id: string;
  partner_order_id: string;
  customer_id: string;
  payment_method_id?: string;
  currency: string;
  total_amount: number;
  lines: { name: string; quantity: number; unit_amount: number }[];
  captured_amount: number;
  refunded_amount: number;
  created_at: string;
  updated_at: string;
}

function orderBody(f: Fixture, extra: Record<string, unknown> = {}) {
  return {
    partner_order_id: uniqueId("po"),
    customer_id: f.customerId,
    currency: "USD",
    total_amount: 2500,
    lines: [
      { name: "Mug", quantity: 2, unit_amount: 1000 },
      { name: "Tea", quantity: 1, unit_amount: 500, product_url: "https://shop.example/tea" },
    ],
    merchant: { name: "Example Shop", category_code: "5812", country: "US" },
    ...extra,
  };
}

function post(f: Fixture, path: string, body: unknown, headers: Record<string, string> = {}) {
  return api(path, { key: f.key, method: "POST", body, version: "latest", headers });
}

async function createOrder(f: Fixture, extra: Record<string, unknown> = {}): Promise<Order> {
  return expectJson<Order>(await post(f, "/v2/orders", orderBody(f, extra)), 201);
}

describe("creating an order", () => {
  it("answers 201 with the order, its lines and zero sums", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const card = await storeCard(f);
    const order = await createOrder(f, { payment_method_id: card, rewards_amount: 25 });
    expect(order).toMatchObject({
      customer_id: f.customerId,
      payment_method_id: card,
      currency: "USD",
      total_amount: 2500,
      rewards_amount: 25,
      captured_amount: 0,
      refunded_amount: 0,
      merchant: { name: "Example Shop", category_code: "5812", country: "US" },
    });
    expect(order.order_id).toMatch(/^ord_/);
    expect(order.lines).toHaveLength(2);
  });

  it("refuses lines that do not add up to the total, naming lines", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const res = await post(f, "/v2/orders", orderBody(f, { total_amount: 2600 }));
    const body = await expectJson<ErrorBody>(res, 400);
    expect(body.error.type).toBe("INVALID_REQUEST_ERROR");
    expect(body.error.param).toBe("lines");
    expect(body.error.message).toContain("2500");
  });

  it.each([
    ["an unknown field", { colour: "red" }, "colour"],
    [
      "an unknown line field",
      { lines: [{ name: "x", quantity: 1, unit_amount: 2500, sku: 1 }] },
      "sku",
    ],
    ["a fractional amount", { total_amount: 25.5, lines: undefined }, "total_amount"],
    ["a lower-case currency", { currency: "usd" }, "currency"],
    [
      "a bad category code",
      { merchant: { name: "x", category_code: "58" } },
      "merchant.category_code",
    ],
    [
      "too many lines",
      {
        total_amount: 101,
        lines: Array.from({ length: 101 }, () => ({ name: "x", quantity: 1, unit_amount: 1 })),
      },
      "lines",
    ],
  ])("refuses %s with a 400 naming it", async (_, extra, param) => {
    const f = await seedAccount({ scopes: SCOPES });
    const body = await expectJson<ErrorBody>(await post(f, "/v2/orders", orderBody(f, extra)), 400);
    expect(body.error.type).toBe("INVALID_REQUEST_ERROR");
    expect(body.error.param).toBe(param);
  });

  it("answers 404 for a customer that is not the caller's, and 400 for a card not the customer's", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const other = await seedAccount({ scopes: SCOPES });
    const missing = await post(f, "/v2/orders", orderBody(f, { customer_id: other.customerId }));
    const notFound = await expectJson<ErrorBody>(missing, 404);
    expect(notFound.error).toMatchObject({
      type: "CUSTOMER_NOT_FOUND_ERROR",
      param: "customer_id",
    });
    for (const card of [await storeCard(other), "pm_nothing"]) {
      const res = await post(f, "/v2/orders", orderBody(f, { payment_method_id: card }));
      const body = await expectJson<ErrorBody>(res, 400);
      expect(body.error.param).toBe("payment_method_id");
    }
  });

  it("refuses a second order with the same partner_order_id, naming the first", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const first = await createOrder(f, { partner_order_id: "po-1" });
    const again = await post(f, "/v2/orders", orderBody(f, { partner_order_id: "po-1" }));
    const body = await expectJson<ErrorBody>(again, 409);
    expect(body.error.type).toBe("CONFLICT_ERROR");
    expect(body.error.message).toContain(first.order_id);
    // Another partner may use the same id for its own order.
    const other = await seedAccount({ scopes: SCOPES });
    await createOrder(other, { partner_order_id: "po-1" });
  });

  it("creates exactly one order when the same partner_order_id races", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const body = orderBody(f, { partner_order_id: "po-race" });
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(f, "/v2/orders", body)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    const list = await expectJson<{ data: Order[] }>(
      await api("/v2/orders?partner_order_id=po-race", { key: f.key, version: "latest" }),
      200,
    );
    expect(list.data).toHaveLength(1);
  });

  it("replays the first answer for the same Idempotency-Key, and refuses it for another body", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const body = orderBody(f);
    const headers = { "Idempotency-Key": uniqueId("idem") };
    const first = await expectJson<Order>(await post(f, "/v2/orders", body, headers), 201);
    const replay = await post(f, "/v2/orders", body, headers);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await expectJson<Order>(replay, 201)).toEqual(first);
    const other = await post(f, "/v2/orders", orderBody(f), headers);
    expect((await expectJson<ErrorBody>(other, 422)).error.type).toBe(
      "IDEMPOTENCY_KEY_REUSED_ERROR",
    );
  });

  it("needs ORDER_WRITE before it looks at anything, and ORDER_READ to list", async () => {
    const f = await seedAccount({ scopes: ["ORDER_READ"] });
    const res = await post(f, "/v2/orders", orderBody(f));
    expect((await expectJson<ErrorBody>(res, 403)).error.type).toBe("FORBIDDEN_ERROR");
    // A malformed body still meets the scope first.
    expect((await post(f, "/v2/orders", { nonsense: true })).status).toBe(403);
    const writer = await createKey(f.partnerId, "sandbox", ["ORDER_WRITE"]);
    const list = await api("/v2/orders", { key: writer.apiKey, version: "latest" });
    expect(list.status).toBe(403);
  });

  it("pauses writes with 503 and Retry-After while the partner moves, and still reads", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const db = await partnerDatabase(f.partnerId);
    await db
      .prepare("UPDATE partners SET moving_to = 'zz' WHERE partner_id = ?")
      .bind(f.partnerId)
      .run();
    try {
      const res = await post(f, "/v2/orders", orderBody(f));
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toMatch(/^[0-9]+$/);
      expect((await api("/v2/orders", { key: f.key, version: "latest" })).status).toBe(200);
    } finally {
      await db
        .prepare("UPDATE partners SET moving_to = NULL WHERE partner_id = ?")
        .bind(f.partnerId)
        .run();
    }
  });
});

describe("listing orders", () => {
  it("answers newest first, pages by id and filters by customer and partner_order_id", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const made: Order[] = [];
    for (let i = 0; i < 3; i += 1) made.push(await createOrder(f));
    const read = (query: string) =>
      api(`/v2/orders${query}`, { key: f.key, version: "latest" }).then((r) =>
        expectJson<{ data: Order[]; has_more: boolean }>(r, 200),
      );
    const first = await read("?limit=2");
    expect(first.data.map((o) => o.order_id)).toEqual([made[2]?.order_id, made[1]?.order_id]);
    expect(first.has_more).toBe(true);
    const next = await read(`?limit=2&starting_after=${first.data[1]?.order_id}`);
    expect(next.data.map((o) => o.order_id)).toEqual([made[0]?.order_id]);
    expect(next.has_more).toBe(false);
    expect((await read(`?customer_id=${f.customerId}`)).data).toHaveLength(3);
    expect((await read("?customer_id=cus_nobody")).data).toHaveLength(0);
    const byPartnerId = await read(`?partner_order_id=${made[1]?.partner_order_id}`);
    expect(byPartnerId.data.map((o) => o.order_id)).toEqual([made[1]?.order_id]);
    const both = await read(
      `?customer_id=${f.customerId}&partner_order_id=${made[1]?.partner_order_id}`,
    );
    expect(both.data.map((o) => o.order_id)).toEqual([made[1]?.order_id]);
    const onwards = await read(
      `?customer_id=${f.customerId}&limit=1&starting_after=${made[1]?.order_id}`,
    );
    expect([onwards.data.map((o) => o.order_id), onwards.has_more]).toEqual([
      [made[0]?.order_id],
      false,
    ]);
    // The whole order, as created, whichever way it is read.
    expect(byPartnerId.data[0]).toEqual(made[1]);
    const bad = await api("/v2/orders?customer_id=a&customer_id=b", {
      key: f.key,
      version: "latest",
    });
    expect((await expectJson<ErrorBody>(bad, 400)).error.param).toBe("customer_id");
  });

  it("shows nothing of another partner's or another product's orders", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const other = await seedAccount({ scopes: SCOPES });
    const theirs = await createOrder(other);
    const mine = await expectJson<{ data: Order[] }>(
      await api("/v2/orders", { key: f.key, version: "latest" }),
      200,
    );
    expect(mine.data).toEqual([]);
    const put = await api(`/v2/orders/${theirs.order_id}`, {
      key: f.key,
      method: "PUT",
      body: orderBody(f),
      version: "latest",
    });
    expect((await expectJson<ErrorBody>(put, 404)).error.type).toBe("ORDER_NOT_FOUND_ERROR");
  });
});

describe("updating and deleting an order", () => {
  function put(f: Fixture, orderId: string, body: unknown, version = "latest") {
    return api(`/v2/orders/${orderId}`, { key: f.key, method: "PUT", body, version });
  }

  it("replaces what may change and keeps partner_order_id, customer_id and currency", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await createOrder(f);
    const same = { ...orderBody(f), partner_order_id: order.partner_order_id };
    const updated = await expectJson<Order>(
      await put(f, order.order_id, {
        ...same,
        total_amount: 3000,
        lines: [{ name: "Box", quantity: 3, unit_amount: 1000 }],
      }),
      200,
    );
    expect(updated).toMatchObject({ total_amount: 3000, created_at: order.created_at });
    expect(updated.lines).toEqual([{ name: "Box", quantity: 3, unit_amount: 1000 }]);
    for (const [field, value] of [
      ["partner_order_id", "po-other"],
      ["currency", "EUR"],
      ["customer_id", "cus_other"],
    ] as const) {
      const res = await put(f, order.order_id, { ...same, [field]: value });
      expect((await expectJson<ErrorBody>(res, 400)).error.param).toBe(field);
    }
  });

  it("refuses a total below what was captured (409) and a delete while events exist (409)", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await createOrder(f);
    const capture = await expectJson<{ order_event_id: string }>(
      await post(f, "/v2/order_events", {
        order_id: order.order_id,
        type: "CAPTURED",
        amount: 2000,
        network_transaction_id: "ntx-1",
      }),
      201,
    );
    const lower = {
      ...orderBody(f),
      partner_order_id: order.partner_order_id,
      total_amount: 1500,
      lines: undefined,
    };
    const res = await put(f, order.order_id, lower);
    expect((await expectJson<ErrorBody>(res, 409)).error.type).toBe("CONFLICT_ERROR");
    const del = await api(`/v2/orders/${order.order_id}`, {
      key: f.key,
      method: "DELETE",
      version: "latest",
    });
    expect((await expectJson<ErrorBody>(del, 409)).error.type).toBe("CONFLICT_ERROR");
    // Without its event the order goes, and is then not found anywhere.
    const gone = await api(`/v2/order_events/${capture.order_event_id}`, {
      key: f.key,
      method: "DELETE",
      version: "latest",
    });
    expect(gone.status).toBe(204);
    const deleted = await api(`/v2/orders/${order.order_id}`, {
      key: f.key,
      method: "DELETE",
      version: "latest",
    });
    expect(deleted.status).toBe(204);
    const again = await api(`/v2/orders/${order.order_id}`, {
      key: f.key,
      method: "DELETE",
      version: "latest",
    });
    expect((await expectJson<ErrorBody>(again, 404)).error.type).toBe("ORDER_NOT_FOUND_ERROR");
    const update = await put(f, order.order_id, {
      ...orderBody(f),
      partner_order_id: order.partner_order_id,
    });
    expect(update.status).toBe(404);
  });

  it.each(ALL_VERSIONS)("answers a missing order in %s's shape", async (version) => {
    const f = await seedAccount({ scopes: SCOPES });
    const res = await put(f, "ord_nothing", orderBody(f), version);
    const body = await expectJson<Record<string, unknown>>(res, 404);
    const envelope = version === "latest";
    const error = envelope ? (body as unknown as ErrorBody).error : body;
    expect(error).toMatchObject({ type: "ORDER_NOT_FOUND_ERROR", param: "order_id" });
    expect("error" in body).toBe(envelope);
  });
});

describe("a partner with two products", () => {
  it("needs the merchant-key header, and keeps each product's orders apart", async () => {
    const { ids, payload } = newAccountImport();
    const second = { merchantKey: uniqueId("mk"), customerId: uniqueId("cus") };
    const [partner] = payload.partners ?? [];
    partner?.products?.push({
      merchant_key: second.merchantKey,
      name: "Second Card",
      documents: "uploaded",
    });
    payload.customers?.push({
      customer_id: second.customerId,
      partner_id: ids.partnerId,
      environment: "sandbox",
      merchant_key: second.merchantKey,
    });
    await importData(payload);
    const { apiKey } = await createKey(ids.partnerId, "sandbox", SCOPES);
    const f = { ...ids, key: apiKey, keyId: "" };
    const body = orderBody(f);
    const without = await api("/v2/orders", {
      key: apiKey,
      method: "POST",
      body,
      version: "latest",
    });
    expect((await expectJson<ErrorBody>(without, 400)).error.type).toBe("BAD_REQUEST_ERROR");
    const created = await api("/v2/orders", {
      key: apiKey,
      method: "POST",
      body,
      version: "latest",
      merchantKey: ids.merchantKey,
    });
    const order = await expectJson<Order>(created, 201);
    // The other product sees neither the order nor the first product's customer.
    const list = await api("/v2/orders", {
      key: apiKey,
      version: "latest",
      merchantKey: second.merchantKey,
    });
    expect((await expectJson<{ data: Order[] }>(list, 200)).data).toEqual([]);
    const put = await api(`/v2/orders/${order.order_id}`, {
      key: apiKey,
      method: "PUT",
      body,
      version: "latest",
      merchantKey: second.merchantKey,
    });
    expect(put.status).toBe(404);
    const foreign = await api("/v2/orders", {
      key: apiKey,
      method: "POST",
      body: orderBody(f),
      version: "latest",
      merchantKey: second.merchantKey,
    });
    expect((await expectJson<ErrorBody>(foreign, 404)).error.type).toBe("CUSTOMER_NOT_FOUND_ERROR");
    // The same partner_order_id is free in the other product.
    const mine = orderBody(
      { ...f, customerId: second.customerId },
      { partner_order_id: body.partner_order_id },
    );
    const again = await api("/v2/orders", {
      key: apiKey,
      method: "POST",
      body: mine,
      version: "latest",
      merchantKey: second.merchantKey,
    });
    const other = await expectJson<Order>(again, 201);
    // Each product's list holds its own order, and the list too needs the header.
    const listed = async (merchantKey: string) => {
      const res = await api("/v2/orders", { key: apiKey, version: "latest", merchantKey });
      return (await expectJson<{ data: Order[] }>(res, 200)).data.map((o) => o.order_id);
    };
    expect(await listed(ids.merchantKey)).toEqual([order.order_id]);
    expect(await listed(second.merchantKey)).toEqual([other.order_id]);
    const unnamed = await api("/v2/orders", { key: apiKey, version: "latest" });
    expect((await expectJson<ErrorBody>(unnamed, 400)).error.type).toBe("BAD_REQUEST_ERROR");
    // A product of another partner is no product of this one's, whatever its orders.
    const stranger = await seedAccount({ scopes: SCOPES });
    await createOrder(stranger);
    const foreignList = await api("/v2/orders", {
      key: apiKey,
      version: "latest",
      merchantKey: stranger.merchantKey,
    });
    expect((await expectJson<ErrorBody>(foreignList, 400)).error.type).toBe("BAD_REQUEST_ERROR");
  });
});
