// The route × scope matrix, generated from the route list the app enforces (src/routes.ts).
import { beforeAll, describe, expect, it } from "vitest";
import type { Route } from "../../src/app/route";
import { bundle } from "../../src/bundle";
import { SCOPES, type Scope, SOFT_SCOPES } from "../../src/domain/scopes";
import { app } from "../../src/index";
import { ROUTES } from "../../src/routes";
import { api } from "../support/api";
import { ALL_VERSIONS, OLDEST } from "../support/bundle-versions";
import { seedCard } from "../support/cards";
import { createKey, seedAccount } from "../support/fixtures";

/** SPEC.md's scope table and the other routes it names, written out independently of ROUTES. */
const SPECIFIED: readonly [string, Scope | null][] = [
  ["GET /v2/orders", "ORDER_READ"],
  ["GET /v2/order_events", "ORDER_READ"],
  ["POST /v2/orders", "ORDER_WRITE"],
  ["PUT /v2/orders/:order_id", "ORDER_WRITE"],
  ["DELETE /v2/orders/:order_id", "ORDER_WRITE"],
  ["POST /v2/order_events", "ORDER_WRITE"],
  ["DELETE /v2/order_events/:order_event_id", "ORDER_WRITE"],
  ["GET /v2/transaction_intents/:intent_id", "TRANSACTION_INTENT_READ"],
  ["GET /v2/customers/:customer_id/transaction_intents", "TRANSACTION_INTENT_READ"],
  ["POST /v2/transaction_intents", "TRANSACTION_INTENT_WRITE"],
  ["POST /v2/transaction_intents/:intent_id", "TRANSACTION_INTENT_WRITE"],
  ["POST /v2/payment_methods/:payment_method_id/provision/:wallet", "CARD_WRITE"],
  ["GET /v2/customers/:customer_id/accounts", "ACCOUNT_READ"],
  ["GET /v2/customers/:customer_id/accounts/:account_id", "ACCOUNT_READ"],
  ["GET /v2/customers/:customer_id/accounts/:account_id/rewards_categories", "ACCOUNT_READ"],
  ["GET /v2/customers/:customer_id/accounts/:account_id/statements", "ACCOUNT_READ"],
  ["GET /v2/customers", null],
  ["GET /v2/customers/:customer_id", null],
  ["POST /v2/customers/:customer_id/link", null],
  ["POST /v2/keys", null],
];

/** The routes that integrate partners: statement events and their webhook endpoints. */
const INTEGRATION: readonly [string, Scope | null][] = [
  ["GET /v2/events", "ACCOUNT_READ"],
  ["GET /v2/events/:event_id", "ACCOUNT_READ"],
  ["GET /v2/events/:event_id/delivery_attempts", "ACCOUNT_READ"],
  ["POST /v2/events/:event_id/resend", "ACCOUNT_READ"],
  ["GET /v2/event_types", "ACCOUNT_READ"],
  ["POST /v2/webhook_endpoints", "ACCOUNT_READ"],
  ["GET /v2/webhook_endpoints", "ACCOUNT_READ"],
  ["GET /v2/webhook_endpoints/:webhook_endpoint_id", "ACCOUNT_READ"],
  ["POST /v2/webhook_endpoints/:webhook_endpoint_id", "ACCOUNT_READ"],
  ["DELETE /v2/webhook_endpoints/:webhook_endpoint_id", "ACCOUNT_READ"],
  ["POST /v2/webhook_endpoints/:webhook_endpoint_id/roll_secret", "ACCOUNT_READ"],
  ["POST /v2/webhook_endpoints/:webhook_endpoint_id/enable", "ACCOUNT_READ"],
  ["POST /v2/webhook_endpoints/:webhook_endpoint_id/recover", "ACCOUNT_READ"],
];

/** One statement and its line items (CONTRACT §9): new routes, in every version. */
const STATEMENT_IN_FULL: readonly [string, Scope | null][] = [
  ["GET /v2/customers/:customer_id/accounts/:account_id/statements/:statement_id", "ACCOUNT_READ"],
  [
    "GET /v2/customers/:customer_id/accounts/:account_id/statements/:statement_id/line_items",
    "ACCOUNT_READ",
  ],
];

