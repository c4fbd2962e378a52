// The statement's fields, declared once: for each, its column, how a page reads it and what an
// imported statement stores in it. The page's columns, its row type, the record read by name, the
// import's columns and row are all derived from this table. The amounts come from
// domain/statement-amounts.ts, whose one list the import's checks and the API's body read too.
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { StatementRecord } from "../domain/statement";
import { STATEMENT_AMOUNTS } from "../domain/statement-amounts";
import type { StatementInput } from "../domain/statement-item";
import { statements } from "./schema";

/** What a statement's row is made of: the statement item, but for its line items (their digest). */
export type StatementValues = Omit<StatementInput, "line_items">;

/** A value as a statements row holds it, for a JSON row (db/json-rows.ts). */
export type StoredValue = string | number | null;

/** One field of a stored statement. */
interface StatementField {
  column: SQLiteColumn;
  /** How a page reads the field, when not as its column's value. */
  read?: SQL;
  /** Whether a page leaves it out (a value only writes compare). */
  unlisted?: true;
  /**
   * What an imported, restated or simulated statement stores in the column, `digest` being its
   * line items' digest; absent for the fields only later writes set.
   */
  stored?: (s: StatementValues, digest: string | null) => StoredValue;
}

type Amount = (typeof STATEMENT_AMOUNTS)[number];

/** The amounts' fields: each its column, stored as imported under its import name. */
const amountFields = Object.fromEntries(
  STATEMENT_AMOUNTS.map((amount) => [
    amount.key,
    {
      column: statements[amount.key],
      stored: (s: StatementValues) => s[amount.import] ?? null,
    },
  ]),
  // Object.fromEntries types its keys as string: these are each amount's key, with its column.
) as {
  [A in Amount as A["key"]]: {
    column: (typeof statements)[A["key"]];
    stored: (s: StatementValues) => StoredValue;
  };
};

