// The client's own behaviour against a scripted fetch: pinned headers, auto-pagination, retries
// (which requests, how long, with which key), typed errors for every documented shape, and the
// webhook verifier checked against the Standard Webhooks reference implementation.
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  CardStatementsError,
  CustomerNotFoundError,
  createClient,
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  retryAfterMs,
  ServiceUnavailableError,
  verifyWebhook,
  WebhookVerificationError,
} from "../src/index.ts";

type Handler = (request: Request, call: number) => Response | Promise<Response>;

/** A fetch answering from `handler`, recording every request it saw. */
function scripted(handler: Handler) {
  const seen: Request[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    seen.push(request.clone());
    return handler(request, seen.length);
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

function client(handler: Handler, sleeps: number[] = []) {
  const { fetch, seen } = scripted(handler);
  const c = createClient({
    apiKey: "sk_sandbox_test",
    version: "2025-05-05",
    baseUrl: "https://api.example.com/",
    merchantKey: "mk_1",
    fetch,
    retry: {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
    },
  });
  return { c, seen, sleeps };
}

describe("requests", () => {
  it("pins the version, sends the key as a Bearer token and names the product", async () => {
    const { c, seen } = client(() => json({ data: [], has_more: false }));
    for await (const _ of c.customers.list()) {
      // no customers
    }
    const [request] = seen;
    expect(request?.url).toBe("https://api.example.com/v2/customers");
    expect(request?.headers.get("authorization")).toBe("Bearer sk_sandbox_test");
    expect(request?.headers.get("x-service-version")).toBe("2025-05-05");
    expect(request?.headers.get("x-service-merchant-key")).toBe("mk_1");
  });

  it("makes sandbox data: a customer, then a cycle closed on its account", async () => {
    const { c, seen } = client((request) =>
      request.url.endsWith("/customers")
        ? json({ customer_id: "cus_1", accounts: [{ account_id: "acc_1" }] }, 201)
        : json({ statement_id: "st_1", statement_balance: 1200 }, 201),
    );
    const customer = await c.simulations.createCustomer({ currency: "EUR" });
    const statement = await c.simulations.closeCycle({
      customer_id: customer.customer_id,
      account_id: customer.accounts[0]?.account_id ?? "",
      purchases: 1200,
    });
    expect(statement.statement_id).toBe("st_1");
    expect(seen.map((r) => [r.method, r.url])).toEqual([
      ["POST", "https://api.example.com/v2/simulations/customers"],
      ["POST", "https://api.example.com/v2/simulations/statements"],
    ]);
    expect(await seen[1]?.json()).toEqual({
      customer_id: "cus_1",
      account_id: "acc_1",
      purchases: 1200,
    });
    for (const request of seen) expect(request.headers.get("idempotency-key")).toBeTruthy();
  });

  it("provisions a card to a wallet, the body as given and an Idempotency-Key", async () => {
    const { c, seen } = client(() =>
      json({
        payment_method_id: "pm_1",
        wallet: "google_pay",
        provisioning: { opaque_payment_card: "eyJ…" },
      }),
    );
    const body = { client_device_id: "device-1", client_wallet_account_id: "account-1" };
    const answer = await c.paymentMethods.provision("pm_1", "google_pay", body);
    expect(answer.provisioning.opaque_payment_card).toBe("eyJ…");
    const [request] = seen;
    expect([request?.method, request?.url]).toEqual([
      "POST",
      "https://api.example.com/v2/payment_methods/pm_1/provision/google_pay",
    ]);
    expect(await request?.json()).toEqual(body);
    expect(request?.headers.get("idempotency-key")).toBeTruthy();
  });

  it("filters endpoints and events by type, updates and recovers endpoints, lists event types", async () => {
    const { c, seen } = client((request) => {
      const url = new URL(request.url);
      if (url.pathname === "/v2/event_types") {
        return json({ data: [{ type: "statement.created", description: "d" }], has_more: false });
      }
      if (url.pathname === "/v2/events") return json({ data: [], has_more: false });
      if (url.pathname.endsWith("/recover")) {
        return json({ webhook_endpoint_id: "we_1", queued: 3, has_more: false }, 202);
      }
      return json({ webhook_endpoint_id: "we_1", enabled_events: ["statement.created"] });
    });
    await c.webhookEndpoints.create({
      url: "https://hooks.example.com/a",
      enabled_events: ["statement.created"],
    });
    const updated = await c.webhookEndpoints.update("we_1", { description: "" });
    expect(updated.enabled_events).toEqual(["statement.created"]);
    const recovered = await c.webhookEndpoints.recover("we_1", {
      since: "2026-11-27T00:00:00Z",
    });
    expect(recovered.queued).toBe(3);
    expect(await c.eventTypes.list()).toEqual([{ type: "statement.created", description: "d" }]);
    for await (const _ of c.events.list({ type: ["statement.created", "statement.hidden"] })) {
      // no events
    }
    expect(seen.map((r) => [r.method, new URL(r.url).pathname])).toEqual([
      ["POST", "/v2/webhook_endpoints"],
      ["POST", "/v2/webhook_endpoints/we_1"],
      ["POST", "/v2/webhook_endpoints/we_1/recover"],
      ["GET", "/v2/event_types"],
      ["GET", "/v2/events"],
    ]);
    expect(await seen[0]?.json()).toEqual({
      url: "https://hooks.example.com/a",
      enabled_events: ["statement.created"],
    });
    expect(await seen[1]?.json()).toEqual({ description: "" });
    expect(await seen[2]?.json()).toEqual({ since: "2026-11-27T00:00:00Z" });
    expect(new URL(seen[4]?.url ?? "").searchParams.get("type")).toBe(
      "statement.created,statement.hidden",
    );
    // Each POST is safe to retry.
    for (const request of seen.filter((r) => r.method === "POST")) {
      expect(request.headers.get("idempotency-key")).toBeTruthy();
    }
  });

  it("pages statements by token and accounts by last id, fetching each page when needed", async () => {
    const { c, seen } = client((request) => {
      const url = new URL(request.url);
      const after = url.searchParams.get("starting_after");
      if (url.pathname.endsWith("/statements")) {
        return after === null
          ? json({
              data: [{ statement_id: "s3" }, { statement_id: "s2" }],
              has_more: true,
              next_page_token: "t1",
            })
          : json({ data: [{ statement_id: "s1" }], has_more: false });
      }
      return after === null
        ? json({ data: [{ account_id: "a1" }], has_more: true })
        : json({ data: [{ account_id: after === "a1" ? "a2" : "?" }], has_more: false });
    });
    const statements: string[] = [];
    for await (const s of c.statements.list("cus_1", "acc_1", {
      limit: 2,
      period_end_date_gte: "2026-01-01T00:00:00Z",
    })) {
      statements.push(s.statement_id);
    }
    expect(statements).toEqual(["s3", "s2", "s1"]);
    expect(new URL(seen[1]?.url ?? "").searchParams.get("starting_after")).toBe("t1");
    expect(new URL(seen[1]?.url ?? "").searchParams.get("period_end_date_gte")).toBe(
      "2026-01-01T00:00:00Z",
    );
    const accounts: string[] = [];
    for await (const a of c.accounts.list("cus_1")) accounts.push(a.account_id);
    expect(accounts).toEqual(["a1", "a2"]);
  });
});

describe("one statement and its line items", () => {
  it("retrieves a statement and pages its line items by token, the type filter kept", async () => {
    const { c, seen } = client((request) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith("/line_items")) {
        return url.searchParams.get("starting_after") === null
          ? json({
              data: [{ line_item_id: "li_1" }, { line_item_id: "li_2" }],
              has_more: true,
              next_page_token: "t1",
            })
          : json({ data: [{ line_item_id: "li_3" }], has_more: false });
      }
      return json({ statement_id: "st_1", restated_by: "st_2" });
    });
    const statement = await c.statements.retrieve("cus_1", "acc_1", "st_1");
    expect(statement.statement_id).toBe("st_1");
    expect(new URL(seen[0]?.url ?? "").pathname).toBe(
      "/v2/customers/cus_1/accounts/acc_1/statements/st_1",
    );
    const items: string[] = [];
    for await (const item of c.statements.lineItems("cus_1", "acc_1", "st_1", {
      limit: 2,
      type: ["PURCHASE", "REFUND"],
    })) {
      items.push(item.line_item_id);
    }
    expect(items).toEqual(["li_1", "li_2", "li_3"]);
    const second = new URL(seen[2]?.url ?? "");
    expect(second.pathname).toBe("/v2/customers/cus_1/accounts/acc_1/statements/st_1/line_items");
    expect(second.searchParams.get("starting_after")).toBe("t1");
    expect(second.searchParams.get("type")).toBe("PURCHASE,REFUND");
    expect(second.searchParams.get("limit")).toBe("2");
  });
});

