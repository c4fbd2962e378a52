// Line items: the transactions a statement carries, each in the card-statement sign convention,
// with the statement total its type adds up to. Ordered as the document lists them: by
// `posted_at`, then `line_item_id`.

export const LINE_ITEM_TYPES = [
  "PURCHASE",
  "PAYMENT",
  "CREDIT",
  "REFUND",
  "INTEREST",
  "FEE",
] as const;
export type LineItemType = (typeof LINE_ITEM_TYPES)[number];

/** The statement total a type of line item sums to. */
export type LineItemTotal = "purchases" | "payments" | "credits" | "refunds" | "interest" | "fees";

/** Per type: the total it sums to, and its sign (a charge ≥ 0, money credited back ≤ 0). */
export const LINE_ITEM_TOTALS: Readonly<
  Record<LineItemType, { total: LineItemTotal; sign: "charge" | "credit" }>
> = {
  PURCHASE: { total: "purchases", sign: "charge" },
  PAYMENT: { total: "payments", sign: "credit" },
  CREDIT: { total: "credits", sign: "credit" },
  REFUND: { total: "refunds", sign: "credit" },
  INTEREST: { total: "interest", sign: "charge" },
  FEE: { total: "fees", sign: "charge" },
};

/**
 * Line items one statement carries at most: what one document lists (the renderer is designed
 * for a thousand lines), and what one restatement writes.
 */
export const MAX_LINE_ITEMS_PER_STATEMENT = 1000;

/**
 * Line items one import carries at most, over all its statements. An import is one D1 batch in
 * one Worker isolate (128 MB) holding the body's text, its parsed and validated forms and the
 * rows' JSON chunks: 25,000 line items of the largest shape are 21.6 MB of JSON (past the 20 MiB
 * body limit, which binds first) and take 52 MB above their text (see the operator API's guide).
 * Larger loads go in several imports.
 */
export const MAX_LINE_ITEMS_PER_IMPORT = 25_000;

/** A line item's description: as the cardholder sees it. */
export const MAX_DESCRIPTION_LENGTH = 200;

/** A merchant category code (ISO 18245): four digits. */
export const MCC_PATTERN = /^[0-9]{4}$/;

/** The last four digits of the card a transaction was made with. */
export const CARD_LAST4_PATTERN = /^[0-9]{4}$/;

/** The merchant of a purchase or refund, as the card network reported it. */
export interface Merchant {
  name: string;
  category_code: string;
  city?: string;
  country?: string;
}

/** The canonical line item (CONTRACT §9). */
export interface LineItem {
  line_item_id: string;
  type: LineItemType;
  posted_at: string;
  transaction_date?: string;
  description: string;
  amount: number;
  merchant?: Merchant;
  original_amount?: number;
  original_currency?: string;
  card_last4?: string;
}

/** A stored line item as its page reads it; absent fields are null. */
export interface LineItemRecord {
  lineItemId: string;
  type: LineItemType;
  postedAt: string;
  transactionDate: string | null;
  description: string;
  amount: number;
  merchantName: string | null;
  merchantCategoryCode: string | null;
  merchantCity: string | null;
  merchantCountry: string | null;
  originalAmount: number | null;
  originalCurrency: string | null;
  cardLast4: string | null;
}

/** The canonical line item of a stored one: absent fields stay absent. */
export function toLineItem(row: LineItemRecord): LineItem {
  // Fields in the reference's order: the optional transaction date comes before the description.
  const out = {
    line_item_id: row.lineItemId,
    type: row.type,
    posted_at: row.postedAt,
  } as LineItem;
  if (row.transactionDate !== null) out.transaction_date = row.transactionDate;
  out.description = row.description;
  out.amount = row.amount;
  if (row.merchantName !== null && row.merchantCategoryCode !== null) {
    const merchant: Merchant = { name: row.merchantName, category_code: row.merchantCategoryCode };
    if (row.merchantCity !== null) merchant.city = row.merchantCity;
    if (row.merchantCountry !== null) merchant.country = row.merchantCountry;
    out.merchant = merchant;
  }
  if (row.originalAmount !== null && row.originalCurrency !== null) {
    out.original_amount = row.originalAmount;
    out.original_currency = row.originalCurrency;
  }
  if (row.cardLast4 !== null) out.card_last4 = row.cardLast4;
  return out;
}

/** The keyset position of a line items page: the last line item returned, in document order. */
export interface LineItemPosition {
  postedAt: string;
  lineItemId: string;
}

/** Whether `a` comes before `b` in document order (`posted_at`, then `line_item_id`). */
export function documentOrder(a: LineItemPosition, b: LineItemPosition): number {
  if (a.postedAt !== b.postedAt) return a.postedAt < b.postedAt ? -1 : 1;
  return a.lineItemId < b.lineItemId ? -1 : a.lineItemId > b.lineItemId ? 1 : 0;
}
