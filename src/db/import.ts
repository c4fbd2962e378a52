// The operator import: validate references and conflicts in one read round trip, then write
// everything in one atomic batch (all or nothing). Guards inside the batch refuse what another
// import may have changed between that read and the write.

import { eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { bundle } from "../../versions";
import { ApiError } from "../app/errors";
import type { Actor } from "../domain/audit";
import {
  IMPORT_AMOUNT_FIELDS,
  type ImportPayload,
  type StatementInput,
} from "../domain/import-payload";
import type { Database } from "./client";
import { type DeliveryRef, deliveriesOf, statementEventWrites } from "./event-writes";
import { type Existing, readExisting } from "./import-existing";
import { importedVersionRecords } from "./saved-versions";
import { accounts, customers, partners, products, statements } from "./schema";

/** Who an import's audit rows name when the caller does not say. */
const OPERATOR: Actor = { type: "operator", id: null, label: "operator", ip: null };

export interface ImportCounts {
  partners: number;
  customers: number;
  accounts: number;
  statements: number;
}

const STATEMENT_COLUMNS = [
  ["period_start_date", "periodStartDate"],
  ["period_end_date", "periodEndDate"],
  ["due_date", "dueDate"],
  ["currency", "currency"],
  ...IMPORT_AMOUNT_FIELDS,
] as const;

type StatementRow = typeof statements.$inferSelect;

function statementValues(s: StatementInput) {
  const row: Record<string, unknown> = { statementId: s.statement_id, accountId: s.account_id };
  for (const [field, column] of STATEMENT_COLUMNS) row[column] = s[field] ?? null;
  return row as Omit<StatementRow, "pdfKey" | "hiddenAt" | "createdAt">;
}

function sameFigures(existing: StatementRow, incoming: StatementInput): boolean {
  if (existing.accountId !== incoming.account_id) return false;
  return STATEMENT_COLUMNS.every(
    ([field, column]) => existing[column] === (incoming[field] ?? null),
  );
}

const label = (section: string, index: number, id: string) =>
  `${section}[${index}] (${JSON.stringify(id.slice(0, 64))})`;

/** What the stored rows say about the payload: 400 problems, 409 conflicts, statements to add. */
function review(payload: ImportPayload, existing: Existing, now: Date) {
  const invalid: string[] = [];
  const conflicts: string[] = [];

  // Where each product belongs once this import is applied.
  const productOwner = new Map<string, string>();
  for (const [key, row] of existing.products) productOwner.set(key, row.partnerId);
  (payload.partners ?? []).forEach((p, i) => {
    (p.products ?? []).forEach((product, j) => {
      const owner = existing.products.get(product.merchant_key)?.partnerId;
      if (owner !== undefined && owner !== p.partner_id) {
        conflicts.push(
          `${label("partners", i, p.partner_id)}.products[${j}].merchant_key: ` +
            `${JSON.stringify(product.merchant_key)} belongs to another partner`,
        );
      }
      productOwner.set(product.merchant_key, p.partner_id);
    });
  });
  const importedPartners = new Set((payload.partners ?? []).map((p) => p.partner_id));
  const partnerKnown = (id: string) => existing.partners.has(id) || importedPartners.has(id);

  const customerKnown = new Set<string>(existing.customers.keys());
  (payload.customers ?? []).forEach((c, i) => {
    const where = label("customers", i, c.customer_id);
    if (!partnerKnown(c.partner_id)) invalid.push(`${where}.partner_id: unknown partner`);
    else if (productOwner.get(c.merchant_key) !== c.partner_id) {
      invalid.push(
        `${where}.merchant_key: not a product of partner ${JSON.stringify(c.partner_id)}`,
      );
    }
    const stored = existing.customers.get(c.customer_id);
    if (
      stored &&
      (stored.partnerId !== c.partner_id ||
        stored.environment !== c.environment ||
        stored.merchantKey !== c.merchant_key)
    ) {
      conflicts.push(`${where}: a customer's partner, environment and product never change`);
    }
    customerKnown.add(c.customer_id);
  });

  const accountKnown = new Set<string>(existing.accounts.keys());
  (payload.accounts ?? []).forEach((a, i) => {
    const where = label("accounts", i, a.account_id);
    if (!customerKnown.has(a.customer_id)) invalid.push(`${where}.customer_id: unknown customer`);
    const stored = existing.accounts.get(a.account_id);
    if (stored && stored.customerId !== a.customer_id) {
      conflicts.push(`${where}.customer_id: an account never moves to another customer`);
    }
    accountKnown.add(a.account_id);
  });

  const newStatements: StatementInput[] = [];
  (payload.statements ?? []).forEach((s, i) => {
    const where = label("statements", i, s.statement_id);
    if (!accountKnown.has(s.account_id)) invalid.push(`${where}.account_id: unknown account`);
    if (s.period_end_date > now.toISOString()) {
      invalid.push(`${where}.period_end_date: is in the future; only closed cycles are statements`);
    }
    const stored = existing.statements.get(s.statement_id);
    if (!stored) newStatements.push(s);
    else if (!sameFigures(stored, s)) {
      conflicts.push(`${where}: a closed statement's figures never change`);
    }
  });
  return { invalid, conflicts, newStatements };
}

/**
 * An upsert value for `column` that keeps it when the incoming row agrees with the stored one on
 * every column of `same`, and is NULL otherwise: the NOT NULL constraint then fails the batch.
 * It refuses an ownership change that another import made after this one read the rows.
 */
function keptOrNull(column: SQLiteColumn, same: SQLiteColumn[]): SQL {
  const agree = same.map((c) => sql`${c} IS excluded.${sql.identifier(c.name)}`);
  return sql`CASE WHEN ${sql.join(agree, sql` AND `)} THEN ${column} END`;
}

/** The NOT NULL failures `keptOrNull` provokes, by the constraint name SQLite reports. */
const OWNERSHIP_GUARDS = ["customers.partner_id", "accounts.customer_id", "products.partner_id"];

/** The writes of an import, in dependency order, for one atomic batch. */
function writesOf(
  db: Database,
  payload: ImportPayload,
  existing: Existing,
  newStatements: StatementInput[],
  now: Date,
  actor: Actor,
): BatchItem<"sqlite">[] {
  const createdAt = now.toISOString();
  const writes: BatchItem<"sqlite">[] = [];
  for (const p of payload.partners ?? []) {
    const saved = p.saved_versions ?? {};
    // A changed saved version is recorded (history and audit log) before the upsert changes it.
    for (const environment of ["sandbox", "production"] as const) {
      const to = saved[environment];
      if (to) {
        writes.push(
          ...importedVersionRecords(db, { partnerId: p.partner_id, environment, to, actor, now }),
        );
      }
    }
    const set: Partial<typeof partners.$inferInsert> = { name: p.name };
    if (saved.sandbox) set.savedVersionSandbox = saved.sandbox;
    if (saved.production) set.savedVersionProduction = saved.production;
    writes.push(
      db
        .insert(partners)
        .values({
          partnerId: p.partner_id,
          name: p.name,
          savedVersionSandbox: saved.sandbox ?? bundle.newestReleased,
          savedVersionProduction: saved.production ?? bundle.newestReleased,
          createdAt,
        })
        .onConflictDoUpdate({ target: partners.partnerId, set }),
    );
    for (const product of p.products ?? []) {
      writes.push(
        db
          .insert(products)
          .values({
            merchantKey: product.merchant_key,
            partnerId: p.partner_id,
            name: product.name,
          })
          .onConflictDoUpdate({
            target: products.merchantKey,
            set: {
              name: product.name,
              partnerId: keptOrNull(products.partnerId, [products.partnerId]),
            },
          }),
      );
    }
  }
  // Refresh the partner's copy of its merchant keys (read by authentication) after new products.
  for (const p of payload.partners ?? []) {
    if (!p.products?.length) continue;
    const keys = db
      .select({ merchantKey: products.merchantKey })
      .from(products)
      .where(eq(products.partnerId, p.partner_id))
      .orderBy(products.merchantKey);
    writes.push(
      db
        .update(partners)
        .set({ merchantKeys: sql`(SELECT json_group_array(merchant_key) FROM (${keys}))` })
        .where(eq(partners.partnerId, p.partner_id)),
    );
  }

  const customerScope = new Map<
    string,
    { partnerId: string; environment: "sandbox" | "production"; merchantKey: string }
  >(existing.customers);
  for (const c of payload.customers ?? []) {
    const scope = {
      partnerId: c.partner_id,
      environment: c.environment,
      merchantKey: c.merchant_key,
    };
    customerScope.set(c.customer_id, scope);
    const set = {
      partnerId: keptOrNull(customers.partnerId, [
        customers.partnerId,
        customers.environment,
        customers.merchantKey,
      ]),
      ...(c.partner_customer_id === undefined ? {} : { partnerCustomerId: c.partner_customer_id }),
      ...(c.authorized_users === undefined
        ? {}
        : { authorizedUsers: JSON.stringify(c.authorized_users) }),
    };
    writes.push(
      db
        .insert(customers)
        .values({
          customerId: c.customer_id,
          ...scope,
          partnerCustomerId: c.partner_customer_id ?? null,
          authorizedUsers: c.authorized_users ? JSON.stringify(c.authorized_users) : null,
          createdAt,
        })
        .onConflictDoUpdate({ target: customers.customerId, set }),
    );
  }

  for (const a of payload.accounts ?? []) {
    const scope = customerScope.get(a.customer_id);
    if (!scope) throw new Error(`account ${a.account_id}: customer scope missing after review`);
    const figures = {
      status: a.status,
      currency: a.currency,
      creditLimit: a.credit_limit,
      currentBalance: a.current_balance,
      availableCredit: a.available_credit,
    };
    const set = Object.fromEntries(Object.entries(figures).filter(([, v]) => v !== undefined));
    writes.push(
      db
        .insert(accounts)
        .values({
          accountId: a.account_id,
          customerId: a.customer_id,
          ...scope,
          ...figures,
          createdAt,
        })
        .onConflictDoUpdate({
          target: accounts.accountId,
          set: { ...set, customerId: keptOrNull(accounts.customerId, [accounts.customerId]) },
        }),
    );
  }

  for (const s of newStatements) {
    // If another import stored different figures meanwhile, this update trips the immutability
    // trigger (migrations/0001) and the whole batch rolls back.
    const values = statementValues(s);
    const { statementId: _id, ...figures } = values;
    writes.push(
      db
        .insert(statements)
        .values({ ...values, createdAt })
        .onConflictDoUpdate({ target: statements.statementId, set: figures }),
    );
  }
  return writes;
}

/**
 * Applies an import atomically, with a `statement.created` event for each new statement in the
 * same batch. Throws 400 for bad references, 409 for conflicting changes. Answers the counts and
 * the webhook deliveries the new events created, for the caller to enqueue.
 */
export async function importPayload(
  db: Database,
  payload: ImportPayload,
  now: Date,
  actor: Actor = OPERATOR,
): Promise<{ counts: ImportCounts; deliveries: DeliveryRef[] }> {
  const existing = await readExisting(db, payload);
  const { invalid, conflicts, newStatements } = review(payload, existing, now);
  if (invalid.length > 0) {
    throw new ApiError("INVALID_REQUEST_ERROR", invalid[0] as string, {
      details: invalid.slice(0, 50),
    });
  }
  if (conflicts.length > 0) {
    throw new ApiError("CONFLICT_ERROR", conflicts[0] as string, {
      details: conflicts.slice(0, 50),
    });
  }

  const writes = writesOf(db, payload, existing, newStatements, now, actor);
  const announced = statementEventWrites(
    db,
    "statement.created",
    newStatements.map((s) => s.statement_id),
    now.toISOString(),
  );
  let deliveries: DeliveryRef[] = [];
  if (writes.length > 0) {
    const batch = [...writes, ...announced.events, ...announced.deliveries];
    try {
      const results = await db.batch(batch as [BatchItem<"sqlite">]);
      deliveries = deliveriesOf(results.slice(batch.length - announced.deliveries.length));
    } catch (err) {
      throw concurrentChange(err) ?? err;
    }
  }
  const counts = {
    partners: payload.partners?.length ?? 0,
    customers: payload.customers?.length ?? 0,
    accounts: payload.accounts?.length ?? 0,
    statements: payload.statements?.length ?? 0,
  };
  return { counts, deliveries };
}

/** The 409 for a batch refused by a guard: another import changed the same rows meanwhile. */
function concurrentChange(err: unknown): ApiError | null {
  if (hasCause(err, "statement_figures_immutable")) {
    return new ApiError(
      "CONFLICT_ERROR",
      "statements: another import stored a statement of this payload with other figures " +
        "meanwhile; a closed statement's figures never change",
    );
  }
  if (OWNERSHIP_GUARDS.some((column) => hasCause(err, `NOT NULL constraint failed: ${column}`))) {
    return new ApiError(
      "CONFLICT_ERROR",
      "another import stored a customer, account or product of this payload under another " +
        "owner meanwhile; customers, accounts and products never change owner",
    );
  }
  return null;
}

function hasCause(err: unknown, text: string): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes(text)) return true;
  }
  return false;
}
