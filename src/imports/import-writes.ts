// The writes of an import, for one atomic batch: per section, set-based upserts that read their
// rows from JSON (see json-rows.ts), a few statements however many rows the payload holds.
// Guards inside the statements refuse what another import may have changed since the review read
// the stored rows: an ownership change makes a NOT NULL column NULL, a figure change trips the
// immutability trigger (migrations/0001), and either fails the whole batch.
import { prepared } from "../db/batch";
import type { Database } from "../db/client";
import { jsonChunks } from "../db/json-rows";
import { renderRequestWrites } from "../documents";
import type { Actor } from "../domain/audit";
import type { EventType } from "../domain/event";
import type { ImportPayload, StatementInput } from "../domain/import-payload";
import { CARD_OWNERSHIP_GUARD } from "../payment-methods";
import { importedVersionRecords } from "../saved-versions";
import { lineItemInserts, statementInsert, statementRowChunks } from "../statements";
import { statementEventWrites } from "../webhook-deliveries";
import type { Existing } from "./import-existing";

/** `?1` is a chunk of rows; each row is a JSON array read back with `value ->> n`. */
const FROM_ROWS = "FROM json_each(?1) WHERE true";

/** The stored value when the incoming row agrees on every column of `same`, else NULL. */
const keptOrNull = (table: string, column: string, same: readonly string[]) =>
  `CASE WHEN ${same.map((c) => `${table}.${c} IS excluded.${c}`).join(" AND ")} ` +
  `THEN ${table}.${column} END`;

/** The NOT NULL failures `keptOrNull` provokes, by the constraint name SQLite reports. */
export const OWNERSHIP_GUARDS = [
  "customers.partner_id",
  "accounts.customer_id",
  "products.partner_id",
  CARD_OWNERSHIP_GUARD,
];

/**
 * Rows: [partner_id, name, sandbox version | null, production version | null, jurisdiction |
 * null]; ?2 default version. A new partner takes its jurisdiction (`none` unless given); a stored
 * one keeps its own (the review refused a change).
 */
const UPSERT_PARTNERS =
  "INSERT INTO partners (partner_id, name, saved_version_sandbox, saved_version_production, " +
  "created_at, jurisdiction) SELECT value ->> 0, value ->> 1, coalesce(value ->> 2, ?2), " +
  `coalesce(value ->> 3, ?2), ?3, coalesce(value ->> 4, 'none') ${FROM_ROWS} ` +
  "ON CONFLICT (partner_id) DO UPDATE SET name = excluded.name";
/** A re-import changes only the saved versions it names. */
const SET_SAVED_VERSIONS =
  "UPDATE partners SET saved_version_sandbox = coalesce(j.sandbox, saved_version_sandbox), " +
  "saved_version_production = coalesce(j.production, saved_version_production) " +
  "FROM (SELECT value ->> 0 AS partner_id, value ->> 2 AS sandbox, value ->> 3 AS production " +
  "FROM json_each(?1)) AS j WHERE partners.partner_id = j.partner_id " +
  "AND (j.sandbox IS NOT NULL OR j.production IS NOT NULL)";
/**
 * Rows: [merchant_key, partner_id, name, documents | null, rewards categories (as JSON text) |
 * null]; a new product renders by default.
 */
const UPSERT_PRODUCTS =
  "INSERT INTO products (merchant_key, partner_id, name) " +
  `SELECT value ->> 0, value ->> 1, value ->> 2 ${FROM_ROWS} ` +
  "ON CONFLICT (merchant_key) DO UPDATE SET name = excluded.name, " +
  `partner_id = ${keptOrNull("products", "partner_id", ["partner_id"])}`;
/** The product rows (see UPSERT_PRODUCTS): a product naming its documents. */
const SET_DOCUMENTS =
  "UPDATE products SET documents = j.documents FROM (SELECT value ->> 0 AS merchant_key, " +
  "value ->> 3 AS documents FROM json_each(?1)) AS j " +
  "WHERE products.merchant_key = j.merchant_key AND j.documents IS NOT NULL";
/** The product rows (see UPSERT_PRODUCTS): a product listing its rewards categories. */
const SET_REWARDS_CATEGORIES =
  "UPDATE products SET rewards_categories = j.categories FROM (SELECT value ->> 0 AS " +
  "merchant_key, value ->> 4 AS categories FROM json_each(?1)) AS j " +
  "WHERE products.merchant_key = j.merchant_key AND j.categories IS NOT NULL";
