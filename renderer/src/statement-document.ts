// What a statement document is made of: the statement's figures as the API has them, the account
// and customer it belongs to, and how the card product presents itself. A plain value, so that it
// crosses a Service Binding (RPC) as it is.
/**
 * The statement's figures, as the API names them; absent lines stay absent, as in the API. The
 * service holds them to its own Statement type (src/documents/render-input.ts), so the two cannot
 * drift apart; this Worker declares them to stay a Worker of its own.
 */
export type StatementFigures = {
  statement_id: string;
  period_start_date?: string;
  due_date?: string;
  currency?: string;
  statement_balance?: number;
  minimum_due?: number;
  previous_balance?: number;
  purchases?: number;
  payments?: number;
  credits?: number;
  refunds?: number;
  interest?: number;
  fees?: number;
  overdue_amount?: number;
  /** When the cycle closed: the statement date (RFC 3339). */
  period_end_date: string;
  /**
   * The cycle's transactions, in the document's order (`posted_at`, then `line_item_id`), at most
   * MAX_LINE_ITEMS. Absent or empty: the document is the one-page summary.
   */
  line_items?: LineItem[];
  /** Per balance type, the rate and the interest it charged this cycle. */
  interest_rates?: InterestRate[];
  /** Totals for the calendar year of the closing date, this cycle included. */
  year_to_date?: YearToDate;
  /** The statement this one corrects: page 1 says it replaces it. */
  restates?: RestatedStatement;
  /**
   * The minimum-payment repayment disclosure, when the issuer supplies its own figures. Absent:
   * computed from the new balance, the APR and the product's `minimum_payment` rule, when the
   * product has one (repaymentOf in ./repayment).
   */
  repayment?: RepaymentDisclosure;
  /** What the cycle earned in rewards: the Rewards section, drawn only when present. */
  rewards?: StatementRewards;
};

/**
 * A statement's rewards: `unit` is `POINTS` or the statement's currency (cash back, in integer
 * minor units); the categories' `earned` add up to `earned`.
 */
export type StatementRewards = {
  unit: string;
  earned: number;
  redeemed?: number;
  balance?: number;
  by_category?: { category_id: string; earned: number }[];
};

/** What a line item is; the document groups them as the model form does. */
export const LINE_ITEM_TYPES = [
  "PURCHASE",
  "PAYMENT",
  "CREDIT",
  "REFUND",
  "INTEREST",
  "FEE",
] as const;
export type LineItemType = (typeof LINE_ITEM_TYPES)[number];

/** The most line items one statement's document draws (the import accepts no more). */
export const MAX_LINE_ITEMS = 1000;

/** Where a card transaction was made. */
export interface LineItemMerchant {
  name: string;
  /** The merchant category code (ISO 18245): four digits. */
  category_code: string;
  city?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
}

/** One transaction of the cycle. */
export interface LineItem {
  line_item_id: string;
  type: LineItemType;
  /** When it was posted to the account (RFC 3339). */
  posted_at: string;
  /** When the cardholder made it (RFC 3339 or a date, YYYY-MM-DD), when known. */
  transaction_date?: string;
  /** As the cardholder sees it: 1 to 200 characters. */
  description: string;
  /**
   * Integer minor units of the statement's currency, in the card-statement sign convention:
   * PURCHASE, INTEREST and FEE at least 0; PAYMENT, CREDIT and REFUND at most 0.
   */
  amount: number;
  merchant?: LineItemMerchant;
  /** A foreign transaction's amount, in integer minor units of `original_currency`. */
  original_amount?: number;
  /** ISO 4217 code of `original_amount`. */
  original_currency?: string;
  /** The last four digits of the card it was made with. */
  card_last4?: string;
}

export const BALANCE_TYPES = ["PURCHASES", "CASH_ADVANCES", "BALANCE_TRANSFERS"] as const;
export type BalanceType = (typeof BALANCE_TYPES)[number];

/** A decimal rate as a string, such as "24.99" (percent): never a binary fraction. */
export const DECIMAL_RATE = /^\d{1,3}(\.\d{1,4})?$/;

/** One line of the interest charge calculation. */
export interface InterestRate {
  balance_type: BalanceType;
  /** Percent a year, DECIMAL_RATE: "24.99". */
  annual_percentage_rate: string;
  /** Integer minor units. */
  balance_subject_to_interest: number;
  /** Integer minor units; the rates' interest adds up to the statement's `interest`. */
  interest: number;
}

