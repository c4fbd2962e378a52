// The dashboard's orders page of a customer: its orders with their captures and refunds, and its
// transaction intents, as the API answers them; production data for Admins only.
import { describe, expect, it } from "vitest";
import { api, expectJson } from "../support/api";
import { seedTeam } from "../support/dashboard";
import { createKey, importData, uniqueId } from "../support/fixtures";

async function seed(environment: "sandbox" | "production") {
  const team = await seedTeam();
  const customer = uniqueId("cus");
  await importData({
    customers: [
      {
        customer_id: customer,
        partner_id: team.partnerId,
        environment,
        merchant_key: team.merchantKey as string,
      },
    ],
  });
  const scopes = ["ORDER_READ", "ORDER_WRITE", "TRANSACTION_INTENT_WRITE"];
  const { apiKey } = await createKey(team.partnerId, environment, scopes);
  const post = (path: string, body: unknown) =>
    api(path, { key: apiKey, method: "POST", body }).then((r) => expectJson(r, 201));
  const order = (await post("/v2/orders", {
    partner_order_id: "po-page",
    customer_id: customer,
    currency: "USD",
    total_amount: 9900,
    merchant: { name: "Page Shop" },
  })) as { order_id: string };
  await post("/v2/order_events", {
    order_id: order.order_id,
    type: "CAPTURED",
    amount: 9900,
    network_transaction_id: "ntx-page",
  });
  await post("/v2/transaction_intents", { customer_id: customer, amount: 1234, currency: "USD" });
  return { team, customer, orderId: order.order_id };
}

describe("a customer's orders and intents in the data browser", () => {
  it("shows the orders with their events, and the intents", async () => {
    const { team, customer, orderId } = await seed("sandbox");
    const detail = await team.developer.get(`/dashboard/sandbox/customers/${customer}`);
    expect(await detail.text()).toContain(`/dashboard/sandbox/customers/${customer}/orders`);
    const res = await team.developer.get(`/dashboard/sandbox/customers/${customer}/orders`);
    const html = await res.text();
    expect(res.status, html).toBe(200);
    expect(html).toContain(orderId);
    expect(html).toContain("po-page");
    expect(html).toContain("Page Shop");
    expect(html).toContain("ntx-page");
    expect(html).toContain("REQUIRES_CONFIRMATION");
    expect(html).toContain("$99.00");
  });

  it("shows production orders to Admins only", async () => {
    const { team, customer } = await seed("production");
    const path = `/dashboard/production/customers/${customer}/orders`;
    expect((await team.admin.get(path)).status).toBe(200);
    expect((await team.developer.get(path)).status).toBe(403);
  });
});
