// Writing a statement's line items: their rows as JSON (one bound chunk per set-based insert, see
// db/json-rows.ts) and the digest that tells one set of line items from another. The operator's
// import and restatements and the sandbox's simulations all store line items this way.
import { type SQL, sql } from "drizzle-orm";
import { jsonChunks } from "../db/json-rows";
import { toHex } from "../domain/encoding";
import { documentOrder, type LineItem } from "../domain/line-item";
import { statementLineItems } from "./schema";

/** A statement and the line items it carries (none: absent or empty). */
export interface WithLineItems {
  statement_id: string;
  line_items?: readonly LineItem[] | undefined;
}

const LINE_ITEM_COLUMNS = [
  statementLineItems.statementId.name,
  statementLineItems.lineItemId.name,
  statementLineItems.type.name,
  statementLineItems.postedAt.name,
  statementLineItems.transactionDate.name,
  statementLineItems.description.name,
  statementLineItems.amount.name,
  statementLineItems.merchantName.name,
  statementLineItems.merchantCategoryCode.name,
  statementLineItems.merchantCity.name,
  statementLineItems.merchantCountry.name,
  statementLineItems.originalAmount.name,
  statementLineItems.originalCurrency.name,
  statementLineItems.cardLast4.name,
];

/** A line item's row without its statement id, in LINE_ITEM_COLUMNS order from the second. */
function lineItemValues(item: LineItem): (string | number | null)[] {
  return [
    item.line_item_id,
    item.type,
    item.posted_at,
    item.transaction_date ?? null,
    item.description,
    item.amount,
    item.merchant?.name ?? null,
    item.merchant?.category_code ?? null,
    item.merchant?.city ?? null,
    item.merchant?.country ?? null,
    item.original_amount ?? null,
    item.original_currency ?? null,
    item.card_last4 ?? null,
  ];
}

/** The line items' rows for `jsonChunks`: each with its statement's id first. */
function lineItemRows(s: WithLineItems): (string | number | null)[][] {
  return (s.line_items ?? []).map((item) => [s.statement_id, ...lineItemValues(item)]);
}

/**
 * SHA-256 (hex) of the line items as stored, in document order, or null for a statement that
 * carries none: what tells a re-import with the same line items from one with others.
 */
export async function lineItemsDigest(s: WithLineItems): Promise<string | null> {
  const items = s.line_items ?? [];
  if (items.length === 0) return null;
  const ordered = [...items].sort((a, b) =>
    documentOrder(
      { postedAt: a.posted_at, lineItemId: a.line_item_id },
      { postedAt: b.posted_at, lineItemId: b.line_item_id },
    ),
  );
  const text = JSON.stringify(ordered.map(lineItemValues));
  return toHex(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))),
  );
}

const COLUMNS = sql.raw(LINE_ITEM_COLUMNS.join(", "));
const VALUES = sql.raw(LINE_ITEM_COLUMNS.map((_, i) => `value ->> ${i}`).join(", "));

/**
 * The inserts of the statements' line items, one per JSON chunk of rows (within D1's limits).
 * Only new statements' line items are written; `guard` keeps them out when their statement was
 * not stored after all, so that the batch answers as it would without them.
 */
export function lineItemInserts(of: readonly WithLineItems[], guard: SQL = sql`true`): SQL[] {
  return jsonChunks(of.flatMap(lineItemRows), (row) => row).map(
    (chunk) => sql`INSERT INTO statement_line_items (${COLUMNS}) SELECT ${VALUES}
      FROM json_each(${chunk}) WHERE ${guard} ON CONFLICT DO NOTHING`,
  );
}
