// The import's one read round trip: every stored row a payload refers to or would overwrite, one
// statement per table (per chunk of ids), with only the columns the review compares.
import type { Database } from "../db/client";
import { jsonChunks } from "../db/json-rows";
import type { ImportPayload } from "../domain/import-payload";
import { STATEMENT_COLUMNS, type StoredStatement } from "./statement-rows";

export interface Existing {
  partners: Set<string>;
  /** Partner id → the jurisdiction it was created with. */
  jurisdictions: Map<string, string>;
  /** Merchant key → owning partner. */
  products: Map<string, { partnerId: string }>;
  /** Customer id → its read scope. */
  customers: Map<
    string,
    { partnerId: string; environment: "sandbox" | "production"; merchantKey: string }
  >;
  /** Account id → its customer. */
  accounts: Map<string, { customerId: string }>;
  statements: Map<string, StoredStatement>;
}

const idsIn = (column: string) => `${column} IN (SELECT value FROM json_each(?1))`;

const LOOKUPS = {
  partner: `SELECT partner_id, jurisdiction FROM partners WHERE ${idsIn("partner_id")}`,
  product: `SELECT merchant_key, partner_id FROM products WHERE ${idsIn("merchant_key")}`,
  customer:
    "SELECT customer_id, partner_id, environment, merchant_key FROM customers " +
    `WHERE ${idsIn("customer_id")}`,
  account: `SELECT account_id, customer_id FROM accounts WHERE ${idsIn("account_id")}`,
  statement:
    `SELECT ${STATEMENT_COLUMNS.join(", ")} FROM statements ` + `WHERE ${idsIn("statement_id")}`,
} as const;

type Kind = keyof typeof LOOKUPS;
type Row = Record<string, string>;

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
  return ids;
}

/** Reads, in one round trip, every stored row the payload refers to or would overwrite. */
export async function readExisting(db: Database, payload: ImportPayload): Promise<Existing> {
  const ids = idsOf(payload);

  const kinds: Kind[] = [];
  const queries: D1PreparedStatement[] = [];
  for (const kind of Object.keys(LOOKUPS) as Kind[]) {
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
          found.partners.add(row.partner_id as string);
          found.jurisdictions.set(row.partner_id as string, row.jurisdiction as string);
          break;
        case "product":
          found.products.set(row.merchant_key as string, { partnerId: row.partner_id as string });
          break;
        case "customer":
          found.customers.set(row.customer_id as string, {
            partnerId: row.partner_id as string,
            environment: row.environment as "sandbox" | "production",
            merchantKey: row.merchant_key as string,
          });
          break;
        case "account":
          found.accounts.set(row.account_id as string, { customerId: row.customer_id as string });
          break;
        case "statement":
          found.statements.set(row.statement_id as string, row as StoredStatement);
          break;
      }
    }
  });
  return found;
}
