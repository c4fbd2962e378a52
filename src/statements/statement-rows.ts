// A statement item as the operator's writes store it: its statements row (figures, rates,
// year-to-date totals and the digest of its line items), sent to D1 as JSON rows
// (db/json-rows.ts); its line items are written as the statements feature writes them
// (statements/line-item-writes.ts). The import and a restatement write them the same way.
import { IMPORT_AMOUNT_FIELDS, type StatementInput } from "../domain/statement-item";
import { lineItemsDigest } from "./line-item-writes";
import { statements } from "./schema";

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

/** Every statement's line items digest, by statement id (one digest per item of the payload). */
export async function digestsOf(
  items: readonly StatementInput[],
): Promise<Map<string, string | null>> {
  const digests = await Promise.all(items.map(lineItemsDigest));
  return new Map(items.map((s, i) => [s.statement_id, digests[i] ?? null]));
}
