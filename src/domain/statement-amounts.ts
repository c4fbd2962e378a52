// The statement's amounts, declared once. Every reader of an amount derives from this list: the
// column the statements table stores it in (statements/schema.ts), the record the data layer reads
// (statements/statement-fields.ts), the import's field and its sign rule (statement-item.ts), the
// API's field and its description (statement.ts, statements/api-schemas.ts). Adding an amount is
// a row here and the migration `npm run db:generate` writes for it (docs/extending.md).

/**
 * How an imported amount is checked. Card-statement sign convention: a `charge` is never
 * negative, money credited back (`credit`) never positive; `non-negative` for amounts that are
 * owed but are not a cycle's activity; `any` for balances, which may go either way.
 */
export type AmountSign = "any" | "charge" | "credit" | "non-negative";

/** One amount of the statement: its names in each place it appears. */
export interface StatementAmount {
  /** The field of the API's statement (the newest version's name). */
  api: string;
  /**
   * The field of the operator import's statement item. The import's names change only with the
   * operator import, never with an API version.
   */
  import: string;
  /** The property of the statements table's row and of the data layer's record. */
  key: string;
  /** The statements table's column. */
  column: string;
  sign: AmountSign;
  /** What the API reference says of the field. */
  description: string;
}

/** The statement's amounts, in the order the API's statement lists them. */
export const STATEMENT_AMOUNTS = [
  {
    api: "statement_balance",
    import: "statement_balance",
    key: "statementBalance",
    column: "statement_balance",
    sign: "any",
    description: "Balance owed when the cycle closed; negative if paid ahead.",
  },
  {
    api: "minimum_due",
    import: "minimum_due",
    key: "minimumDue",
    column: "minimum_due",
    sign: "non-negative",
    description: "Minimum payment required by `due_date` to keep the account current.",
  },
  {
    api: "previous_balance",
    import: "previous_balance",
    key: "previousBalance",
    column: "previous_balance",
    sign: "any",
    description: "Balance carried over from the previous cycle.",
  },
  {
    api: "purchases",
    import: "purchases",
    key: "purchases",
    column: "purchases",
    sign: "charge",
    description: "Total purchases posted in the cycle. Positive.",
  },
  {
    api: "payments",
    import: "payments",
    key: "payments",
    column: "payments",
    sign: "credit",
    description: "Total payments received in the cycle. Negative.",
  },
  {
    api: "credits",
    import: "credits",
    key: "credits",
    column: "credits",
    sign: "credit",
    description: "Total credits applied in the cycle. Negative.",
  },
  {
    api: "refunds",
    import: "refunds",
    key: "refunds",
    column: "refunds",
    sign: "credit",
    description: "Total refunds posted in the cycle. Negative.",
  },
  {
    api: "interest",
    import: "interest",
    key: "interest",
    column: "interest",
    sign: "charge",
    description: "Interest charged in the cycle. Positive.",
  },
  {
    api: "fees",
    import: "fees",
    key: "fees",
    column: "fees",
    sign: "charge",
    description: "Fees charged in the cycle. Positive.",
  },
  {
    api: "overdue_amount",
    import: "overdue_amount",
    key: "overdueAmount",
    column: "overdue_amount",
    sign: "non-negative",
    description: "Portion of `statement_balance` already past due at cycle close.",
  },
] as const satisfies readonly StatementAmount[];

type Amount = (typeof STATEMENT_AMOUNTS)[number];

/** The amounts of a stored statement, by record property; an absent amount is null. */
export type AmountRecord = { [A in Amount as A["key"]]: number | null };

/** The amounts of the API's statement; an absent amount is left out. */
export type AmountBody = { [A in Amount as A["api"]]?: number };

/** The amounts of an imported statement item; an absent amount is left out. */
export type ImportedAmounts = { [A in Amount as A["import"]]?: number };

/** The import's name of an amount. */
export type ImportAmountName = Amount["import"];
