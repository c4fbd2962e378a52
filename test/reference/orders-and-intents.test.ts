// Every version's reference documents the order, order-event and transaction-intent routes (new
// endpoints, in every version): served (no 501), with their scopes, their own 404s and 409s, the
// bounds and rows per call in their sections, and their schemas.
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { expectJson } from "../support/api";
import { ALL_VERSIONS } from "../support/bundle-versions";
import type { Json } from "../support/json";
import { request } from "../support/worker";

const REFERENCES = ALL_VERSIONS.flatMap((version) =>
  (["sandbox", "production"] as const)
    .filter((environment) => bundle.isSupported(version, environment))
    .map((environment) => [version, environment] as const),
);

const OPERATIONS: [string, string, string, string, string[]][] = [
  ["/v2/orders", "get", "listOrders", "ORDER_READ", []],
  ["/v2/orders", "post", "createOrder", "ORDER_WRITE", ["404", "409"]],
  ["/v2/orders/{order_id}", "put", "updateOrder", "ORDER_WRITE", ["404", "409"]],
  ["/v2/orders/{order_id}", "delete", "deleteOrder", "ORDER_WRITE", ["404", "409"]],
  ["/v2/order_events", "get", "listOrderEvents", "ORDER_READ", []],
  ["/v2/order_events", "post", "createOrderEvent", "ORDER_WRITE", ["404", "409"]],
  [
    "/v2/order_events/{order_event_id}",
    "delete",
    "deleteOrderEvent",
    "ORDER_WRITE",
    ["404", "409"],
  ],
  [
    "/v2/transaction_intents",
    "post",
    "createTransactionIntent",
    "TRANSACTION_INTENT_WRITE",
    ["404"],
  ],
  [
    "/v2/transaction_intents/{intent_id}",
    "get",
    "retrieveTransactionIntent",
    "TRANSACTION_INTENT_READ",
    ["404"],
  ],
  [
    "/v2/transaction_intents/{intent_id}",
    "post",
    "updateTransactionIntent",
    "TRANSACTION_INTENT_WRITE",
    ["404", "409"],
  ],
  [
    "/v2/customers/{customer_id}/transaction_intents",
    "get",
    "listCustomerTransactionIntents",
    "TRANSACTION_INTENT_READ",
    ["404"],
  ],
];

describe("orders and transaction intents in every version's reference", () => {
  it.each(REFERENCES)("documents every route in %s (%s)", async (version, environment) => {
    const query = environment === "sandbox" ? "" : `?environment=${environment}`;
    const doc = await expectJson<Json>(await request(`/openapi/${version}.json${query}`), 200);
    for (const [path, method, operationId, scope, errors] of OPERATIONS) {
      const op = doc.paths[path]?.[method];
      expect(op?.operationId, `${method} ${path}`).toBe(operationId);
      expect(op["x-required-scope"]).toBe(scope);
      expect(op.responses.default).toBeUndefined();
      expect(op.description).not.toContain("501");
      for (const status of errors) expect(Object.keys(op.responses)).toContain(status);
      // Every write takes an Idempotency-Key, a PUT and a DELETE as a POST.
      const idempotent = op.parameters.some(
        (p: { $ref?: string }) => p.$ref === "#/components/parameters/IdempotencyKey",
      );
      expect(idempotent, `${method} ${path}`).toBe(method !== "get");
      if (method !== "get") expect(Object.keys(op.responses)).toContain("422");
    }
    for (const name of ["Order", "OrderEvent", "TransactionIntent", "OrderRequest", "Merchant"]) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    const sections = Object.fromEntries(
      doc.tags.map((t: { name: string; description: string }) => [t.name, t.description]),
    );
    expect(sections.Orders).toContain("100 lines per order");
    expect(sections.Orders).toContain("100 events per order");
    expect(sections.Orders).toContain("1 MiB per body");
    expect(sections["Transaction intents"]).toContain("round trip");
    // The create's 409 names both of its causes: a conflict, or a key still in use.
    expect(doc.paths["/v2/orders"].post.responses["409"]).toEqual({
      $ref: "#/components/responses/ConflictOrIdempotencyKeyInUse",
    });
  });
});