/** The partner's copy of its merchant keys (read by authentication), after new products. */
const REFRESH_MERCHANT_KEYS =
  "UPDATE partners SET merchant_keys = (SELECT json_group_array(merchant_key) FROM " +
  "(SELECT merchant_key FROM products WHERE products.partner_id = partners.partner_id " +
  "ORDER BY merchant_key)) WHERE partner_id IN (SELECT value FROM json_each(?1))";
/**
 * Rows: [customer_id, partner_id, environment, merchant_key, partner_customer_id | null,
 * authorized_users (a JSON array, stored as its text) | null]. Absent optional fields keep what
 * is stored.
 */
const UPSERT_CUSTOMERS =
  "INSERT INTO customers (customer_id, partner_id, environment, merchant_key, " +
  "partner_customer_id, authorized_users, created_at) SELECT value ->> 0, value ->> 1, " +
  `value ->> 2, value ->> 3, value ->> 4, value ->> 5, ?2 ${FROM_ROWS} ` +
  "ON CONFLICT (customer_id) DO UPDATE SET partner_id = " +
  `${keptOrNull("customers", "partner_id", ["partner_id", "environment", "merchant_key"])}, ` +
  "partner_customer_id = coalesce(excluded.partner_customer_id, customers.partner_customer_id), " +
  "authorized_users = coalesce(excluded.authorized_users, customers.authorized_users)";
const ACCOUNT_FIGURES = [
  "status",
  "currency",
  "credit_limit",
  "current_balance",
  "available_credit",
] as const;
/** Rows: [account_id, customer_id, partner_id, environment, merchant_key, ...figures | null]. */
const UPSERT_ACCOUNTS =
  "INSERT INTO accounts (account_id, customer_id, partner_id, environment, merchant_key, " +
  `${ACCOUNT_FIGURES.join(", ")}, created_at) SELECT ` +
  `${Array.from({ length: 5 + ACCOUNT_FIGURES.length }, (_, i) => `value ->> ${i}`).join(", ")}` +
  `, ?2 ${FROM_ROWS} ON CONFLICT (account_id) DO UPDATE SET customer_id = ` +
  `${keptOrNull("accounts", "customer_id", ["customer_id"])}, ` +
  ACCOUNT_FIGURES.map((f) => `${f} = coalesce(excluded.${f}, accounts.${f})`).join(", ");

/** The event each new statement of an import announces. */
const CREATED: EventType = "statement.created";

/**
 * An import's writes for one atomic batch: those from `deliveriesFrom` answer webhook deliveries,
 * and those from `rendersFrom` on answer the statement renders asked for.
 */
export interface ImportWrites {
  writes: D1PreparedStatement[];
  deliveriesFrom: number;
  rendersFrom: number;
}

/** Adds the writes of `query`, bound to each chunk of rows and then to `more`. */
type AddEach = (query: string, chunks: string[], ...more: unknown[]) => void;

/**
 * The partners' section: saved-version changes (with their audit rows, attributed to `actor`)
 * before the partners change, the partners, their products and their merchant keys.
 */
