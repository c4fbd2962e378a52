// The import's one read round trip: every stored row a payload refers to or would overwrite, one
// statement per table (per chunk of ids), with only the columns the review compares.
import type { Database } from "../db/client";
import { jsonChunks } from "../db/json-rows";
import { ENVIRONMENTS, type Environment } from "../domain/environment";
import type { ImportPayload } from "../domain/import-payload";
import { STATEMENT_COLUMNS, type StoredStatement } from "../statements";

export interface Existing {
  partners: Set<string>;
  /** Partner id → the jurisdiction it was created with. */
  jurisdictions: Map<string, string>;
  /** Merchant key → owning partner, and the ids of its rewards categories. */
  products: Map<string, { partnerId: string; categoryIds: Set<string> }>;
  /** Customer id → its read scope. */
  customers: Map<string, { partnerId: string; environment: Environment; merchantKey: string }>;
  /**
   * Account id → its customer, the product that customer holds and the ids of that product's
   * rewards categories (a statement's rewards name them).
   */
  accounts: Map<string, { customerId: string; merchantKey: string; categoryIds: Set<string> }>;
  statements: Map<string, StoredStatement>;
}

const idsIn = (column: string) => `${column} IN (SELECT value FROM json_each(?1))`;

const KINDS = ["partner", "product", "customer", "account", "statement"] as const;
type Kind = (typeof KINDS)[number];

const LOOKUPS: Record<Kind, string> = {
  partner: `SELECT partner_id, jurisdiction FROM partners WHERE ${idsIn("partner_id")}`,
  product:
    "SELECT merchant_key, partner_id, rewards_categories FROM products " +
    `WHERE ${idsIn("merchant_key")}`,
  customer:
    "SELECT customer_id, partner_id, environment, merchant_key FROM customers " +
    `WHERE ${idsIn("customer_id")}`,
  account:
    "SELECT account_id, accounts.customer_id, customers.merchant_key, rewards_categories " +
    "FROM accounts JOIN customers USING (customer_id) JOIN products ON " +
    `products.merchant_key = customers.merchant_key WHERE ${idsIn("account_id")}`,
  statement:
    `SELECT ${STATEMENT_COLUMNS.join(", ")} FROM statements ` + `WHERE ${idsIn("statement_id")}`,
};

/** A looked-up row: text, integers or NULL (none of these tables holds a blob). */
type Row = Record<string, string | number | null>;

/** A text column of a looked-up row: every one read as text here is NOT NULL in its table. */
function textColumn(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== "string") throw new Error(`${column}: a lookup read no text`);
  return value;
}

/** The category ids of a looked-up product's rewards categories (a JSON column). */
function categoryIdsOf(row: Row): Set<string> {
  const text = row.rewards_categories;
  if (typeof text !== "string") return new Set();
  // The column holds the categories the import or a product change validated, as JSON.
  const categories = JSON.parse(text) as { category_id: string }[];
  return new Set(categories.map((category) => category.category_id));
}

/** The environment column of a looked-up customer. */
function environmentOf(row: Row): Environment {
  const environment = ENVIRONMENTS.find((e) => e === row.environment);
  if (environment === undefined) throw new Error("environment: a lookup read no environment");
  return environment;
}

/** Every id the payload names, by kind. */
export function idsOf(payload: ImportPayload): Record<Kind, Set<string>> {
  const ids: Record<Kind, Set<string>> = {
    partner: new Set(),
    product: new Set(),
    customer: new Set(),
    account: new Set(),
    statement: new Set(),
  };
  for (const p of payload.partners ?? []) {
    ids.partner.add(p.partner_id);
    for (const product of p.products ?? []) ids.product.add(product.merchant_key);
  }
  for (const c of payload.customers ?? []) {
    ids.partner.add(c.partner_id);
    ids.product.add(c.merchant_key);
    ids.customer.add(c.customer_id);
  }
  for (const a of payload.accounts ?? []) {
    ids.customer.add(a.customer_id);
    ids.account.add(a.account_id);
  }
  for (const s of payload.statements ?? []) {
    ids.account.add(s.account_id);
    ids.statement.add(s.statement_id);
  }
  for (const card of payload.payment_methods ?? []) {
    ids.customer.add(card.customer_id);
    ids.account.add(card.account_id);
  }
  return ids;
}

/** Reads, in one round trip, every stored row the payload refers to or would overwrite. */
export async function readExisting(db: Database, payload: ImportPayload): Promise<Existing> {
  const ids = idsOf(payload);

  const kinds: Kind[] = [];
  const queries: D1PreparedStatement[] = [];
  for (const kind of KINDS) {
    for (const chunk of jsonChunks(ids[kind], (id) => id)) {
      kinds.push(kind);
      queries.push(db.$client.prepare(LOOKUPS[kind]).bind(chunk));
    }
  }

  const found: Existing = {
    partners: new Set(),
    jurisdictions: new Map(),
    products: new Map(),
    customers: new Map(),
    accounts: new Map(),
    statements: new Map(),
  };
  if (queries.length === 0) return found;
  const results = await db.$client.batch<Row>(queries);
  results.forEach(({ results: rows }, i) => {
    for (const row of rows) {
      switch (kinds[i]) {
        case "partner":
          found.partners.add(textColumn(row, "partner_id"));
          found.jurisdictions.set(textColumn(row, "partner_id"), textColumn(row, "jurisdiction"));
          break;
        case "product":
          found.products.set(textColumn(row, "merchant_key"), {
            partnerId: textColumn(row, "partner_id"),
            categoryIds: categoryIdsOf(row),
          });
          break;
        case "customer":
          found.customers.set(textColumn(row, "customer_id"), {
            partnerId: textColumn(row, "partner_id"),
            environment: environmentOf(row),
            merchantKey: textColumn(row, "merchant_key"),
          });
          break;
        case "account":
          found.accounts.set(textColumn(row, "account_id"), {
            customerId: textColumn(row, "customer_id"),
            merchantKey: textColumn(row, "merchant_key"),
            categoryIds: categoryIdsOf(row),
          });
          break;
        case "statement":
          found.statements.set(textColumn(row, "statement_id"), row);
          break;
      }
    }
  });
  return found;
}
