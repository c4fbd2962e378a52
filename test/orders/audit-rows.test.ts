// Orders, order events and transaction intents are audited as every other write of a key: one
// row per change that happened (none for a refused one), written in the change's own batch, naming
// the key and what it touched, and holding nothing secret: no metadata, no lines, no merchant.
import { describe, expect, it } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { type Fixture, seedAccount, uniqueId } from "../support/fixtures";

const SCOPES = ["ORDER_READ", "ORDER_WRITE", "TRANSACTION_INTENT_READ", "TRANSACTION_INTENT_WRITE"];

interface AuditEntry {
  action: string;
  actor: { type: string; id: string | null };
  environment: string | null;
  target: string | null;
  details: Record<string, unknown>;
  ip: string | null;
}

function send(f: Fixture, method: string, path: string, body?: unknown) {
  return api(path, {
    key: f.key,
    method,
    version: "latest",
    ...(body === undefined ? {} : { body }),
    headers: { "cf-connecting-ip": "203.0.113.9" },
  });
}

/** The partner's audit entries of its orders, events and intents (not the fixture's key). */
async function auditOf(f: Fixture): Promise<AuditEntry[]> {
  const res = await operator("GET", `/partners/${f.partnerId}/audit?limit=100`);
  const { data } = await expectJson<{ data: AuditEntry[] }>(res, 200);
  return data.filter((e) => !e.action.startsWith("key."));
}

describe("the audit of orders, order events and intents", () => {
  it("records each change with the key that made it, and nothing for a refused one", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const secret = uniqueId("secret-text");
    const partnerOrderId = uniqueId("po");
    const orderBody = (total: number) => ({
      partner_order_id: partnerOrderId,
      customer_id: f.customerId,
      currency: "USD",
      total_amount: total,
      lines: [
        {
          name: secret,
          quantity: 1,
          unit_amount: total,
          product_url: `https://x.example/${secret}`,
        },
      ],
      merchant: { name: secret },
    });
    const order = await expectJson<{ order_id: string }>(
      await send(f, "POST", "/v2/orders", orderBody(900)),
      201,
    );
    await expectJson(await send(f, "PUT", `/v2/orders/${order.order_id}`, orderBody(1000)), 200);
    const capture = await expectJson<{ order_event_id: string }>(
      await send(f, "POST", "/v2/order_events", {
        order_id: order.order_id,
        type: "CAPTURED",
        amount: 400,
        network_transaction_id: uniqueId("ntx"),
      }),
      201,
    );
    // Refused writes: over-capture, a total below the captures, a delete while events exist.
    const refusals = [
      send(f, "POST", "/v2/order_events", {
        order_id: order.order_id,
        type: "CAPTURED",
        amount: 601,
        network_transaction_id: uniqueId("ntx"),
      }),
      send(f, "PUT", `/v2/orders/${order.order_id}`, orderBody(300)),
      send(f, "DELETE", `/v2/orders/${order.order_id}`),
    ];
    for (const res of await Promise.all(refusals)) expect(res.status).toBe(409);
    expect((await send(f, "DELETE", `/v2/order_events/${capture.order_event_id}`)).status).toBe(
      204,
    );
    expect((await send(f, "DELETE", `/v2/orders/${order.order_id}`)).status).toBe(204);
    const intent = await expectJson<{ intent_id: string }>(
      await send(f, "POST", "/v2/transaction_intents", {
        customer_id: f.customerId,
        amount: 700,
        currency: "USD",
        metadata: { note: secret },
        merchant: { name: secret },
      }),
      201,
    );
    const path = `/v2/transaction_intents/${intent.intent_id}`;
    await expectJson(
      await send(f, "POST", path, { status: "CONFIRMED", metadata: { n: secret } }),
      200,
    );
    expect((await send(f, "POST", path, { amount: 1 })).status).toBe(409);

    const entries = await auditOf(f);
    expect(entries.map((e) => [e.action, e.target]).reverse()).toEqual([
      ["order.created", order.order_id],
      ["order.updated", order.order_id],
      ["order_event.created", capture.order_event_id],
      ["order_event.deleted", capture.order_event_id],
      ["order.deleted", order.order_id],
      ["transaction_intent.created", intent.intent_id],
      ["transaction_intent.updated", intent.intent_id],
    ]);
    for (const entry of entries) {
      expect(entry.actor).toMatchObject({ type: "key", id: f.keyId });
      expect(entry.environment).toBe("sandbox");
      expect(entry.ip).toBe("203.0.113.9");
      expect(entry.details.merchant_key).toBe(f.merchantKey);
    }
    expect(entries.find((e) => e.action === "order_event.created")?.details).toMatchObject({
      order_id: order.order_id,
      type: "CAPTURED",
      amount: 400,
      currency: "USD",
    });
    expect(entries.find((e) => e.action === "transaction_intent.updated")?.details).toMatchObject({
      fields: ["metadata", "status"],
      status: "CONFIRMED",
    });
    // Nothing the partner wrote as free text reaches the log.
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  it("records a write replayed under its Idempotency-Key once", async () => {
    const f = await seedAccount({ scopes: SCOPES });
    const body = { customer_id: f.customerId, amount: 100, currency: "EUR" };
    const headers = { "Idempotency-Key": uniqueId("idem") };
    for (let i = 0; i < 2; i++) {
      const res = await api("/v2/transaction_intents", {
        key: f.key,
        method: "POST",
        version: "latest",
        body,
        headers,
      });
      expect(res.status).toBe(201);
    }
    const created = (await auditOf(f)).filter((e) => e.action === "transaction_intent.created");
    expect(created).toHaveLength(1);
  });
});
