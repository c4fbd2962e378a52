// The operator import: validate references and conflicts in one read round trip, then write
// everything in one atomic batch (all or nothing): see import-writes.ts for the writes and the
// guards that refuse what another import changed between that read and the write.
import type { Database } from "../db/client";
import { hasMessage } from "../db/storage";
import { type RenderRef, renderRefsOf } from "../documents";
import type { Actor } from "../domain/audit";
import type { ImportPayload, StatementInput } from "../domain/import-payload";
import { unknownCategories } from "../domain/rewards";
import { type CardVault, cardWrites, readStoredCards, reviewCards } from "../payment-methods";
import { digestsOf, sameFigures, statementRow } from "../statements";
import { type DeliveryRef, deliveriesOf } from "../webhook-deliveries";
import { type Existing, readExisting } from "./import-existing";
import { type ImportWrites, OWNERSHIP_GUARDS, writesOf } from "./import-writes";

/** Who an import's audit rows name when the caller does not say. */
const OPERATOR: Actor = { type: "operator", id: null, label: "operator", ip: null };

export interface ImportCounts {
  partners: number;
  customers: number;
  accounts: number;
  statements: number;
  payment_methods: number;
}

/**
 * What a refusal says of an item that would take over what another partner holds, after the
 * item's name (see `label`): the placement refuses an id another shard holds in the same words.
 */
export const TAKEN = {
  product: (merchantKey: string) =>
    `.merchant_key: ${JSON.stringify(merchantKey)} belongs to another partner`,
  customer: ": a customer's partner, environment and product never change",
  account: ".customer_id: an account never moves to another customer",
  card: ": a card never moves to another customer or account",
  statement:
    ": a closed statement's figures never change (its line items, rates and year-to-date " +
    "totals included)",
} as const;

/** What a refusal says of a partner whose import would change its jurisdiction. */
export const fixedJurisdiction = (partnerId: string, jurisdiction: string) =>
  `partner ${JSON.stringify(partnerId)} is ${JSON.stringify(jurisdiction)}: a partner's ` +
  "jurisdiction is set when it is created and never changes";

/** How a refusal names an item: its section, index and id. */
export const label = (section: string, index: number, id: string) =>
  `${section}[${index}] (${JSON.stringify(id.slice(0, 64))})`;

/** What the review found so far: 400 problems and 409 conflicts, each naming its item. */
interface Findings {
  invalid: string[];
  conflicts: string[];
}

/**
 * The partners' section against the stored rows: a product another partner holds, a jurisdiction
 * changed. Answers where each product belongs once this import is applied.
 */
function reviewPartners(
  payload: ImportPayload,
  existing: Existing,
  found: Findings,
): Map<string, string> {
  const productOwner = new Map<string, string>();
  for (const [key, row] of existing.products) productOwner.set(key, row.partnerId);
  (payload.partners ?? []).forEach((p, i) => {
    (p.products ?? []).forEach((product, j) => {
      const owner = existing.products.get(product.merchant_key)?.partnerId;
      if (owner !== undefined && owner !== p.partner_id) {
        found.conflicts.push(
          `${label("partners", i, p.partner_id)}.products[${j}]` +
            TAKEN.product(product.merchant_key),
        );
      }
      productOwner.set(product.merchant_key, p.partner_id);
    });
  });
  (payload.partners ?? []).forEach((p, i) => {
    const stored = existing.jurisdictions.get(p.partner_id);
    if (p.jurisdiction !== undefined && stored !== undefined && p.jurisdiction !== stored) {
      found.invalid.push(
        `${label("partners", i, p.partner_id)}.jurisdiction: ${fixedJurisdiction(p.partner_id, stored)}`,
      );
    }
  });
  return productOwner;
}

/**
 * The customers' section: each of a known partner and one of its products, never moving scope.
 * Answers the customers known once this import is applied.
 */