describe("retries", () => {
  it("retries a GET after 503 and 429, waiting what Retry-After asks", async () => {
    const { c, seen, sleeps } = client((_, call) =>
      call === 1
        ? json({ error: { type: "SERVICE_UNAVAILABLE_ERROR", message: "later" } }, 503, {
            "retry-after": "2",
          })
        : call === 2
          ? json({ error: { type: "RATE_LIMITED_ERROR", message: "slow" } }, 429, {
              "retry-after": new Date(Date.now() + 3000).toUTCString(),
            })
          : json({ customer_id: "cus_1" }),
    );
    expect(await c.customers.retrieve("cus_1")).toEqual({ customer_id: "cus_1" });
    expect(seen).toHaveLength(3);
    expect(sleeps[0]).toBe(2000);
    expect(sleeps[1]).toBeGreaterThan(1000);
    expect(sleeps[1]).toBeLessThanOrEqual(3000);
  });

  it("retries network errors with jittered exponential backoff, then gives up", async () => {
    const { c, seen, sleeps } = client(() => {
      throw new TypeError("fetch failed");
    });
    await expect(c.customers.retrieve("cus_1")).rejects.toThrow("fetch failed");
    expect(seen).toHaveLength(4);
    // random() = 0.5 of a ceiling of 500 ms doubling per retry.
    expect(sleeps).toEqual([250, 500, 1000]);
  });

  it("sends every POST with an Idempotency-Key and retries it under the same key", async () => {
    const { c, seen } = client((_, call) =>
      call === 1
        ? json({ error: { type: "SERVICE_UNAVAILABLE_ERROR", message: "later" } }, 503, {
            "retry-after": "0",
          })
        : json(
            {
              key_id: "key_1",
              api_key: "sk_sandbox_x",
              environment: "sandbox",
              scopes: [],
              created_at: "t",
            },
            201,
          ),
    );
    await c.keys.create({ name: "rotation" });
    expect(seen).toHaveLength(2);
    const [first, second] = seen.map((r) => r.headers.get("idempotency-key"));
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    expect(await seen[1]?.text()).toBe(JSON.stringify({ name: "rotation" }));

    await c.keys.create({}, { idempotencyKey: "my-own-key" });
    expect(seen.at(-1)?.headers.get("idempotency-key")).toBe("my-own-key");
  });

  it("never retries a status that is not 429 or 503", async () => {
    const { c, seen } = client(() =>
      json({ error: { type: "INTERNAL_ERROR", message: "x" } }, 500),
    );
    await expect(c.customers.retrieve("cus_1")).rejects.toBeInstanceOf(CardStatementsError);
    expect(seen).toHaveLength(1);
  });

  it("sends a DELETE with an Idempotency-Key and retries it under the same key", async () => {
    const del = client(() =>
      json({ error: { type: "SERVICE_UNAVAILABLE_ERROR", message: "x" } }, 503),
    );
    await expect(del.c.webhookEndpoints.delete("we_1")).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(del.seen.length).toBeGreaterThan(1);
    const keys = new Set(del.seen.map((r) => r.headers.get("idempotency-key")));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends a PUT or DELETE under the caller's own Idempotency-Key when one is given", async () => {
    const { c, seen } = client((request) =>
      request.method === "DELETE" ? new Response(null, { status: 204 }) : json({}, 200),
    );
    const order = {
      partner_order_id: "po_1",
      customer_id: "cus_1",
      currency: "USD",
      total_amount: 4500,
      lines: [{ name: "Lamp", quantity: 1, unit_amount: 4500 }],
    };
    await c.orders.update("ord_1", order, { idempotencyKey: "put-key" });
    await c.orders.delete("ord_1", { idempotencyKey: "delete-order-key" });
    await c.orderEvents.delete("oev_1", { idempotencyKey: "delete-event-key" });
    await c.webhookEndpoints.delete("we_1", { idempotencyKey: "delete-endpoint-key" });
    expect(seen.map((r) => [r.method, r.headers.get("idempotency-key")])).toEqual([
      ["PUT", "put-key"],
      ["DELETE", "delete-order-key"],
      ["DELETE", "delete-event-key"],
      ["DELETE", "delete-endpoint-key"],
    ]);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterMs("7")).toBe(7000);
    expect(
      retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 5)).toUTCString(), Date.UTC(2030, 0, 1)),
    ).toBe(5000);
    expect(retryAfterMs("soon")).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});

