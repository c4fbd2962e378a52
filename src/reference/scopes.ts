// The reference's scope table: every route of a document with the scope it needs and why. The
// specification's scope table names some routes; the service's own (webhook endpoints, events,
// simulations) take the scope that reads what they carry, and those the specification leaves out
// of its table (customers, keys) need a valid key only. The scope itself is each route's own
// declaration (its `scope`): this table only says it, grouped and explained per section.
import type { Route } from "../app/route";
import { openApiPath } from "./operations";

/** Where a section's scope comes from, and why it is that one. */
interface ScopeRule {
  source: "specification" | "service";
  why: string;
}

/** Per section of the reference (its tag): the rule its routes' scopes follow. */
export const SCOPE_RULES: Record<string, ScopeRule> = {
  Statements: {
    source: "specification",
    why: "Named by the specification's scope table: statement reads.",
  },
  Accounts: {
    source: "specification",
    why: "Named by the specification's scope table: account and rewards-category reads.",
  },
  Orders: { source: "specification", why: "Named by the specification's scope table." },
  "Transaction intents": {
    source: "specification",
    why: "Named by the specification's scope table.",
  },
  "Payment methods": { source: "specification", why: "Named by the specification's scope table." },
  Customers: {
    source: "specification",
    why:
      "Outside the specification's scope table, so a valid key is enough; a key still sees " +
      "only the customers of its own product.",
  },
  Keys: {
    source: "specification",
    why:
      "Outside the specification's scope table, so a valid key is enough: the key it creates " +
      "carries exactly the creating key's scopes, so it grants nothing the caller lacks.",
  },
  Events: {
    source: "service",
    why:
      "Each event carries a statement of an account: reading events is reading statements, so " +
      "it takes the scope that reads them.",
  },
  "Event types": {
    source: "service",
    why:
      "The catalogue names what events and webhook endpoints carry, which that scope reads, so " +
      "it takes the same scope.",
  },
  "Webhook endpoints": {
    source: "service",
    why:
      "An endpoint receives statement events, so managing one takes the scope that reads " +
      "statements (as it always has: a key with it manages its endpoints).",
  },
  "Sandbox simulations": {
    source: "service",
    why:
      "Sandbox keys only. A simulation makes customers, accounts and statements, which that " +
      "scope reads, so making them takes the same scope.",
  },
};

/** One row of the table: a route, the scope it needs (null: none), and why. */
export interface ScopeRow {
  method: string;
  path: string;
  scope: string | null;
  source: ScopeRule["source"];
  why: string;
}

/** The table's rows for `routes`, in their order. Throws for a section without a rule. */
export function scopeRows(routes: readonly Route[]): ScopeRow[] {
  return routes.map((route) => {
    const { tag } = route;
    const rule = SCOPE_RULES[tag];
    if (!rule) throw new Error(`no scope rule for the reference's section ${tag}`);
    return {
      method: route.method,
      path: openApiPath(route.path),
      scope: route.scope,
      source: rule.source,
      why: rule.why,
    };
  });
}

/** The table, as Markdown for the reference's description. */
export function scopeTable(routes: readonly Route[]): string[] {
  const rows = scopeRows(routes).map(
    (row) =>
      `| \`${row.method} ${row.path}\` | ${row.scope ? `\`${row.scope}\`` : "none"} | ` +
      `${row.source === "specification" ? "specification" : "this service"} | ${row.why} |`,
  );
  return [
    "## Scopes",
    "",
    "The scope each operation needs (a key without it gets `403`; `PCI_DETAILS_READ` and " +
      "`AUTHORIZED_USER_READ` never refuse a request, they only reveal fields), where that " +
      "comes from, and why. Each operation also names its scope in `x-required-scope`.",
    "",
    "| Operation | Scope | From | Why |",
    "| - | - | - | - |",
    ...rows,
  ];
}
