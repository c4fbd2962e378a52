// The canonical (newest) Statement: what handlers build before version modules reshape it.
import type { StatementRewards } from "./rewards";
import { type AmountBody, type AmountRecord, STATEMENT_AMOUNTS } from "./statement-amounts";

/** The balances an APR applies to, as Regulation Z's periodic statement lists them. */
export const BALANCE_TYPES = ["PURCHASES", "CASH_ADVANCES", "BALANCE_TRANSFERS"] as const;
export type BalanceType = (typeof BALANCE_TYPES)[number];

/**
 * An annual percentage rate as a decimal string: 0 to 999, then up to four decimals, without
 * leading zeros or a sign (`"24.99"`, `"0"`, `"7.5"`, `"19.9900"`).
 */
export const APR_PATTERN = /^(0|[1-9][0-9]{0,2})(\.[0-9]{1,4})?$/;

/** One periodic rate of the cycle: the APR, the balance it applied to, the interest it charged. */
export type InterestRate = {
  balance_type: BalanceType;
  annual_percentage_rate: string;
  balance_subject_to_interest: number;
  interest: number;
};

/** Fees and interest charged in the calendar year of the statement date, this cycle included. */
export type YearToDate = {
  fees: number;
  interest: number;
};

/** What a listing reads of a stored statement; absent figures are null. */
export interface StatementRecord extends AmountRecord {
  statementId: string;
  accountId: string;
  periodStartDate: string | null;
  periodEndDate: string;
  dueDate: string | null;
  currency: string | null;
  /** Whether the PDF is stored (the storage key itself never leaves the data layer). */
  hasPdf: boolean;
  /** The cycle's rates; null (or absent, for a reader that does not select it) when not recorded. */
  interestRates?: InterestRate[] | null;
  ytdFees?: number | null;
  ytdInterest?: number | null;
  /** What the cycle earned, redeemed and holds; null (or absent) when not recorded. */
  rewards?: StatementRewards | null;
  /** The correction that replaced this statement, once restated. */
  restatedBy?: string | null;
  /** The statement this one corrects. */
  restates?: string | null;
}

/** The canonical statement; `pdf` replaced `pdf_url` in `latest` (see versions/latest.ts). */
export type Statement = {
  statement_id: string;
  customer_id: string;
  account_id: string;
  as_of: string;
  period_start_date?: string;
  period_end_date?: string;
  due_date?: string;
  pdf?: { url: string; expires_at: string };
  currency?: string;
} & AmountBody & {
    interest_rates?: InterestRate[];
    year_to_date?: YearToDate;
    restated_by?: string;
    restates?: string;
    rewards?: StatementRewards;
  };

/**
 * The canonical statement of a row. Absent figures stay absent (never null, never 0); internal
 * columns (hidden flag, storage key) never leave this function.
 */
export function toStatement(
  row: Omit<StatementRecord, "hasPdf">,
  customerId: string,
  asOf: string,
  pdf: Statement["pdf"],
): Statement {
  const out: Statement = {
    statement_id: row.statementId,
    customer_id: customerId,
    account_id: row.accountId,
    as_of: asOf,
  };
  if (row.periodStartDate !== null) out.period_start_date = row.periodStartDate;
  out.period_end_date = row.periodEndDate;
  if (row.dueDate !== null) out.due_date = row.dueDate;
  if (pdf) out.pdf = pdf;
  if (row.currency !== null) out.currency = row.currency;
  for (const amount of STATEMENT_AMOUNTS) {
    const value = row[amount.key];
    if (value !== null) out[amount.api] = value;
  }
  if (row.interestRates) out.interest_rates = row.interestRates;
  // Both or neither: the import takes them together.
  if (row.ytdFees != null && row.ytdInterest != null) {
    out.year_to_date = { fees: row.ytdFees, interest: row.ytdInterest };
  }
  if (row.restatedBy) out.restated_by = row.restatedBy;
  if (row.restates) out.restates = row.restates;
  if (row.rewards) out.rewards = row.rewards;
  return out;
}