function partnerWrites(
  db: Database,
  payload: ImportPayload,
  writes: D1PreparedStatement[],
  each: AddEach,
  { now, defaultVersion, actor }: { now: Date; defaultVersion: string; actor: Actor },
): void {
  const partners = payload.partners ?? [];
  for (const environment of ["sandbox", "production"] as const) {
    const changes = partners.flatMap((p) => {
      const to = p.saved_versions?.[environment];
      return to ? [[p.partner_id, to]] : [];
    });
    for (const rows of jsonChunks(changes, (row) => row)) {
      const records = importedVersionRecords({ rows, environment, actor, now });
      for (const query of records) writes.push(prepared(db, query));
    }
  }
  const partnerChunks = jsonChunks(partners, (p) => [
    p.partner_id,
    p.name,
    p.saved_versions?.sandbox ?? null,
    p.saved_versions?.production ?? null,
    p.jurisdiction ?? null,
  ]);
  each(UPSERT_PARTNERS, partnerChunks, defaultVersion, now.toISOString());
  if (partners.some((p) => p.saved_versions?.sandbox || p.saved_versions?.production)) {
    each(SET_SAVED_VERSIONS, partnerChunks);
  }
  const products = partners.flatMap((p) =>
    (p.products ?? []).map((product) => [
      product.merchant_key,
      p.partner_id,
      product.name,
      product.documents ?? null,
      product.rewards_categories === undefined ? null : JSON.stringify(product.rewards_categories),
    ]),
  );
  const productChunks = jsonChunks(products, (row) => row);
  each(UPSERT_PRODUCTS, productChunks);
  if (products.some((row) => row[3] !== null)) each(SET_DOCUMENTS, productChunks);
  if (products.some((row) => row[4] !== null)) each(SET_REWARDS_CATEGORIES, productChunks);
  each(
    REFRESH_MERCHANT_KEYS,
    jsonChunks(
      partners.filter((p) => p.products?.length),
      (p) => p.partner_id,
    ),
  );
}

/** The customers' and accounts' sections: an account takes its customer's scope. */
function customerWrites(
  payload: ImportPayload,
  existing: Existing,
  each: AddEach,
  createdAt: string,
): void {
  const customers = payload.customers ?? [];
  const customerScope = new Map(existing.customers);
  for (const c of customers) {
    customerScope.set(c.customer_id, {
      partnerId: c.partner_id,
      environment: c.environment,
      merchantKey: c.merchant_key,
    });
  }
  each(
    UPSERT_CUSTOMERS,
    jsonChunks(customers, (c) => [
      c.customer_id,
      c.partner_id,
      c.environment,
      c.merchant_key,
      c.partner_customer_id ?? null,
      c.authorized_users ?? null,
    ]),
    createdAt,
  );
  each(
    UPSERT_ACCOUNTS,
    jsonChunks(payload.accounts ?? [], (a) => {
      const scope = customerScope.get(a.customer_id);
      if (!scope) throw new Error(`account ${a.account_id}: customer scope missing after review`);
      return [
        a.account_id,
        a.customer_id,
        scope.partnerId,
        scope.environment,
        scope.merchantKey,
        ...ACCOUNT_FIGURES.map((f) => a[f] ?? null),
      ];
    }),
    createdAt,
  );
}

/**
 * The writes of an import, in dependency order, for one atomic batch: saved-version changes (with
 * their audit rows, attributed to `actor`) before the partners change, then each section, then a
 * `statement.created` event for each new statement and its webhook deliveries, then the renders of
 * the new statements whose products render their documents, last.
 */
export function writesOf(
  db: Database,
  payload: ImportPayload,
  existing: Existing,
  newStatements: StatementInput[],
  digests: ReadonlyMap<string, string | null>,
  options: { now: Date; defaultVersion: string; actor: Actor },
): ImportWrites {
  const createdAt = options.now.toISOString();
  const writes: D1PreparedStatement[] = [];
  const each: AddEach = (query, chunks, ...more) => {
    const prepared = db.$client.prepare(query);
    for (const chunk of chunks) writes.push(prepared.bind(chunk, ...more));
  };
  partnerWrites(db, payload, writes, each, options);
  customerWrites(payload, existing, each, createdAt);

  // Events belong in this batch too, written from the same chunks of new statements (one
  // INSERT … SELECT per chunk), so that they commit or roll back with the rows. Statements already
  // stored at the review get none: a re-import announces nothing. Only statements the review
  // found new are sent (see statementInsert).
  const statementChunks = statementRowChunks(newStatements, digests);
  for (const rows of statementChunks) writes.push(prepared(db, statementInsert(rows, createdAt)));
  for (const insert of lineItemInserts(newStatements)) writes.push(prepared(db, insert));
  const announced = statementChunks.map((rows) => statementEventWrites(CREATED, rows, createdAt));
  for (const { events } of announced) writes.push(prepared(db, events));
  const deliveriesFrom = writes.length;
  for (const { deliveries } of announced) writes.push(prepared(db, deliveries));
  const rendersFrom = writes.length;
  for (const rows of statementChunks) {
    writes.push(prepared(db, renderRequestWrites(rows, createdAt)));
  }
  return { writes, deliveriesFrom, rendersFrom };
}
