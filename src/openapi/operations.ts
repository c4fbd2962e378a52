// What each /v2 route of the route table takes and returns, as the reference documents it.
import type { RouteSpec } from "../app/route-table";
import type { SchemaName } from "../canonical/schemas";

/** The documented success of a served route. */
export interface Served {
  status: 200 | 201 | 202 | 204;
  /** The body of the success; none for a 204. */
  schema?: SchemaName;
  /** `token`: signed `next_page_token` cursors; `id`: the last object's id. */
  page?: "token" | "id";
  /** Query filters beyond paging: the statement date bounds. */
  filters?: "period_end_date";
  body?: { schema: SchemaName; required: boolean };
}

/** Keyed by `METHOD path`, exactly as in the route table. */
export const SERVED: Readonly<Record<string, Served>> = {
  "GET /v2/customers/:customer_id/accounts/:account_id/statements": {
    status: 200,
    schema: "StatementList",
    page: "token",
    filters: "period_end_date",
  },
  "GET /v2/customers/:customer_id/accounts": { status: 200, schema: "AccountList", page: "id" },
  "GET /v2/customers/:customer_id/accounts/:account_id": { status: 200, schema: "Account" },
  "GET /v2/customers": { status: 200, schema: "CustomerList", page: "id" },
  "GET /v2/customers/:customer_id": { status: 200, schema: "Customer" },
  "POST /v2/customers/:customer_id/link": {
    status: 200,
    schema: "Customer",
    body: { schema: "CustomerLinkRequest", required: true },
  },
  "POST /v2/keys": {
    status: 201,
    schema: "ApiKey",
    body: { schema: "CreateKeyRequest", required: false },
  },
  "GET /v2/events": { status: 200, schema: "EventList", page: "token" },
  "GET /v2/events/:event_id": { status: 200, schema: "Event" },
  "GET /v2/events/:event_id/delivery_attempts": {
    status: 200,
    schema: "DeliveryAttemptList",
    page: "id",
  },
  "POST /v2/events/:event_id/resend": {
    status: 202,
    schema: "EventResend",
    body: { schema: "ResendEventRequest", required: false },
  },
  "POST /v2/webhook_endpoints": {
    status: 201,
    schema: "WebhookEndpoint",
    body: { schema: "CreateWebhookEndpointRequest", required: true },
  },
  "GET /v2/webhook_endpoints": { status: 200, schema: "WebhookEndpointList", page: "id" },
  "GET /v2/webhook_endpoints/:webhook_endpoint_id": { status: 200, schema: "WebhookEndpoint" },
  "DELETE /v2/webhook_endpoints/:webhook_endpoint_id": { status: 204 },
  "POST /v2/webhook_endpoints/:webhook_endpoint_id/roll_secret": {
    status: 200,
    schema: "WebhookEndpoint",
    body: { schema: "RollWebhookEndpointSecretRequest", required: false },
  },
  "POST /v2/webhook_endpoints/:webhook_endpoint_id/enable": {
    status: 200,
    schema: "WebhookEndpoint",
  },
};

export function servedOf(route: RouteSpec): Served | undefined {
  return SERVED[`${route.method} ${route.path}`];
}

/** `/v2/customers/:customer_id` → `/v2/customers/{customer_id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

export function pathParameters(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
}

/** `List an account's statements` → `listAccountStatements`. */
export function operationIdOf(route: RouteSpec): string {
  const words = route.summary
    .replace(/'s\b/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w && !["a", "an", "the"].includes(w.toLowerCase()));
  return words
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0]?.toUpperCase() + w.slice(1).toLowerCase()))
    .join("");
}

/** Sections of the reference, found by the first matching path segment. */
export const TAGS: readonly (readonly [segment: string, tag: string, description: string])[] = [
  ["statements", "Statements", "Closed billing cycles of an account, newest first."],
  ["accounts", "Accounts", "Card accounts of a customer, as they stand today."],
  ["transaction_intents", "Transaction intents", "Not available in this service."],
  ["payment_methods", "Payment methods", "Not available in this service."],
  ["order", "Orders", "Not available in this service."],
  [
    "events",
    "Events",
    "What happened to statements, newest first, kept 30 days; the same events are pushed to " +
      "webhook endpoints.",
  ],
  [
    "webhook_endpoints",
    "Webhook endpoints",
    "HTTPS endpoints that receive statement events, signed per Standard Webhooks.",
  ],
  ["keys", "Keys", "API keys, created with the scopes of the key creating them."],
  ["customers", "Customers", "The customers of the product your key reads."],
];

export function tagOf(path: string): string {
  const segments = path.split("/");
  for (const [segment, tag] of TAGS) {
    if (segments.some((s) => s.startsWith(segment))) return tag;
  }
  return "Other";
}
