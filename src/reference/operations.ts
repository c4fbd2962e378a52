// How the reference names and groups the routes: OpenAPI paths, operation ids and tags.
import type { Route } from "../app/route";

/** `/v2/customers/:customer_id` → `/v2/customers/{customer_id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

export function pathParameters(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
}

/** `List an account's statements` → `listAccountStatements`. */
export function operationIdOf(route: Route): string {
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
    "event_types",
    "Event types",
    "The event types of this API version, with what each announces: what webhook endpoints " +
      "take (`enabled_events`) and event lists filter on (`type`).",
  ],
  [
    "webhook_endpoints",
    "Webhook endpoints",
    "HTTPS endpoints that receive statement events, signed per Standard Webhooks.",
  ],
  ["keys", "Keys", "API keys, created with the scopes of the key creating them."],
  ["customers", "Customers", "The customers of the product your key reads."],
  [
    "simulations",
    "Sandbox simulations",
    "Sandbox keys only: customers, accounts and statements of your own, whose documents render " +
      "and whose events reach your webhook endpoints like real ones.",
  ],
];

export function tagOf(path: string): string {
  const segments = path.split("/");
  // What a simulation makes (customers, statements) is not its section: it is a simulation.
  const named = segments[2] === "simulations" ? ["simulations"] : segments;
  for (const [segment, tag] of TAGS) {
    if (named.some((s) => s.startsWith(segment))) return tag;
  }
  return "Other";
}
