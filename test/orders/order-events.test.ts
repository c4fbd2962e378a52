// /v2/order_events: captures within the total, refunds within the captures, a partner's event id
// used once, the order's currency, and the order's sums always the sums of its events, however
// many captures and refunds race.
import { describe, expect, it } from "vitest";
import { api, type ErrorBody, expectJson } from "../support/api";
import { type Fixture, seedAccount, uniqueId } from "../support/fixtures";
import { partnerDatabase } from "../support/shards";

const SCOPES = ["ORDER_READ", "ORDER_WRITE"];

interface Order {
  order_id: string;
  partner_order_id: string;
  total_amount: number;
  captured_amount: number;
  refunded_amount: number;
}

interface OrderEvent {
  order_event_id: string;
  order_id: string;
  type: string;
  amount: number;
  currency: string;
  network_transaction_id: string;
  partner_event_id?: string;
}

function post(f: Fixture, path: string, body: unknown) {
  return api(path, { key: f.key, method: "POST", body, version: "latest" });
}

async function newOrder(f: Fixture, total = 1000, currency = "EUR"): Promise<Order> {
  const body = {
    partner_order_id: uniqueId("po"),
    customer_id: f.customerId,
    currency,
    total_amount: total,
  };
  return expectJson<Order>(await post(f, "/v2/orders", body), 201);
}

function event(orderId: string, type: "CAPTURED" | "REFUNDED", amount: number, extra = {}) {
  return { order_id: orderId, type, amount, network_transaction_id: uniqueId("ntx"), ...extra };
}

async function orderNow(f: Fixture, order: Order): Promise<Order> {
  const query = `?partner_order_id=${encodeURIComponent(order.partner_order_id)}`;
  const res = await api(`/v2/orders${query}`, { key: f.key, version: "latest" });
  const [found] = (await expectJson<{ data: Order[] }>(res, 200)).data;
  if (!found) throw new Error("order gone");
  return found;
}

