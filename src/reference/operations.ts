// How the reference names and groups the routes: OpenAPI paths, and its sections (tags), which
// each route names in its declaration (`tag`).

/** `/v2/customers/:customer_id` → `/v2/customers/{customer_id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

export function pathParameters(path: string): string[] {
  return path
    .split("/")
    .filter((segment) => segment.startsWith(":"))
    .map((segment) => segment.slice(1));
}

/** Sections of the reference, in the order it lists them. */
export const TAGS: readonly (readonly [tag: string, description: string])[] = [
  ["Statements", "Closed billing cycles of an account, newest first."],
  ["Accounts", "Card accounts of a customer, as they stand today."],
  ["Transaction intents", "Not available in this service."],
  ["Payment methods", "Not available in this service."],
  ["Orders", "Not available in this service."],
  [
    "Events",
    "What happened to statements, newest first, kept 30 days; the same events are pushed to " +
      "webhook endpoints.",
  ],
  [
    "Event types",
    "The event types of this API version, with what each announces: what webhook endpoints " +
      "take (`enabled_events`) and event lists filter on (`type`).",
  ],
  [
    "Webhook endpoints",
    "HTTPS endpoints that receive statement events, signed per Standard Webhooks.",
  ],
  ["Keys", "API keys, created with the scopes of the key creating them."],
  ["Customers", "The customers of the product your key reads."],
  [
    "Sandbox simulations",
    "Sandbox keys only: customers, accounts and statements of your own, whose documents render " +
      "and whose events reach your webhook endpoints like real ones.",
  ],
];
