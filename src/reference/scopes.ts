// The reference's scope table: every route of a document with the scope it needs and why. The
// specification's scope table names some routes; the service's own (webhook endpoints, events,
// simulations) take the scope that reads what they carry, and those the specification leaves out
// of its table (customers, keys) need a valid key only. The scope itself is each route's own
// declaration (its `scope`): this table only says it, grouped and explained per section.
import type { Route } from "../app/route";
import { openApiPath } from "./operations";
import { SECTIONS, type Section } from "./sections";

/** One row of the table: a route, the scope it needs (null: none), and why. */
export interface ScopeRow {
  method: string;
  path: string;
  scope: string | null;
  source: Section["source"];
  why: string;
}

/** The table's rows for `routes`, in their order. Throws for a section without a rule. */
export function scopeRows(routes: readonly Route[]): ScopeRow[] {
  return routes.map((route) => {
    const { tag } = route;
    const rule = SECTIONS[tag];
    if (!rule) throw new Error(`the reference has no section ${tag} (src/reference/sections.ts)`);
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