/** A customer's cards (CONTRACT §11): outside the scope table, so any valid key reads them. */
const PAYMENT_METHOD_READS: readonly [string, Scope | null][] = [
  ["GET /v2/payment_methods", null],
  ["GET /v2/payment_methods/:payment_method_id", null],
];

/** The sandbox's simulations: sandbox data of the partner's own making. */
const SIMULATIONS: readonly [string, Scope | null][] = [
  ["POST /v2/simulations/customers", "ACCOUNT_READ"],
  ["POST /v2/simulations/statements", "ACCOUNT_READ"],
  ["POST /v2/simulations/payment_methods", "ACCOUNT_READ"],
];

const METHODS = ["GET", "POST", "PUT", "DELETE"] as const;
const nameOf = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** Keys of one partner: every scope but one, exactly one scope, and none at all. */
interface Keys {
  allBut: Map<Scope, string>;
  only: Map<Scope, string>;
  none: string;
  all: string;
}

let fixture: Awaited<ReturnType<typeof seedAccount>>;
let keys: Keys;
/** An event and a webhook endpoint of the fixture's product, for the routes that name one. */
let eventId: string;
let endpointId: string;
/** A card of the fixture's customer. */
let paymentMethodId: string;
/** An order (with room for a capture per call), its capture, and a transaction intent. */
let orderId: string;
let partnerOrderId: string;
let orderEventId: string;
let intentId: string;

async function createdId(path: string, body: unknown, id: string): Promise<string> {
  const res = await api(path, { key: keys.all, method: "POST", body });
  const answer = (await res.json()) as Record<string, unknown>;
  const value = answer[id];
  if (typeof value !== "string") throw new Error(`${path} failed: ${JSON.stringify(answer)}`);
  return value;
}

const newOrderBody = (partnerOrder = `po-${crypto.randomUUID()}`) => ({
  partner_order_id: partnerOrder,
  customer_id: fixture.customerId,
  currency: "USD",
  total_amount: 1_000_000,
});

const createOrder = () => createdId("/v2/orders", newOrderBody(), "order_id");

const captureBody = (order: string) => ({
  order_id: order,
  type: "CAPTURED",
  amount: 1,
  network_transaction_id: "ntx-matrix",
});

async function createEndpoint(): Promise<string> {
  const res = await api("/v2/webhook_endpoints", {
    key: keys.all,
    method: "POST",
    body: { url: "https://hooks.example.com/matrix" },
  });
  const body = (await res.json()) as { webhook_endpoint_id?: string };
  if (!body.webhook_endpoint_id)
    throw new Error(`endpoint creation failed: ${JSON.stringify(body)}`);
  return body.webhook_endpoint_id;
}

beforeAll(async () => {
  fixture = await seedAccount({ statements: 1, scopes: [] });
  paymentMethodId = (await seedCard(fixture)).payment_method_id;
  const key = async (scopes: Scope[]) =>
    (await createKey(fixture.partnerId, "sandbox", scopes)).apiKey;
  const allBut = new Map<Scope, string>();
  const only = new Map<Scope, string>();
  for (const scope of SCOPES) {
    allBut.set(scope, await key(SCOPES.filter((s) => s !== scope)));
    only.set(scope, await key([scope]));
  }
  keys = { allBut, only, none: fixture.key, all: await key([...SCOPES]) };
  const events = (await (await api("/v2/events", { key: keys.all })).json()) as {
    data: { event_id: string }[];
  };
  eventId = events.data[0]?.event_id as string;
  endpointId = await createEndpoint();
  partnerOrderId = `po-${crypto.randomUUID()}`;
  orderId = await createdId("/v2/orders", newOrderBody(partnerOrderId), "order_id");
  orderEventId = await createdId("/v2/order_events", captureBody(orderId), "order_event_id");
  intentId = await createdId(
    "/v2/transaction_intents",
    { customer_id: fixture.customerId, amount: 100, currency: "USD" },
    "intent_id",
  );
});

