// A statement item as the operator's writes store it: its statements row (figures, rates,
// year-to-date totals and the digest of its line items) and its line item rows, each sent to D1
// as JSON rows (db/json-rows.ts). The import and a restatement write them the same way.

import { documentOrder } from "../domain/line-item";
import {
  IMPORT_AMOUNT_FIELDS,
  type LineItemInput,
  type StatementInput,
} from "../domain/statement-item";
import { statementLineItems, statements } from "../statements/schema";

/**
 * The statement columns an import writes and compares, in row order: its figures as imported,
 * then what is derived from the item (rates as canonical JSON, the year's totals, the line items'
 * digest). Never the correction links: only a restatement sets those.
 */
export const STATEMENT_COLUMNS: readonly string[] = [
  statements.statementId.name,
  statements.accountId.name,
  statements.periodStartDate.name,
  statements.periodEndDate.name,
  statements.dueDate.name,
  statements.currency.name,
  ...IMPORT_AMOUNT_FIELDS.map(([, key]) => statements[key].name),
  statements.interestRates.name,
  statements.ytdFees.name,
  statements.ytdInterest.name,
  statements.lineItemsDigest.name,
];

/** A stored statement's values by column (see STATEMENT_COLUMNS). */
export type StoredStatement = Record<string, string | number | null>;

/** The rates as stored: sorted by balance type, fields in a fixed order, so equal rates compare equal. */
function ratesJson(s: StatementInput): string | null {
  if (s.interest_rates === undefined) return null;
  const rates = [...s.interest_rates]
    .sort((a, b) => (a.balance_type < b.balance_type ? -1 : 1))
    .map((r) => ({
      balance_type: r.balance_type,
      annual_percentage_rate: r.annual_percentage_rate,
      balance_subject_to_interest: r.balance_subject_to_interest,
      interest: r.interest,
    }));
  return JSON.stringify(rates);
}

/** The statement's row, in STATEMENT_COLUMNS order; `digest` is its line items' (or null). */
export function statementRow(s: StatementInput, digest: string | null): (string | number | null)[] {
  return [
    s.statement_id,
    s.account_id,
    s.period_start_date ?? null,
    s.period_end_date,
    s.due_date ?? null,
    s.currency ?? null,
    ...IMPORT_AMOUNT_FIELDS.map(([field]) => s[field] ?? null),
    ratesJson(s),
    s.year_to_date?.fees ?? null,
    s.year_to_date?.interest ?? null,
    digest,
  ];
}

/** Whether a stored statement has exactly the figures of `row` (a `statementRow`). */
export function sameFigures(stored: StoredStatement, row: readonly unknown[]): boolean {
  return STATEMENT_COLUMNS.every((column, i) => stored[column] === row[i]);
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
function lineItemValues(item: LineItemInput): (string | number | null)[] {
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
export function lineItemRows(s: StatementInput): (string | number | null)[][] {
  return (s.line_items ?? []).map((item) => [s.statement_id, ...lineItemValues(item)]);
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/**
 * SHA-256 (hex) of the line items as stored, in document order, or null for a statement that
 * carries none: what tells a re-import with the same line items from one with others.
 */
export async function lineItemsDigest(s: StatementInput): Promise<string | null> {
  const items = s.line_items ?? [];
  if (items.length === 0) return null;
  const ordered = [...items].sort((a, b) =>
    documentOrder(
      { postedAt: a.posted_at, lineItemId: a.line_item_id },
      { postedAt: b.posted_at, lineItemId: b.line_item_id },
    ),
  );
  const text = JSON.stringify(ordered.map(lineItemValues));
  const sum = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let hex = "";
  for (const byte of sum) hex += HEX[byte];
  return hex;
}

/** Every statement's line items digest, by statement id (one digest per item of the payload). */
export async function digestsOf(
  items: readonly StatementInput[],
): Promise<Map<string, string | null>> {
  const digests = await Promise.all(items.map(lineItemsDigest));
  return new Map(items.map((s, i) => [s.statement_id, digests[i] ?? null]));
}

/** `?1` is a chunk of rows (`lineItemRows`); only new statements' line items are written. */
export const INSERT_LINE_ITEMS =
  `INSERT INTO ${"statement_line_items"} (${LINE_ITEM_COLUMNS.join(", ")}) SELECT ` +
  `${LINE_ITEM_COLUMNS.map((_, i) => `value ->> ${i}`).join(", ")} ` +
  "FROM json_each(?1) WHERE true ON CONFLICT DO NOTHING";
