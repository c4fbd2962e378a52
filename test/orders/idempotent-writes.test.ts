// Every write of orders and order events takes an Idempotency-Key, not only the creates: a PUT or
// a DELETE retried under its key answers the first response again (a repeated DELETE its 204, not
// a 404) and changes nothing more; the same key on another body or path is refused (422).
import { describe, expect, it } from "vitest";
import { api, type ErrorBody, expectJson } from "../support/api";
import { type Fixture, seedAccount, uniqueId } from "../support/fixtures";

const SCOPES = ["ORDER_READ", "ORDER_WRITE"];

interface Order {
  order_id: string;
  partner_order_id: string;
  customer_id: string;
  currency: string;
  total_amount: number;
  captured_amount: number;
  updated_at: string;
}

function write(
  f: Fixture,
  method: "POST" | "PUT" | "DELETE",
  path: string,
  idempotencyKey: string | null,
  body?: unknown,
) {
  return api(path, {
    key: f.key,
    method,
    version: "latest",
    ...(body === undefined ? {} : { body }),
    headers: idempotencyKey === null ? {} : { "Idempotency-Key": idempotencyKey },
  });
}

function orderBody(f: Fixture, partnerOrderId: string, total: number) {
  return {
    partner_order_id: partnerOrderId,
    customer_id: f.customerId,
    currency: "USD",
    total_amount: total,
  };
}

async function newOrder(f: Fixture, total = 1000): Promise<Order> {
  const body = orderBody(f, uniqueId("po"), total);
  return expectJson<Order>(await write(f, "POST", "/v2/orders", null, body), 201);
}

async function orderNow(f: Fixture, orderId: string): Promise<Order | undefined> {
  const res = await api("/v2/orders?limit=100", { key: f.key, version: "latest" });
  return (await expectJson<{ data: Order[] }>(res, 200)).data.find((o) => o.order_id === orderId);
}

describe("Idempotency-Key on every write", () => {
  it("replays a PUT of an order without applying it again, and refuses the key for another body", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f);
    const key = uniqueId("idem");
    const body = orderBody(f, order.partner_order_id, 1200);
    const first = await expectJson<Order>(
      await write(f, "PUT", `/v2/orders/${order.order_id}`, key, body),
      200,
    );
    expect(first.total_amount).toBe(1200);
    // Changed meanwhile without the key: a replay answers the first response, and undoes nothing.
    await expectJson(
      await write(
        f,
        "PUT",
        `/v2/orders/${order.order_id}`,
        null,
        orderBody(f, order.partner_order_id, 1500),
      ),
      200,
    );
    const again = await write(f, "PUT", `/v2/orders/${order.order_id}`, key, body);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await expectJson<Order>(again, 200)).toEqual(first);
    expect((await orderNow(f, order.order_id))?.total_amount).toBe(1500);
    const other = await write(
      f,
      "PUT",
      `/v2/orders/${order.order_id}`,
      key,
      orderBody(f, order.partner_order_id, 1300),
    );
    expect((await expectJson<ErrorBody>(other, 422)).error).toMatchObject({
      type: "IDEMPOTENCY_KEY_REUSED_ERROR",
      param: "Idempotency-Key",
    });
  });

  it("answers a repeated DELETE of an order with its stored 204, not a 404", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f);
    const key = uniqueId("idem");
    const first = await write(f, "DELETE", `/v2/orders/${order.order_id}`, key);
    expect(first.status).toBe(204);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await write(f, "DELETE", `/v2/orders/${order.order_id}`, key);
    expect(again.status).toBe(204);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("x-service-version")).toBe("latest");
    expect(await again.text()).toBe("");
    // Without the key, the order is simply gone.
    const bare = await write(f, "DELETE", `/v2/orders/${order.order_id}`, null);
    expect((await expectJson<ErrorBody>(bare, 404)).error.type).toBe("ORDER_NOT_FOUND_ERROR");
    // The same key on another order's path is another request.
    const second = await newOrder(f);
    const elsewhere = await write(f, "DELETE", `/v2/orders/${second.order_id}`, key);
    expect((await expectJson<ErrorBody>(elsewhere, 422)).error.type).toBe(
      "IDEMPOTENCY_KEY_REUSED_ERROR",
    );
    expect(await orderNow(f, second.order_id)).toBeDefined();
  });

  it("replays a refused DELETE as refused, and the key's first answer stays its answer", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f);
    await expectJson(
      await write(f, "POST", "/v2/order_events", null, {
        order_id: order.order_id,
        type: "CAPTURED",
        amount: 100,
        network_transaction_id: uniqueId("ntx"),
      }),
      201,
    );
    const key = uniqueId("idem");
    const refused = await write(f, "DELETE", `/v2/orders/${order.order_id}`, key);
    const body = await expectJson<ErrorBody>(refused, 409);
    const again = await write(f, "DELETE", `/v2/orders/${order.order_id}`, key);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await expectJson<ErrorBody>(again, 409)).toEqual(body);
  });

  it("answers a repeated DELETE of an order event with its 204 and takes the event off once", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f);
    const capture = (amount: number) =>
      write(f, "POST", "/v2/order_events", null, {
        order_id: order.order_id,
        type: "CAPTURED",
        amount,
        network_transaction_id: uniqueId("ntx"),
      });
    const first = await expectJson<{ order_event_id: string }>(await capture(300), 201);
    await expectJson(await capture(200), 201);
    const key = uniqueId("idem");
    const path = `/v2/order_events/${first.order_event_id}`;
    expect((await write(f, "DELETE", path, key)).status).toBe(204);
    const again = await write(f, "DELETE", path, key);
    expect(again.status).toBe(204);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await orderNow(f, order.order_id))?.captured_amount).toBe(200);
    expect((await write(f, "DELETE", path, null)).status).toBe(404);
  });

  it("replays an order event's create under its key, in its order's currency, and captures once", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f);
    const key = uniqueId("idem");
    const body = {
      order_id: order.order_id,
      type: "CAPTURED",
      amount: 250,
      network_transaction_id: uniqueId("ntx"),
    };
    const first = await expectJson<{ currency: string }>(
      await write(f, "POST", "/v2/order_events", key, body),
      201,
    );
    expect(first.currency).toBe("USD");
    const again = await write(f, "POST", "/v2/order_events", key, body);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await expectJson(again, 201)).toEqual(first);
    expect((await orderNow(f, order.order_id))?.captured_amount).toBe(250);
    const missing = { ...body, order_id: uniqueId("ord") };
    const notFound = await write(f, "POST", "/v2/order_events", uniqueId("idem"), missing);
    expect((await expectJson<ErrorBody>(notFound, 404)).error.type).toBe("ORDER_NOT_FOUND_ERROR");
  });

  it("replays a transaction intent's update under its key", async () => {
    const f = await seedAccount({
      scopes: ["TRANSACTION_INTENT_READ", "TRANSACTION_INTENT_WRITE"],
    });
    const created = await expectJson<{ intent_id: string }>(
      await write(f, "POST", "/v2/transaction_intents", null, {
        customer_id: f.customerId,
        amount: 500,
        currency: "USD",
      }),
      201,
    );
    const key = uniqueId("idem");
    const path = `/v2/transaction_intents/${created.intent_id}`;
    const confirmed = await expectJson(
      await write(f, "POST", path, key, { status: "CONFIRMED" }),
      200,
    );
    const again = await write(f, "POST", path, key, { status: "CONFIRMED" });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await expectJson(again, 200)).toEqual(confirmed);
    const other = await write(f, "POST", path, key, { status: "CANCELED" });
    expect(other.status).toBe(422);
  });
});
