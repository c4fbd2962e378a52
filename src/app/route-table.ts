// The partner routes under /v2 and the scope each requires: the one table enforcement reads.
import type { Scope } from "../domain/scopes";

export { SCOPES, type Scope, SOFT_SCOPES } from "../domain/scopes";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface RouteSpec {
  method: Method;
  /** Hono path pattern. */
  path: string;
  /** The scope required, or null when a valid key is enough. */
  scope: Scope | null;
  /** Reads one product's customers, so the merchant-key header rules apply. */
  customerScoped: boolean;
  /** False for routes whose behaviour the specification does not show: they answer 501. */
  implemented: boolean;
  summary: string;
}

const route = (
  method: Method,
  path: string,
  scope: Scope | null,
  summary: string,
  options: { customerScoped?: boolean; implemented?: boolean } = {},
): RouteSpec => ({
  method,
  path,
  scope,
  summary,
  customerScoped: options.customerScoped ?? false,
  implemented: options.implemented ?? false,
});

const served = { customerScoped: true, implemented: true };

export const ROUTES: readonly RouteSpec[] = [
  route("GET", "/v2/orders", "ORDER_READ", "List orders"),
  route("GET", "/v2/order_events", "ORDER_READ", "List order events"),
  route("POST", "/v2/orders", "ORDER_WRITE", "Create an order"),
  route("PUT", "/v2/orders/:order_id", "ORDER_WRITE", "Update an order"),
  route("DELETE", "/v2/orders/:order_id", "ORDER_WRITE", "Delete an order"),
  route("POST", "/v2/order_events", "ORDER_WRITE", "Create an order event"),
  route("DELETE", "/v2/order_events/:order_event_id", "ORDER_WRITE", "Delete an order event"),
  route(
    "GET",
    "/v2/transaction_intents/:intent_id",
    "TRANSACTION_INTENT_READ",
    "Retrieve a transaction intent",
  ),
  route(
    "GET",
    "/v2/customers/:customer_id/transaction_intents",
    "TRANSACTION_INTENT_READ",
    "List a customer's transaction intents",
  ),
  route(
    "POST",
    "/v2/transaction_intents",
    "TRANSACTION_INTENT_WRITE",
    "Create a transaction intent",
  ),
  route(
    "POST",
    "/v2/transaction_intents/:intent_id",
    "TRANSACTION_INTENT_WRITE",
    "Update a transaction intent",
  ),
  route(
    "POST",
    "/v2/payment_methods/:payment_method_id/provision/:wallet",
    "CARD_WRITE",
    "Provision a payment method to a wallet",
  ),
  route(
    "GET",
    "/v2/customers/:customer_id/accounts",
    "ACCOUNT_READ",
    "List a customer's accounts",
    served,
  ),
  route(
    "GET",
    "/v2/customers/:customer_id/accounts/:account_id",
    "ACCOUNT_READ",
    "Retrieve an account",
    served,
  ),
  route(
    "GET",
    "/v2/customers/:customer_id/accounts/:account_id/rewards_categories",
    "ACCOUNT_READ",
    "List an account's rewards categories",
  ),
  route(
    "GET",
    "/v2/customers/:customer_id/accounts/:account_id/statements",
    "ACCOUNT_READ",
    "List an account's statements",
    served,
  ),
  route("GET", "/v2/customers", null, "List customers", served),
  route("GET", "/v2/customers/:customer_id", null, "Retrieve a customer", served),
  route("POST", "/v2/customers/:customer_id/link", null, "Link a partner customer id", served),
  route("POST", "/v2/keys", null, "Create an API key", { implemented: true }),
  // Statement events and their webhooks: they carry statements, so they need ACCOUNT_READ, and
  // they belong to one product, so the merchant-key rules apply.
  route("GET", "/v2/events", "ACCOUNT_READ", "List events", served),
  route("GET", "/v2/events/:event_id", "ACCOUNT_READ", "Retrieve an event", served),
  route(
    "GET",
    "/v2/events/:event_id/delivery_attempts",
    "ACCOUNT_READ",
    "List an event's delivery attempts",
    served,
  ),
  route("POST", "/v2/events/:event_id/resend", "ACCOUNT_READ", "Resend an event", served),
  route("POST", "/v2/webhook_endpoints", "ACCOUNT_READ", "Create a webhook endpoint", served),
  route("GET", "/v2/webhook_endpoints", "ACCOUNT_READ", "List webhook endpoints", served),
  route(
    "GET",
    "/v2/webhook_endpoints/:webhook_endpoint_id",
    "ACCOUNT_READ",
    "Retrieve a webhook endpoint",
    served,
  ),
  route(
    "DELETE",
    "/v2/webhook_endpoints/:webhook_endpoint_id",
    "ACCOUNT_READ",
    "Delete a webhook endpoint",
    served,
  ),
  route(
    "POST",
    "/v2/webhook_endpoints/:webhook_endpoint_id/roll_secret",
    "ACCOUNT_READ",
    "Roll a webhook endpoint's secret",
    served,
  ),
  route(
    "POST",
    "/v2/webhook_endpoints/:webhook_endpoint_id/enable",
    "ACCOUNT_READ",
    "Enable a webhook endpoint",
    served,
  ),
];
