// A customer's cards page, read in the key lookup's own statement (one D1 round trip): the
// customer's stored read scope, the cursor's card and the page, newest first (by created_at, then
// id) through `payment_methods_customer_idx`, all planned before authentication and keyed by the
// customer's row. The route checks that scope against the caller's before anything read is used.
import { and, desc, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { alias, QueryBuilder } from "drizzle-orm/sqlite-core";
import type { ReadScope } from "../db/customers";
import { jsonObjectOf, pageAsJson } from "../db/json-page";
import { type BoundQuery, keyLookupsByShape, type ReadAhead, readAlone } from "../db/key-lookup";
import { customers } from "../db/schema";
import type { CardRow, CardStatus } from "./card-store";
import { paymentMethods } from "./schema";

const qb = new QueryBuilder();
const placeholder = sql.placeholder;

/** What a list shows of a card: never its ciphertext. */
const LISTED = {
  paymentMethodId: paymentMethods.paymentMethodId,
  customerId: paymentMethods.customerId,
  accountId: paymentMethods.accountId,
  type: paymentMethods.type,
  status: paymentMethods.status,
  network: paymentMethods.network,
  cardType: paymentMethods.cardType,
  last4: paymentMethods.last4,
  expirationMonth: paymentMethods.expirationMonth,
  expirationYear: paymentMethods.expirationYear,
  wallets: paymentMethods.wallets,
  createdAt: paymentMethods.createdAt,
};

/** A card as a page lists it. */
export type ListedCard = Pick<CardRow, keyof typeof LISTED>;

/** The terms a page is read in: a customer and its read scope, as columns or placeholders. */
interface PageTerms {
  partnerId: SQLWrapper;
  environment: SQLWrapper;
  merchantKey: SQLWrapper;
  customerId: SQLWrapper;
}

/** The cursor's card, joined to the customer's row when the page continues after one. */
const cursorCard = alias(paymentMethods, "cursor_card");

/**
 * Up to `limit` of the customer's cards (the leading columns of `payment_methods_customer_idx`),
 * after the cursor's card when `after`, of the status `status` when filtered (read from the rows
 * the range visits), newest first, as one JSON array.
 */
function cardPage(terms: PageTerms, after: boolean, status: boolean): SQL<string> {
  const page = qb
    .select({ row: jsonObjectOf(LISTED).as("row") })
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.partnerId, terms.partnerId),
        eq(paymentMethods.environment, terms.environment),
        eq(paymentMethods.merchantKey, terms.merchantKey),
        eq(paymentMethods.customerId, terms.customerId),
        // The cursor's id as bound, not its card's column: with it, SQLite bounds the index range
        // by the whole row value instead of by created_at alone.
        after
          ? sql`(${paymentMethods.createdAt}, ${paymentMethods.paymentMethodId}) < (${cursorCard.createdAt}, ${placeholder("after")})`
          : undefined,
        status ? eq(paymentMethods.status, placeholder("status")) : undefined,
      ),
    )
    .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.paymentMethodId))
    .limit(placeholder("limit"));
  return pageAsJson(page);
}

/** The customer's row's own read scope: a page planned before the caller is known reads in it. */
const OF_CUSTOMER: PageTerms = {
  partnerId: customers.partnerId,
  environment: customers.environment,
  merchantKey: customers.merchantKey,
  customerId: customers.customerId,
};

/**
 * The customer by its primary key, as one JSON array: its read scope, the cursor card's id (null
 * when it names no card of the customer), then the page. Null for a customer that does not exist.
 */
function customerWithPage(after: boolean, status: boolean): SQL<string> {
  const cursor = after ? sql`${cursorCard.paymentMethodId}` : sql`NULL`;
  const found = qb
    .select({
      found: sql`json_array(${customers.partnerId}, ${customers.environment}, ${
        customers.merchantKey
      }, ${cursor}, json(${cardPage(OF_CUSTOMER, after, status)}))`.as("found"),
    })
    .from(customers);
  const where = eq(customers.customerId, placeholder("customerId"));
  if (!after) return sql<string>`(${found.where(where)})`;
  // The cursor's card only when it is the customer's, in the customer's scope.
  const joined = found
    .leftJoin(
      cursorCard,
      and(
        eq(cursorCard.paymentMethodId, placeholder("after")),
        eq(cursorCard.partnerId, customers.partnerId),
        eq(cursorCard.environment, customers.environment),
        eq(cursorCard.merchantKey, customers.merchantKey),
        eq(cursorCard.customerId, customers.customerId),
      ),
    )
    .where(where);
  return sql<string>`(${joined})`;
}

/** The key lookups that carry a cards page, by its shape. */
const lookupOf = keyLookupsByShape(([after, status]: [boolean, boolean]) => ({
  cards: customerWithPage(after, status),
}));

/** What a cards page read, for the route to check before it uses any of it. */
export interface CardPageReads {
  /** The read scope the customer was stored in; null when there is no such customer. */
  stored: ReadScope | null;
  /** False when the page continues after an id that names none of the customer's cards. */
  cursorFound: boolean;
  /** Up to `limit + 1` cards, newest first; the extra row only signals `has_more`. */
  rows: ListedCard[];
}

const newestFirst = (a: ListedCard, b: ListedCard) =>
  a.createdAt === b.createdAt
    ? a.paymentMethodId < b.paymentMethodId
      ? 1
      : a.paymentMethodId > b.paymentMethodId
        ? -1
        : 0
    : a.createdAt < b.createdAt
      ? 1
      : -1;

/**
 * The reads of a page of the customer's cards, all answerable without knowing the caller: rows
 * read are the key, its partner, the customer, the cursor's card on a continuation, and the page's
 * up to `limit + 1` cards; nothing past the key for a key that is not live.
 */
export function cardPageReads(
  customerId: string,
  after: string | null,
  status: CardStatus | null,
  limit: number,
): ReadAhead<CardPageReads> {
  const values: Record<string, unknown> = { customerId, limit: limit + 1 };
  if (after !== null) values.after = after;
  if (status !== null) values.status = status;
  return {
    lookup: lookupOf([after !== null, status !== null]),
    values,
    read(results) {
      if (typeof results.cards !== "string") return { stored: null, cursorFound: false, rows: [] };
      // customerWithPage's json_array: the scope's three NOT NULL columns, the cursor's id or
      // null, then the page of jsonObjectOf(LISTED) objects.
      const [partnerId, environment, merchantKey, cursor, page] = JSON.parse(results.cards) as [
        string,
        ReadScope["environment"],
        string,
        string | null,
        ListedCard[],
      ];
      // SQL does not promise the aggregate the page's order: sorting a sorted page is one pass.
      const rows = page.sort(newestFirst);
      return {
        stored: { partnerId, environment, merchantKey },
        cursorFound: after === null || cursor !== null,
        rows,
      };
    },
  };
}

const firstPageAlone = readAlone(
  () =>
    sql`SELECT ${cardPage(
      {
        partnerId: placeholder("partnerId"),
        environment: placeholder("environment"),
        merchantKey: placeholder("merchantKey"),
        customerId: placeholder("customerId"),
      },
      false,
      false,
    )} AS page`,
);

/**
 * The SQL and values of a first cards page on its own (`SELECT … AS page`), bound to the scope
 * instead of read in the customer's: the very page the API reads inside its key lookup, without
 * the lookup or the customer. The bench's floor runs it as the least a page can cost.
 */
export function cardPageAlone(scope: ReadScope, customerId: string, limit: number): BoundQuery {
  return firstPageAlone({ ...scope, customerId, limit: limit + 1 });
}