/** The route's path with its parameters filled: the fixture's customer and account, else ids. */
function pathOf(
  route: { path: string },
  endpoint = endpointId,
  ids: { order?: string; orderEvent?: string } = {},
): string {
  // The cards list names its customer in the query.
  if (route.path === "/v2/payment_methods")
    return `${route.path}?customer_id=${fixture.customerId}`;
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (name === "order_id") return ids.order ?? orderId;
    if (name === "order_event_id") return ids.orderEvent ?? orderEventId;
    if (name === "intent_id") return intentId;
    if (name === "customer_id") return fixture.customerId;
    if (name === "account_id") return fixture.accountId;
    if (name === "event_id") return eventId;
    if (name === "webhook_endpoint_id") return endpoint;
    if (name === "payment_method_id") return paymentMethodId;
    if (name === "statement_id") return `${fixture.accountId}_st_001`;
    if (name === "wallet") return "google_pay";
    return `${name}_1`;
  });
}

/** A body each POST accepts. */
const BODIES: Record<string, () => unknown> = {
  "/v2/customers/:customer_id/link": () => ({ partner_customer_id: "crm-matrix" }),
  "/v2/webhook_endpoints": () => ({ url: "https://hooks.example.com/matrix" }),
  "/v2/webhook_endpoints/:webhook_endpoint_id/recover": () => ({
    since: new Date(Date.now() - 3600_000).toISOString(),
  }),
  "/v2/payment_methods/:payment_method_id/provision/:wallet": () => ({
    client_device_id: "device-matrix",
    client_wallet_account_id: "account-matrix",
  }),
  "/v2/simulations/statements": () => ({
    customer_id: fixture.customerId,
    account_id: fixture.accountId,
  }),
  "/v2/simulations/payment_methods": () => ({
    customer_id: fixture.customerId,
    account_id: fixture.accountId,
  }),
  "/v2/orders": () => newOrderBody(),
  "/v2/orders/:order_id": () => newOrderBody(partnerOrderId),
  "/v2/order_events": () => captureBody(orderId),
  "/v2/transaction_intents": () => ({
    customer_id: fixture.customerId,
    amount: 100,
    currency: "USD",
  }),
  "/v2/transaction_intents/:intent_id": () => ({ metadata: { matrix: "yes" } }),
};

async function call(route: Route, key: string, version?: string): Promise<Response> {
  const body =
    route.method === "POST" || route.method === "PUT" ? BODIES[route.path]?.() : undefined;
  // A deleted endpoint, order or event is gone: each deletion gets one of its own. An endpoint
  // runs one recovery at a time, a few an hour: each recovery gets an endpoint of its own too.
  const deleting = route.method === "DELETE";
  const recovering = route.path.endsWith("/recover");
  const endpoint =
    (deleting && route.path.includes("webhook")) || recovering
      ? await createEndpoint()
      : endpointId;
  const ids = {
    ...(deleting && route.path === "/v2/orders/:order_id" ? { order: await createOrder() } : {}),
    ...(deleting && route.path.startsWith("/v2/order_events/")
      ? {
          orderEvent: await createdId(
            "/v2/order_events",
            captureBody(await createOrder()),
            "order_event_id",
          ),
        }
      : {}),
  };
  const res = await api(pathOf(route, endpoint, ids), {
    key,
    method: route.method,
    ...(body ? { body } : {}),
    ...(version ? { version } : {}),
  });
  // Endpoints are capped per product: leave none behind.
  const created = route.path === "/v2/webhook_endpoints" && res.status === 201;
  const left = created
    ? ((await res.clone().json()) as { webhook_endpoint_id: string }).webhook_endpoint_id
    : (route.method === "DELETE" && route.path.includes("webhook") && res.status !== 204) ||
        recovering
      ? endpoint
      : null;
  if (left) await api(`/v2/webhook_endpoints/${left}`, { key: keys.all, method: "DELETE" });
  return res;
}