/** Totals for the calendar year of the closing date, in integer minor units. */
export interface YearToDate {
  fees?: number;
  interest?: number;
}

/** The statement a correction replaces, as the API shows it. */
export interface RestatedStatement {
  statement_id: string;
  /** Its closing date (RFC 3339). */
  period_end_date: string;
}

/**
 * The repayment disclosure (Regulation Z, 12 CFR 1026.7(b)(12)) for the new balance, assuming no
 * new charges. Amounts in integer minor units; the document shows them rounded to whole units.
 */
export interface RepaymentDisclosure {
  /** Paying only the minimum payment each month. */
  minimum_payment: {
    /**
     * Months until the balance is paid; null when it never is (no minimum payment is more than
     * its month's interest).
     */
    months: number | null;
    /** The payments' total; absent when `months` is null. */
    total_cost?: number;
  };
  /**
   * Paying one amount each month that repays the balance in 36 months. Absent when paying only the
   * minimum repays it in 36 months or less.
   */
  three_years?: {
    monthly_payment: number;
    total_cost: number;
    /** The minimum payment's total cost less this one; absent when the minimum never repays. */
    savings?: number;
  };
}

export interface StatementAccount {
  account_id: string;
  /** How the account is shown to the cardholder instead of its id, such as "•••• 4242". */
  masked_number?: string;
}

export interface StatementCustomer {
  customer_id: string;
  /** The cardholder's name as the document addresses them. */
  display_name?: string;
}

/** A logo image: PNG or JPEG bytes, and the text that stands for it when it cannot be seen. */
export interface ProductLogo {
  bytes: Uint8Array;
  media_type: "image/png" | "image/jpeg";
  alt_text: string;
}

/** The accent colours the renderer draws: `#RRGGBB`. */
export const ACCENT_COLOUR = /^#[0-9A-Fa-f]{6}$/;

/** How the card product presents its documents, and the terms its statements disclose. */
export interface ProductPresentation {
  display_name: string;
  /** The product's colour (ACCENT_COLOUR); darkened where needed to be legible on white. */
  accent_colour: string;
  logo?: ProductLogo;
  /** The address for billing-error notices, one line each (at most BILLING_ADDRESS_LINES). */
  billing_rights_address?: string[];
  /** What a late payment costs: the late-payment warning, shown whenever a minimum is due. */
  late_payment?: LatePaymentTerms;
  /** How the minimum payment is set: the repayment disclosure is computed from it. */
  minimum_payment?: MinimumPaymentRule;
  /** The toll-free number for credit counselling, shown under the repayment disclosure. */
  credit_counseling_phone?: string;
  /** The product's rewards categories: the Rewards section names each by its `name`. */
  rewards_categories?: { category_id: string; name: string }[];
}

/** The most lines of the billing-rights address. */
export const BILLING_ADDRESS_LINES = 6;

export interface LatePaymentTerms {
  /** The most a late payment costs, in integer minor units of the statement's currency. */
  late_fee?: number;
  /** The penalty APR a late payment may bring, DECIMAL_RATE: "29.99". */
  penalty_apr?: string;
}

/**
 * The product's minimum payment: `percent_of_balance` percent of the balance (DECIMAL_RATE), the
 * month's interest and fees included in it (`includes_interest_and_fees: true`) or added to it
 * (`false`), and never less than `minimum_amount` (integer minor units) or more than the balance.
 */
export interface MinimumPaymentRule {
  percent_of_balance: string;
  includes_interest_and_fees: boolean;
  minimum_amount: number;
}

export interface StatementDocumentInput {
  statement: StatementFigures;
  account: StatementAccount;
  customer: StatementCustomer;
  product: ProductPresentation;
}

const SIGNATURES: Record<ProductLogo["media_type"], number[]> = {
  "image/png": [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  "image/jpeg": [0xff, 0xd8, 0xff],
};

/** Why the logo cannot be drawn as it says it is, or null when it can. */
export function logoProblem(logo: ProductLogo): string | null {
  const signature = SIGNATURES[logo.media_type];
  if (!signature) return `logo media_type must be image/png or image/jpeg; got ${logo.media_type}`;
  if (!signature.every((byte, i) => logo.bytes[i] === byte)) {
    return `logo bytes are not a ${logo.media_type === "image/png" ? "PNG" : "JPEG"} image`;
  }
  if (logo.alt_text.trim() === "") return "logo alt_text must describe the logo";
  return null;
}