/** The rates as stored: sorted by balance type, fields in a fixed order, so equal rates compare equal. */
function ratesJson(s: StatementValues): string | null {
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

/** The rewards as stored: their fields in a fixed order, so equal rewards compare equal. */
function rewardsJson(s: StatementValues): string | null {
  const rewards = s.rewards;
  if (rewards === undefined) return null;
  return JSON.stringify({
    unit: rewards.unit,
    earned: rewards.earned,
    redeemed: rewards.redeemed,
    balance: rewards.balance,
    by_category: rewards.by_category?.map((part) => ({
      category_id: part.category_id,
      earned: part.earned,
    })),
  });
}

/**
 * The statement's fields, by the record's property names. The order is the stored row's: the
 * statement id first and its account second (the event and render writes and a restatement's
 * guard read them there).
 */
export const STATEMENT_FIELDS = {
  statementId: { column: statements.statementId, stored: (s) => s.statement_id },
  accountId: { column: statements.accountId, stored: (s) => s.account_id },
  periodStartDate: {
    column: statements.periodStartDate,
    stored: (s) => s.period_start_date ?? null,
  },
  periodEndDate: { column: statements.periodEndDate, stored: (s) => s.period_end_date },
  dueDate: { column: statements.dueDate, stored: (s) => s.due_date ?? null },
  currency: { column: statements.currency, stored: (s) => s.currency ?? null },
  ...amountFields,
  hasPdf: { column: statements.pdfKey, read: sql<number>`${statements.pdfKey} IS NOT NULL` },
  // Embedded as JSON (not as its text), so that parsing the page parses the rates too.
  interestRates: {
    column: statements.interestRates,
    read: sql<string>`json(${statements.interestRates})`,
    stored: ratesJson,
  },
  ytdFees: { column: statements.ytdFees, stored: (s) => s.year_to_date?.fees ?? null },
  ytdInterest: { column: statements.ytdInterest, stored: (s) => s.year_to_date?.interest ?? null },
  // Embedded as JSON, as the rates are.
  rewards: {
    column: statements.rewards,
    read: sql<string>`json(${statements.rewards})`,
    stored: rewardsJson,
  },
  lineItemsDigest: {
    column: statements.lineItemsDigest,
    unlisted: true,
    stored: (_, digest) => digest,
  },
  restatedBy: { column: statements.restatedBy },
  restates: { column: statements.restates },
} satisfies Record<string, StatementField>;

type Fields = typeof STATEMENT_FIELDS;
type FieldName = keyof Fields;

/** The fields a page reads, by name. */
export type ListedField = {
  [K in FieldName]: Fields[K] extends { unlisted: true } ? never : K;
}[FieldName];

/** The fields an imported statement stores, by name. */
export type StoredField = {
  [K in FieldName]: Fields[K] extends { stored: unknown } ? K : never;
}[FieldName];

/** A column's value as drizzle types it: its data, or null for a nullable column. */
type ColumnValue<C> = C extends SQLiteColumn
  ? C["_"]["notNull"] extends true
    ? C["_"]["data"]
    : C["_"]["data"] | null
  : never;

/** What a page's JSON holds of a field: its `read` value, else its column's. */
type ReadValue<F> = F extends { read: SQL<infer T> }
  ? T
  : F extends { column: infer C }
    ? ColumnValue<C>
    : never;

/** A statement as a page's JSON holds it: each listed field by name (see STATEMENT_OBJECT). */
export type PageRow = { [K in ListedField]: ReadValue<Fields[K]> };

// Object.entries types its keys as string: they are the keys of STATEMENT_FIELDS.
const entries = Object.entries(STATEMENT_FIELDS) as [FieldName, StatementField][];

/**
 * A statement as one JSON object of its listed fields by name, for a query of `statements`: a
 * page's rows and a retrieve's one statement are read by name, never by position.
 */
export const STATEMENT_OBJECT = sql<string>`json_object(${sql.join(
  entries
    .filter(([, field]) => !field.unlisted)
    // The names are this table's own keys, plain identifiers: written as literals, not bound.
    .map(([name, field]) => sql`${sql.raw(`'${name}'`)}, ${field.read ?? field.column}`),
  sql`, `,
)})`;

const storedFields = entries.flatMap(([name, field]) => {
  const { stored } = field;
  return stored ? [{ name, column: field.column.name, stored }] : [];
});

/**
 * The statement columns an import writes and compares, in row order: its figures as imported,
 * then what is derived from the item (rates as canonical JSON, the year's totals, the line items'
 * digest). Never the correction links: only a restatement sets those.
 */
export const STATEMENT_COLUMNS: readonly string[] = storedFields.map((field) => field.column);

/** A stored statement's values by column (see STATEMENT_COLUMNS). */
export type StoredStatement = Record<string, StoredValue>;

/** The statement's row, in STATEMENT_COLUMNS order; `digest` is its line items' (or null). */
export function statementRow(s: StatementValues, digest: string | null): StoredValue[] {
  return storedFields.map((field) => field.stored(s, digest));
}

/** Whether a stored statement has exactly the figures of `row` (a `statementRow`). */
export function sameFigures(stored: StoredStatement, row: readonly unknown[]): boolean {
  return STATEMENT_COLUMNS.every((column, i) => stored[column] === row[i]);
}

/**
 * The record of a statement about to be stored, as a page would read it back (but for its PDF,
 * which no statement has when it is stored).
 */
export function statementRecordOf(s: StatementValues): Omit<StatementRecord, "hasPdf"> {
  const values = storedFields
    .filter(({ name }) => !("unlisted" in STATEMENT_FIELDS[name]))
    .map(({ name, stored }) => [name, stored(s, null)]);
  // Every stored field but the digest is a field of the record, with the value the row stores;
  // the rates and rewards are the record's as given rather than their stored JSON text.
  const record = Object.fromEntries(values) as Omit<StatementRecord, "hasPdf">;
  return { ...record, interestRates: s.interest_rates ?? null, rewards: s.rewards ?? null };
}
