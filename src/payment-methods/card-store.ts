// Card reads, inside the caller's read scope: a customer's cards newest first (by created_at, then
// id), each page one round trip through `payment_methods_customer_idx`, and one card by id; and the
// write of a sandbox test card.
import { and, desc, eq, getTableColumns, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import { accounts } from "../accounts/schema";
import { allOf, atomically, insertWhere, type Query, returnedRow } from "../db/batch";
import type { Database } from "../db/client";
import { customerInScope, type ReadScope } from "../db/customers";
import { customers } from "../db/schema";
import type { Environment } from "../domain/environment";
import { paymentMethods } from "./schema";

export type CardRow = typeof paymentMethods.$inferSelect;
export type CardStatus = CardRow["status"];

/** Matches a card only inside the read scope; anything else is indistinguishable from absent. */
function cardInScope(scope: ReadScope, paymentMethodId: string): SQL {
  return allOf(
    eq(paymentMethods.paymentMethodId, paymentMethodId),
    eq(paymentMethods.partnerId, scope.partnerId),
    // drizzle types the value by the column's two names; a scope naming another matches no row.
    eq(paymentMethods.environment, scope.environment as Environment),
    eq(paymentMethods.merchantKey, scope.merchantKey),
  );
}

/** The leading columns of `payment_methods_customer_idx`: one customer's cards in scope. */
function cardsOfCustomer(scope: ReadScope, customerId: string): SQL {
  return allOf(
    eq(paymentMethods.partnerId, scope.partnerId),
    // As above: a scope naming another environment matches no row.
    eq(paymentMethods.environment, scope.environment as Environment),
    eq(paymentMethods.merchantKey, scope.merchantKey),
    eq(paymentMethods.customerId, customerId),
  );
}

export interface CardPageRequest {
  limit: number;
  /** The card the page continues after (exclusive), or null for the first page. */
  after: string | null;
  status: CardStatus | null;
}

export interface CardPage {
  customerFound: boolean;
  /** False when `after` names no card of the customer. */
  cursorFound: boolean;
  /** Up to `limit + 1` cards, newest first; the extra row only signals `has_more`. */
  rows: CardRow[];
}

/**
 * The reads of a cards page: whether the customer is in scope, where the cursor's card sits, and
 * the page after it, a range scan of `payment_methods_customer_idx` (the status filter is read
 * from the rows the scan visits).
 */
export function cardPageQueries(
  db: Database,
  scope: ReadScope,
  customerId: string,
  { limit, after, status }: CardPageRequest,
) {
  const owner = db
    .select({ customerId: customers.customerId })
    .from(customers)
    .where(customerInScope(scope, customerId));
  const ofCursor = and(cardInScope(scope, after ?? ""), eq(paymentMethods.customerId, customerId));
  const cursor = db
    .select({ createdAt: paymentMethods.createdAt })
    .from(paymentMethods)
    .where(ofCursor);
  const cursorCreatedAt = sql`(SELECT created_at FROM ${paymentMethods} WHERE ${ofCursor})`;
  const afterCursor =
    after === null
      ? undefined
      : or(
          lt(paymentMethods.createdAt, cursorCreatedAt),
          and(
            eq(paymentMethods.createdAt, cursorCreatedAt),
            lt(paymentMethods.paymentMethodId, after),
          ),
        );
  const page = db
    .select(getTableColumns(paymentMethods))
    .from(paymentMethods)
    .where(
      and(
        cardsOfCustomer(scope, customerId),
        afterCursor,
        status === null ? undefined : eq(paymentMethods.status, status),
      ),
    )
    .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.paymentMethodId))
    .limit(limit + 1);
  return { owner, cursor, page };
}

/** A cards page (cardPageQueries) in one round trip. */
export async function readCardPage(
  db: Database,
  scope: ReadScope,
  customerId: string,
  request: CardPageRequest,
): Promise<CardPage> {
  const { owner, cursor, page } = cardPageQueries(db, scope, customerId, request);
  const [[found], cursorRows, rows] = await db.batch([owner, cursor, page]);
  return {
    customerFound: found !== undefined,
    cursorFound: request.after === null || cursorRows.length > 0,
    rows: found === undefined ? [] : rows,
  };
}

/** One card in the read scope, or null: one indexed read by its id. */
export async function findCard(
  db: Database,
  scope: ReadScope,
  paymentMethodId: string,
): Promise<CardRow | null> {
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(cardInScope(scope, paymentMethodId))
    .limit(1);
  return row ?? null;
}

/**
 * One card in the read scope, or null, read in one batch with `record(card)`: a write (the read's
 * audit row) whose SQL finds the card, by `card` (a subquery), only when it is in the scope and
 * holds details one of `keyIds` opens.
 */
export async function findCardRecordingRead(
  db: Database,
  scope: ReadScope,
  paymentMethodId: string,
  keyIds: readonly string[],
  record: (card: SQL) => Query,
): Promise<CardRow | null> {
  const readable = sql`${paymentMethods} WHERE ${allOf(
    cardInScope(scope, paymentMethodId),
    sql`${paymentMethods.panCiphertext} IS NOT NULL`,
    sql`${paymentMethods.cvvCiphertext} IS NOT NULL`,
    inArray(paymentMethods.keyId, [...keyIds]),
  )}`;
  const [read] = await atomically(db, [
    db.select().from(paymentMethods).where(cardInScope(scope, paymentMethodId)).limit(1),
    record(readable),
  ]);
  return returnedRow(paymentMethods, read);
}

export type TestCardStored = "stored" | "customer_not_found" | "account_not_found";

/**
 * Stores a card on one of the customer's accounts, the customer in the read scope: the insert is
 * conditional on both, in one statement, so that a customer deleted meanwhile (a sandbox reset)
 * stores nothing; when it stores nothing, one more read says which of the two was missing.
 */
export async function storeCardOfAccount(
  db: Database,
  scope: ReadScope,
  card: Omit<typeof paymentMethods.$inferInsert, "partnerId" | "environment" | "merchantKey">,
): Promise<TestCardStored> {
  const owned = sql`EXISTS (SELECT 1 FROM ${customers} JOIN ${accounts} ON ${eq(
    accounts.customerId,
    customers.customerId,
  )} WHERE ${allOf(customerInScope(scope, card.customerId), eq(accounts.accountId, card.accountId))})`;
  const row = {
    ...card,
    partnerId: scope.partnerId,
    environment: scope.environment,
    merchantKey: scope.merchantKey,
  };
  const [inserted] = await atomically(db, [insertWhere(paymentMethods, row, owned)]);
  if (inserted?.meta.changes === 1) return "stored";
  const [customer] = await db
    .select({ customerId: customers.customerId })
    .from(customers)
    .where(customerInScope(scope, card.customerId));
  return customer ? "account_not_found" : "customer_not_found";
}
