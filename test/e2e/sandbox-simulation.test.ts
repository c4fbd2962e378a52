// A sandbox partner's own data end to end over real HTTP: a throwaway `wrangler dev` running the
// API Worker beside the renderer Worker (its queues run by Miniflare), a webhook receiver on
// loopback and the typed client. A simulated customer's simulated statement is announced twice,
// and the document its link serves is the statement itself: its text holds every figure.
import { createClient, type LineItem, verifyWebhook } from "@card-statements/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalService, operatorFetch, startLocalService } from "../support/node/local-service";
import { pdfText } from "../support/node/pdf-text";
import { startReceiver, waitFor } from "../support/node/webhook-receiver";

const PARTNER = "sim_bank";

/** An amount as the document writes it: en-US, the currency's symbol, a minus before it. */
const usd = (cents: number) =>
  (cents / 100).toLocaleString("en-US", { style: "currency", currency: "USD" });

/** A timestamp's calendar date as the document writes it: `October 31, 2026`. */
const date = (timestamp: string) =>
  new Date(`${timestamp.slice(0, 10)}T12:00:00Z`).toLocaleDateString("en-US", {
    timeZone: "UTC",
    year: "numeric",
    month: "long",
    day: "numeric",
  });

describe("a sandbox statement of the partner's own making", () => {
  let service: LocalService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let apiKey: string;

  const operator = (method: string, route: string, body?: unknown) =>
    operatorFetch(service, route, { method, body: JSON.stringify(body) });

  beforeAll(async () => {
    receiver = await startReceiver();
    service = await startLocalService({ vars: { WEBHOOK_ALLOW_LOOPBACK: "true" } });
    // A partner with a product and nothing else: every customer comes from the simulations.
    const imported = await operator("POST", "/import", {
      partners: [
        {
          partner_id: PARTNER,
          name: "Simulated Bank",
          products: [{ merchant_key: "mk_sim", name: "Sim Card" }],
        },
      ],
    });
    expect(imported.status, await imported.text()).toBe(200);
    const look = await operator("PATCH", "/products/mk_sim", {
      display_name: "Sim Card Platinum",
      accent_colour: "#0a6b5a",
    });
    expect(look.status, await look.text()).toBe(200);
    const key = await operator("POST", `/partners/${PARTNER}/keys`, {
      environment: "sandbox",
      scopes: ["ACCOUNT_READ"],
    });
    expect(key.status).toBe(201);
    apiKey = ((await key.json()) as { api_key: string }).api_key;
  });

  afterAll(async () => {
    await service?.stop();
    receiver?.server.close();
  });

  it("announces the statement and its PDF, whose text holds the statement's figures", async () => {
    const client = createClient({ apiKey, version: "latest", baseUrl: service.base });
    const endpoint = await client.webhookEndpoints.create({ url: `${receiver.url}/sim/events` });

    const customer = await client.simulations.createCustomer({ partner_customer_id: "ext-1" });
    expect(customer.customer_id).toMatch(/^cus_/);
    const account = customer.accounts[0];
    expect(account?.currency).toBe("USD");
    const statement = await client.simulations.closeCycle({
      customer_id: customer.customer_id,
      account_id: account?.account_id as string,
    });
    expect(statement.customer_id).toBe(customer.customer_id);

    const deliveries = await waitFor(receiver.received, "/sim/events", 2, 60_000);
    const events = await Promise.all(
      deliveries.map((d) =>
        verifyWebhook<"latest">({
          secret: endpoint.secret as string,
          headers: d.headers,
          body: d.body,
        }),
      ),
    );
    expect(events.map((e) => [e.type, e.data.statement.statement_id])).toEqual([
      ["statement.created", statement.statement_id],
      ["statement.pdf_available", statement.statement_id],
    ]);

    // The link the event carries needs no key.
    const link = events[1]?.data.statement.pdf?.url as string;
    const pdf = await fetch(link);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));

    expect(text).toContain("Sim Card Platinum");
    expect(text).toContain(`Statement ${statement.statement_id}`);
    expect(text).toContain(`Account ${statement.account_id}`);
    expect(text).toContain(`Customer ${customer.customer_id}`);
    expect(text).toContain(`Closing date ${date(statement.period_end_date as string)}`);
    expect(text).toContain(`Payment due date ${date(statement.due_date as string)}`);
    expect(text).toContain(`New balance ${usd(statement.statement_balance as number)}`);
    expect(text).toContain(`Minimum payment due ${usd(statement.minimum_due as number)}`);
    const lines = [
      ["previous_balance", "Previous balance"],
      ["payments", "Payments"],
      ["credits", "Credits"],
      ["refunds", "Refunds"],
      ["purchases", "Purchases"],
      ["fees", "Fees charged"],
      ["interest", "Interest charged"],
    ] as const;
    // The account summary lists the cycle's lines, a quiet one left out (the transactions and the
    // fees and interest sections below it name every group, $0.00 included, as the model form does).
    const summary = text.slice(text.indexOf("Account summary"), text.indexOf("Currency:"));
    expect(summary).toContain("New balance");
    let shown = 0;
    for (const [field, label] of lines) {
      const value = statement[field];
      if (value === undefined) expect(summary).not.toContain(`${label} `);
      else {
        expect(summary).toContain(`${label} ${usd(value)}`);
        shown++;
      }
    }
    // Its transactions are listed, each group with its total.
    expect(text).toContain("Transactions");
    if (statement.purchases !== undefined) {
      expect(text).toContain(`Total purchases for this period ${usd(statement.purchases)}`);
    }
    // A generated cycle has activity.
    expect(shown).toBeGreaterThan(0);
  });

  it("reads one statement and pages its line items by type, as the client's README shows", async () => {
    const client = createClient({ apiKey, version: "latest", baseUrl: service.base });
    const customer = await client.simulations.createCustomer({ partner_customer_id: "ext-2" });
    const accountId = customer.accounts[0]?.account_id as string;
    const closed = await client.simulations.closeCycle({
      customer_id: customer.customer_id,
      account_id: accountId,
    });
    const statement = await client.statements.retrieve(
      customer.customer_id,
      accountId,
      closed.statement_id,
    );
    expect(statement.statement_id).toBe(closed.statement_id);
    expect(statement.statement_balance).toBe(closed.statement_balance);

    // Every line item, one small page at a time, then only purchases and refunds.
    const all: LineItem<"latest">[] = [];
    for await (const item of client.statements.lineItems(
      customer.customer_id,
      accountId,
      closed.statement_id,
      { limit: 2 },
    )) {
      all.push(item);
    }
    expect(all.length).toBeGreaterThan(0);
    const picked: LineItem<"latest">[] = [];
    for await (const item of client.statements.lineItems(
      customer.customer_id,
      accountId,
      closed.statement_id,
      { type: ["PURCHASE", "REFUND"], limit: 2 },
    )) {
      picked.push(item);
    }
    expect(picked).toEqual(all.filter((i) => i.type === "PURCHASE" || i.type === "REFUND"));
    const sum = (type: string) =>
      all.filter((i) => i.type === type).reduce((total, i) => total + i.amount, 0);
    expect(sum("PURCHASE")).toBe(statement.purchases ?? 0);
    expect(sum("REFUND")).toBe(statement.refunds ?? 0);
  });
});