describe("typed errors", () => {
  const cases: [string, number, unknown, new (...args: never[]) => CardStatementsError, string][] =
    [
      [
        "the older InvalidRequestError shape",
        400,
        {
          path: "/v2/x",
          details: ["limit must be…"],
          error: "Bad Request",
          status: 400,
          timestamp: "t",
        },
        InvalidRequestError,
        "INVALID_REQUEST_ERROR",
      ],
      [
        "an enveloped invalid request",
        400,
        {
          error: {
            type: "INVALID_REQUEST_ERROR",
            message: "bad",
            details: ["bad", "worse"],
            param: "limit",
          },
        },
        InvalidRequestError,
        "INVALID_REQUEST_ERROR",
      ],
      [
        "the older CustomerNotFoundError shape",
        404,
        { type: "ACCOUNT_NOT_FOUND_ERROR", message: "No such account", param: "account_id" },
        CustomerNotFoundError,
        "ACCOUNT_NOT_FOUND_ERROR",
      ],
      [
        "an unsupported version",
        400,
        { error: { type: "BAD_REQUEST_ERROR", message: "Unsupported" } },
        BadRequestError,
        "BAD_REQUEST_ERROR",
      ],
      [
        "a bad key",
        401,
        { error: { type: "UNAUTHORIZED_ERROR", message: "no" } },
        AuthenticationError,
        "UNAUTHORIZED_ERROR",
      ],
      [
        "a missing scope",
        403,
        { error: { type: "FORBIDDEN_ERROR", message: "forbidden" } },
        PermissionError,
        "FORBIDDEN_ERROR",
      ],
      [
        "an unknown event",
        404,
        { error: { type: "NOT_FOUND_ERROR", message: "No such event" } },
        NotFoundError,
        "NOT_FOUND_ERROR",
      ],
      [
        "a reused idempotency key",
        422,
        { error: { type: "IDEMPOTENCY_KEY_REUSED_ERROR", message: "reused" } },
        IdempotencyError,
        "IDEMPOTENCY_KEY_REUSED_ERROR",
      ],
      [
        "a rate limit",
        429,
        { error: { type: "RATE_LIMITED_ERROR", message: "slow down" } },
        RateLimitError,
        "RATE_LIMITED_ERROR",
      ],
    ];
  it.each(cases)("throws %s as its class", async (_, status, body, type, name) => {
    const { c } = client(() => json(body, status, { "x-request-id": "req_1" }));
    const error = await c.customers.retrieve("cus_1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(CardStatementsError);
    expect(error).toMatchObject({ status, type: name, requestId: "req_1", body });
    if (error instanceof InvalidRequestError) expect(error.details.length).toBeGreaterThan(0);
  });
});

describe("verifyWebhook", () => {
  const secret = `whsec_${btoa("0123456789abcdef0123456789abcdef")}`;
  const body = JSON.stringify({
    event_id: "evt_1",
    type: "statement.created",
    data: { statement: {} },
  });

  function signed(at = new Date(), withSecret = secret) {
    const signature = new Webhook(withSecret).sign("evt_1", at, body);
    return {
      "webhook-id": "evt_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature,
    };
  }

  it("accepts a delivery signed per Standard Webhooks, with any live secret", async () => {
    const event = await verifyWebhook({ secret, headers: signed(), body });
    expect(event.event_id).toBe("evt_1");
    const other = `whsec_${btoa("another secret of 32 bytes......")}`;
    await verifyWebhook({ secret: [other, secret], headers: new Headers(signed()), body });
  });

  it.each([
    ["a changed body", { body: body.replace("evt_1", "evt_2") }],
    ["another secret", { secret: `whsec_${btoa("x".repeat(32))}` }],
    ["an old timestamp", { headers: signed(new Date(Date.now() - 600_000)) }],
    ["no signature", { headers: { "webhook-id": "evt_1", "webhook-timestamp": "1" } }],
  ])("refuses %s", async (_, change) => {
    await expect(
      verifyWebhook({ secret, headers: signed(), body, ...change }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});