describe("order events", () => {
  it("records a capture in the order's currency and adds it to captured_amount", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f);
    const capture = await expectJson<OrderEvent>(
      await post(
        f,
        "/v2/order_events",
        event(order.order_id, "CAPTURED", 600, { partner_event_id: "pe-1", rewards_amount: 6 }),
      ),
      201,
    );
    expect(capture).toMatchObject({
      type: "CAPTURED",
      amount: 600,
      currency: "EUR",
      partner_event_id: "pe-1",
      rewards_amount: 6,
    });
    const refund = await expectJson<OrderEvent>(
      await post(f, "/v2/order_events", event(order.order_id, "REFUNDED", 200)),
      201,
    );
    expect(refund.currency).toBe("EUR");
    expect(await orderNow(f, order)).toMatchObject({ captured_amount: 600, refunded_amount: 200 });
  });

  it("refuses a currency in the body: the event takes its order's", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f);
    const res = await post(
      f,
      "/v2/order_events",
      event(order.order_id, "CAPTURED", 1, { currency: "USD" }),
    );
    expect((await expectJson<ErrorBody>(res, 400)).error.param).toBe("currency");
  });

  it("refuses over-capture and over-refund with 409, and refunds make no room for captures", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f, 1000);
    await expectJson(
      await post(f, "/v2/order_events", event(order.order_id, "CAPTURED", 1000)),
      201,
    );
    const over = await post(f, "/v2/order_events", event(order.order_id, "CAPTURED", 1));
    expect((await expectJson<ErrorBody>(over, 409)).error).toMatchObject({
      type: "CONFLICT_ERROR",
      param: "amount",
    });
    await expectJson(
      await post(f, "/v2/order_events", event(order.order_id, "REFUNDED", 400)),
      201,
    );
    expect((await post(f, "/v2/order_events", event(order.order_id, "CAPTURED", 1))).status).toBe(
      409,
    );
    const overRefund = await post(f, "/v2/order_events", event(order.order_id, "REFUNDED", 601));
    expect((await expectJson<ErrorBody>(overRefund, 409)).error.type).toBe("CONFLICT_ERROR");
    expect(await orderNow(f, order)).toMatchObject({ captured_amount: 1000, refunded_amount: 400 });
  });

  it("refuses a partner_event_id used before in the product, naming the event holding it", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f);
    const first = await expectJson<OrderEvent>(
      await post(
        f,
        "/v2/order_events",
        event(order.order_id, "CAPTURED", 10, { partner_event_id: "pe-x" }),
      ),
      201,
    );
    const again = await post(
      f,
      "/v2/order_events",
      event(order.order_id, "CAPTURED", 10, { partner_event_id: "pe-x" }),
    );
    const body = await expectJson<ErrorBody>(again, 409);
    expect(body.error).toMatchObject({ type: "CONFLICT_ERROR", param: "partner_event_id" });
    expect(body.error.message).toContain(first.order_event_id);
    expect(await orderNow(f, order)).toMatchObject({ captured_amount: 10 });
  });

  it("answers 404 for an order that is not the caller's, and 400 for an amount of zero", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const other = await seedAccount({ scopes: SCOPES });
    const theirs = await newOrder(other);
    const res = await post(f, "/v2/order_events", event(theirs.order_id, "CAPTURED", 1));
    expect((await expectJson<ErrorBody>(res, 404)).error).toMatchObject({
      type: "ORDER_NOT_FOUND_ERROR",
      param: "order_id",
    });
    const zero = await post(f, "/v2/order_events", event(theirs.order_id, "CAPTURED", 0));
    expect((await expectJson<ErrorBody>(zero, 400)).error.param).toBe("amount");
  });

  it("lists newest first, filtered by order, network transaction and partner event id", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const a = await newOrder(f);
    const b = await newOrder(f);
    const e1 = await expectJson<OrderEvent>(
      await post(
        f,
        "/v2/order_events",
        event(a.order_id, "CAPTURED", 1, { network_transaction_id: "ntx-shared" }),
      ),
      201,
    );
    const e2 = await expectJson<OrderEvent>(
      await post(
        f,
        "/v2/order_events",
        event(b.order_id, "CAPTURED", 1, {
          network_transaction_id: "ntx-shared",
          partner_event_id: "pe-b",
        }),
      ),
      201,
    );
    const read = async (query: string) =>
      (
        await expectJson<{ data: OrderEvent[] }>(
          await api(`/v2/order_events${query}`, { key: f.key, version: "latest" }),
          200,
        )
      ).data.map((e) => e.order_event_id);
    expect(await read("")).toEqual([e2.order_event_id, e1.order_event_id]);
    expect(await read(`?order_id=${a.order_id}`)).toEqual([e1.order_event_id]);
    expect(await read("?network_transaction_id=ntx-shared")).toEqual([
      e2.order_event_id,
      e1.order_event_id,
    ]);
    expect(await read("?partner_event_id=pe-b")).toEqual([e2.order_event_id]);
    expect(await read(`?limit=1&starting_after=${e2.order_event_id}`)).toEqual([e1.order_event_id]);
  });

  it("deletes an event off its order's sums, but not a capture the refunds still need", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f);
    const capture = await expectJson<OrderEvent>(
      await post(f, "/v2/order_events", event(order.order_id, "CAPTURED", 500)),
      201,
    );
    const refund = await expectJson<OrderEvent>(
      await post(f, "/v2/order_events", event(order.order_id, "REFUNDED", 100)),
      201,
    );
    const del = (id: string) =>
      api(`/v2/order_events/${id}`, { key: f.key, method: "DELETE", version: "latest" });
    expect((await expectJson<ErrorBody>(await del(capture.order_event_id), 409)).error.type).toBe(
      "CONFLICT_ERROR",
    );
    expect((await del(refund.order_event_id)).status).toBe(204);
    expect(await orderNow(f, order)).toMatchObject({ captured_amount: 500, refunded_amount: 0 });
    expect((await del(capture.order_event_id)).status).toBe(204);
    expect(await orderNow(f, order)).toMatchObject({ captured_amount: 0, refunded_amount: 0 });
    const gone = await del(capture.order_event_id);
    expect((await expectJson<ErrorBody>(gone, 404)).error.type).toBe("ORDER_EVENT_NOT_FOUND_ERROR");
  });

  it("keeps the order's sums equal to its events' under concurrent captures, refunds and deletes", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f, 1000);
    // 30 captures of 50 race for a total of 1000 (only 20 fit), with refunds of 30 among them.
    const writes = Array.from({ length: 40 }, (_, i) =>
      post(
        f,
        "/v2/order_events",
        event(order.order_id, i % 4 === 3 ? "REFUNDED" : "CAPTURED", i % 4 === 3 ? 30 : 50),
      ),
    );
    const answers = await Promise.all(writes);
    for (const res of answers) expect([201, 409]).toContain(res.status);
    const events = (await Promise.all(
      answers.filter((r) => r.status === 201).map((r) => r.json()),
    )) as OrderEvent[];
    // And some deletes race with each other.
    const refunds = events.filter((e) => e.type === "REFUNDED").slice(0, 3);
    await Promise.all(
      [...refunds, ...refunds].map((e) =>
        api(`/v2/order_events/${e.order_event_id}`, {
          key: f.key,
          method: "DELETE",
          version: "latest",
        }),
      ),
    );
    const db = await partnerDatabase(f.partnerId);
    const sums = await db
      .prepare(
        `SELECT o.captured_amount, o.refunded_amount, o.total_amount,
           (SELECT COALESCE(SUM(amount), 0) FROM order_events WHERE order_id = o.order_id AND type = 'CAPTURED') AS captured,
           (SELECT COALESCE(SUM(amount), 0) FROM order_events WHERE order_id = o.order_id AND type = 'REFUNDED') AS refunded
         FROM orders o WHERE o.order_id = ?`,
      )
      .bind(order.order_id)
      .first<Record<string, number>>();
    expect(sums?.captured_amount).toBe(sums?.captured);
    expect(sums?.refunded_amount).toBe(sums?.refunded);
    expect(sums?.captured_amount).toBeLessThanOrEqual(1000);
    expect(sums?.captured_amount).toBe(1000);
    expect(sums?.refunded_amount).toBeLessThanOrEqual(sums?.captured_amount ?? 0);
  });

  it("holds at most 100 events per order: the 101st answers 409 naming order_id and changes nothing", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const order = await newOrder(f, 10_000);
    // Captures and refunds count alike: 60 captures of 10 and 40 refunds of 1, ten at a time.
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => {
          const n = batch * 10 + i;
          return post(
            f,
            "/v2/order_events",
            n < 60 ? event(order.order_id, "CAPTURED", 10) : event(order.order_id, "REFUNDED", 1),
          );
        }),
      );
      for (const res of answers) expect(res.status).toBe(201);
    }
    const before = await orderNow(f, order);
    expect(before).toMatchObject({ captured_amount: 600, refunded_amount: 40 });
    const extra = await post(
      f,
      "/v2/order_events",
      event(order.order_id, "CAPTURED", 10, { partner_event_id: uniqueId("pe") }),
    );
    const body = await expectJson<ErrorBody>(extra, 409);
    expect(body.error).toMatchObject({ type: "CONFLICT_ERROR", param: "order_id" });
    expect(body.error.message).toContain("at most 100 events");
    expect(await orderNow(f, order)).toEqual(before);
    const db = await partnerDatabase(f.partnerId);
    const count = await db
      .prepare("SELECT count(*) AS n FROM order_events WHERE order_id = ?")
      .bind(order.order_id)
      .first<{ n: number }>();
    expect(count?.n).toBe(100);
    // A refund is refused as well; once an event is deleted, there is room for one more.
    const refund = await post(f, "/v2/order_events", event(order.order_id, "REFUNDED", 1));
    expect(refund.status).toBe(409);
    const [last] = (
      await expectJson<{ data: OrderEvent[] }>(
        await api(`/v2/order_events?order_id=${order.order_id}&limit=1`, {
          key: f.key,
          version: "latest",
        }),
        200,
      )
    ).data;
    const del = await api(`/v2/order_events/${last?.order_event_id}`, {
      key: f.key,
      method: "DELETE",
      version: "latest",
    });
    expect(del.status).toBe(204);
    expect((await post(f, "/v2/order_events", event(order.order_id, "REFUNDED", 1))).status).toBe(
      201,
    );
  });
});