function reviewCustomers(
  payload: ImportPayload,
  existing: Existing,
  productOwner: ReadonlyMap<string, string>,
  found: Findings,
): Set<string> {
  const importedPartners = new Set((payload.partners ?? []).map((p) => p.partner_id));
  const partnerKnown = (id: string) => existing.partners.has(id) || importedPartners.has(id);
  const customerKnown = new Set<string>(existing.customers.keys());
  (payload.customers ?? []).forEach((c, i) => {
    const where = label("customers", i, c.customer_id);
    if (!partnerKnown(c.partner_id)) found.invalid.push(`${where}.partner_id: unknown partner`);
    else if (productOwner.get(c.merchant_key) !== c.partner_id) {
      found.invalid.push(
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
      found.conflicts.push(`${where}${TAKEN.customer}`);
    }
    customerKnown.add(c.customer_id);
  });
  return customerKnown;
}

/** The accounts' section: each of a known customer, never moving. Answers the accounts known. */
function reviewAccounts(
  payload: ImportPayload,
  existing: Existing,
  customerKnown: ReadonlySet<string>,
  found: Findings,
): Set<string> {
  const accountKnown = new Set<string>(existing.accounts.keys());
  (payload.accounts ?? []).forEach((a, i) => {
    const where = label("accounts", i, a.account_id);
    if (!customerKnown.has(a.customer_id)) {
      found.invalid.push(`${where}.customer_id: unknown customer`);
    }
    const stored = existing.accounts.get(a.account_id);
    if (stored && stored.customerId !== a.customer_id) {
      found.conflicts.push(`${where}${TAKEN.account}`);
    }
    accountKnown.add(a.account_id);
  });
  return accountKnown;
}

/**
 * The ids of the rewards categories of each account's product once this import is applied: the
 * account's customer (imported or stored), that customer's product, and its categories (as this
 * import lists them, else as stored).
 */
function accountCategories(payload: ImportPayload, existing: Existing) {
  const importedCategories = new Map<string, Set<string>>();
  for (const p of payload.partners ?? []) {
    for (const product of p.products ?? []) {
      if (product.rewards_categories === undefined) continue;
      const ids = product.rewards_categories.map((category) => category.category_id);
      importedCategories.set(product.merchant_key, new Set(ids));
    }
  }
  const customerProduct = new Map<string, string>();
  for (const [id, c] of existing.customers) customerProduct.set(id, c.merchantKey);
  for (const c of payload.customers ?? []) customerProduct.set(c.customer_id, c.merchant_key);
  const accountCustomer = new Map<string, string>();
  for (const a of payload.accounts ?? []) accountCustomer.set(a.account_id, a.customer_id);
  return (accountId: string): ReadonlySet<string> => {
    const stored = existing.accounts.get(accountId);
    const customerId = accountCustomer.get(accountId) ?? stored?.customerId;
    const merchantKey =
      (customerId === undefined ? undefined : customerProduct.get(customerId)) ??
      stored?.merchantKey;
    if (merchantKey === undefined) return new Set();
    return (
      importedCategories.get(merchantKey) ??
      existing.products.get(merchantKey)?.categoryIds ??
      (stored?.merchantKey === merchantKey ? stored.categoryIds : new Set())
    );
  };
}

/** What the stored rows say about the payload: 400 problems, 409 conflicts, statements to add. */
function review(
  payload: ImportPayload,
  existing: Existing,
  digests: ReadonlyMap<string, string | null>,
  now: Date,
) {
  const found: Findings = { invalid: [], conflicts: [] };
  const productOwner = reviewPartners(payload, existing, found);
  const customerKnown = reviewCustomers(payload, existing, productOwner, found);
  const accountKnown = reviewAccounts(payload, existing, customerKnown, found);
  const categoriesOf = accountCategories(payload, existing);

  // A statement already stored is new to nobody: the same figures are a no-op, others a conflict.
  const newStatements: StatementInput[] = [];
  (payload.statements ?? []).forEach((s, i) => {
    const where = label("statements", i, s.statement_id);
    if (!accountKnown.has(s.account_id)) found.invalid.push(`${where}.account_id: unknown account`);
    else if (s.rewards) {
      for (const { index, categoryId } of unknownCategories(
        s.rewards,
        categoriesOf(s.account_id),
      )) {
        found.invalid.push(
          `${where}.rewards.by_category[${index}] (${JSON.stringify(categoryId)}).category_id: ` +
            "is not one of the rewards categories of the account's product",
        );
      }
    }
    if (s.period_end_date > now.toISOString()) {
      found.invalid.push(
        `${where}.period_end_date: is in the future; only closed cycles are statements`,
      );
    }
    const stored = existing.statements.get(s.statement_id);
    if (!stored) newStatements.push(s);
    else if (!sameFigures(stored, statementRow(s, digests.get(s.statement_id) ?? null))) {
      found.conflicts.push(`${where}${TAKEN.statement}`);
    }
  });
  return { ...found, newStatements };
}

/**
 * What an import's review found: the import's counts and its writes, for one atomic batch, or a
 * refusal with every problem named, nothing written: `invalid` for bad references, `conflict`
 * for changes that closed statements and ownership never allow.
 */
export type ImportReview =
  | ({ kind: "reviewed" } & ReviewedImport)
  | { kind: "invalid" | "conflict"; problems: string[] };

/** An import that passed its review: its counts, and its writes for one atomic batch. */
export interface ReviewedImport {
  counts: ImportCounts;
  writes: ImportWrites;
}

/**
 * What an import did: applied (with the counts, the webhook deliveries its new events created and
 * the renders of its new statements, for the caller to enqueue), or refused whole because another
 * import changed the same rows between the review and the batch.
 */
export type ImportOutcome =
  | { kind: "applied"; counts: ImportCounts; deliveries: DeliveryRef[]; renders: RenderRef[] }
  | { kind: "conflict"; problems: string[] };

/** Problems listed in a refusal, at most. */
const MAX_PROBLEMS = 50;

/** What an import is reviewed with: its time, its author, and a new partner's saved version. */
export interface ImportContext {
  now: Date;
  /** The saved version of a partner the import creates without one. */
  defaultVersion: string;
  actor?: Actor;
  /** Encrypts the cards' PANs and CVVs (and opens a stored card's, to compare). */
  cardVault: CardVault;
}

/**
 * Reviews an import against the stored rows it names (one read round trip) and builds its writes:
 * a `statement.created` event for each new statement in the same batch (and its render, when its
 * product renders documents). What it answers holds nothing of the payload but the writes' JSON
 * chunks, so that a caller that lets go of the payload holds one copy of its rows while D1 works.
 */
export async function reviewImport(
  db: Database,
  payload: ImportPayload,
  { now, defaultVersion, actor = OPERATOR, cardVault }: ImportContext,
): Promise<ImportReview> {
  const [existing, digests, storedCards] = await Promise.all([
    readExisting(db, payload),
    digestsOf(payload.statements ?? []),
    readStoredCards(db, payload.payment_methods ?? []),
  ]);
  const { invalid, conflicts, newStatements } = review(payload, existing, digests, now);
  const cards = await reviewCards(
    payload.payment_methods ?? [],
    storedCards,
    cardReferences(payload, existing),
    cardVault,
  );
  invalid.push(...cards.invalid);
  conflicts.push(...cards.conflicts);
  if (invalid.length > 0) return { kind: "invalid", problems: invalid.slice(0, MAX_PROBLEMS) };
  if (conflicts.length > 0) {
    return { kind: "conflict", problems: conflicts.slice(0, MAX_PROBLEMS) };
  }
  const counts: ImportCounts = {
    partners: payload.partners?.length ?? 0,
    customers: payload.customers?.length ?? 0,
    accounts: payload.accounts?.length ?? 0,
    statements: payload.statements?.length ?? 0,
    payment_methods: payload.payment_methods?.length ?? 0,
  };
  const writes = writesOf(db, payload, existing, newStatements, digests, {
    now,
    defaultVersion,
    actor,
  });
  // The cards follow their customers and accounts, before the events' deliveries.
  const cardRows = cardWrites(db, cards.rows, now.toISOString());
  writes.writes.splice(writes.deliveriesFrom, 0, ...cardRows);
  writes.deliveriesFrom += cardRows.length;
  writes.rendersFrom += cardRows.length;
  return { kind: "reviewed", counts, writes };
}

/** The customers and accounts a card may name: stored, or in this import. */
function cardReferences(payload: ImportPayload, existing: Existing) {
  const customers = new Map(existing.customers);
  for (const c of payload.customers ?? []) {
    customers.set(c.customer_id, {
      partnerId: c.partner_id,
      environment: c.environment,
      merchantKey: c.merchant_key,
    });
  }
  const accounts = new Map<string, string>();
  for (const [id, a] of existing.accounts) accounts.set(id, a.customerId);
  for (const a of payload.accounts ?? []) accounts.set(a.account_id, a.customer_id);
  return {
    customerScope: (id: string) => customers.get(id),
    accountCustomer: (id: string) => accounts.get(id),
  };
}

/**
 * Applies a reviewed import on shard `shard` (which `db` is: the deliveries and renders it
 * creates name it) in one atomic batch, after `beforeWrite` (the directory's placement).
 */
export async function applyImport(
  db: Database,
  { counts, writes: { writes, deliveriesFrom, rendersFrom } }: ReviewedImport,
  { shard, beforeWrite }: { shard: string; beforeWrite: () => Promise<void> },
): Promise<ImportOutcome> {
  let deliveries: DeliveryRef[] = [];
  let renders: RenderRef[] = [];
  await beforeWrite();
  if (writes.length > 0) {
    try {
      const results = await db.$client.batch(writes);
      deliveries = deliveriesOf(results.slice(deliveriesFrom, rendersFrom), shard);
      renders = renderRefsOf(results.slice(rendersFrom), shard);
    } catch (err) {
      const conflict = concurrentChange(err);
      if (conflict === null) throw err;
      return { kind: "conflict", problems: [conflict] };
    }
  }
  return { kind: "applied", counts, deliveries, renders };
}

/** Why a guard refused the batch: another import changed the same rows meanwhile. */
function concurrentChange(err: unknown): string | null {
  if (hasMessage(err, "statement_figures_immutable")) {
    return (
      "statements: another import stored a statement of this payload with other figures " +
      "meanwhile; a closed statement's figures never change"
    );
  }
  if (OWNERSHIP_GUARDS.some((column) => hasMessage(err, `NOT NULL constraint failed: ${column}`))) {
    return (
      "another import stored a customer, account or product of this payload under another " +
      "owner meanwhile; customers, accounts and products never change owner"
    );
  }
  return null;
}