describe("the route list", () => {
  it("is SPEC.md's scope table, the routes it names without a scope, the event routes and the simulations", () => {
    // A statement and its line items are listed right after the statements list, the card
    // reads right before provisioning.
    const list = SPECIFIED.findIndex(([name]) => name.endsWith("/statements")) + 1;
    const provision = SPECIFIED.findIndex(([name]) => name.includes("/provision/"));
    expect(ROUTES.map((r) => [nameOf(r), r.scope])).toEqual([
      ...SPECIFIED.slice(0, provision),
      ...PAYMENT_METHOD_READS,
      ...SPECIFIED.slice(provision, list),
      ...STATEMENT_IN_FULL,
      ...SPECIFIED.slice(list),
      ...INTEGRATION,
      ...SIMULATIONS,
    ]);
  });

  it("never requires a soft scope", () => {
    expect(ROUTES.filter((r) => r.scope !== null && SOFT_SCOPES.includes(r.scope))).toEqual([]);
  });

  it("lists every /v2 route the app registers", () => {
    const listed = new Set(ROUTES.map(nameOf));
    const registered = app.routes.filter((r) => r.path.startsWith("/v2"));
    // Method-less registrations are the pipeline and the not-found fallback, for /v2/* only.
    const everyMethod = registered.filter((r) => r.method === "ALL").map((r) => r.path);
    expect(new Set(everyMethod)).toEqual(new Set(["/v2/*"]));
    const routed = new Set(registered.filter((r) => r.method !== "ALL").map(nameOf));
    expect([...routed].filter((name) => !listed.has(name))).toEqual([]);
    expect([...listed].filter((name) => !routed.has(name))).toEqual([]);
  });

  it("answers NOT_FOUND_ERROR for a method the list does not declare on a listed path", async () => {
    const paths = [...new Set(ROUTES.map((r) => r.path))];
    for (const path of paths) {
      for (const method of METHODS) {
        if (ROUTES.some((r) => r.path === path && r.method === method)) continue;
        const res = await api(pathOf({ path }), { key: keys.all, method });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(await res.json()).toMatchObject({ error: { type: "NOT_FOUND_ERROR" } });
      }
    }
  });
});

describe.each(ROUTES.map((r) => [nameOf(r), r] as const))("%s", (_, route) => {
  it.each([...SCOPES])("without %s: 403 exactly when the route needs it", async (scope) => {
    const res = await call(route, keys.allBut.get(scope) as string);
    const text = await res.text();
    if (route.scope === scope) {
      expect(res.status, text).toBe(403);
      expect(JSON.parse(text)).toEqual({
        error: { type: "FORBIDDEN_ERROR", message: "forbidden" },
      });
      expect(res.headers.get("x-service-version")).toBe(OLDEST);
    } else {
      expect(res.status, text).not.toBe(403);
    }
  });

  const needed = route.scope === null ? "no scope" : `only ${route.scope}`;
  it(`passes the scope check with ${needed}`, async () => {
    const key = route.scope === null ? keys.none : (keys.only.get(route.scope) as string);
    const res = await call(route, key);
    const text = await res.text();
    expect(res.status, text).not.toBe(403);
    // Past the scope check, the route itself answers: 2xx when served, 501 otherwise.
    if (route.implemented) expect([200, 201, 202, 204], text).toContain(res.status);
    else expect(res.status, text).toBe(501);
  });

  it.each(ALL_VERSIONS)(
    "answers in %s after authentication, version and scope",
    async (version) => {
      const unauthenticated = await api(pathOf(route), { method: route.method });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers.get("x-service-version")).toBeNull();

      const res = await call(route, keys.all, version);
      expect(res.headers.get("x-service-version")).toBe(version);
      const text = await res.text();
      const body = text === "" ? null : JSON.parse(text);
      if (!bundle.routeExists(version, route.method, route.path)) {
        // Not in this version: exactly an unknown route.
        expect(res.status).toBe(404);
        expect(body).toEqual({
          error: { type: "NOT_FOUND_ERROR", message: `No route ${route.method} ${pathOf(route)}.` },
        });
      } else if (route.implemented) {
        expect([200, 201, 202, 204], text).toContain(res.status);
      } else {
        expect(res.status).toBe(501);
        const shown = route.path.replace(/:(\w+)/g, "{$1}");
        expect(body).toEqual({
          error: { type: "NOT_IMPLEMENTED_ERROR", message: expect.stringContaining(shown) },
        });
      }
    },
  );
});
