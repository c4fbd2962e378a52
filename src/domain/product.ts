// A partner's card product, addressed by its merchant key.

export interface Product {
  merchantKey: string;
  name: string;
}

/** What a late payment costs, as the statement's late-payment warning says it. */
export interface LatePaymentTerms {
  /** The most a late payment costs, in integer minor units of the statement's currency. */
  late_fee?: number;
  /** The penalty APR a late payment may bring, a decimal percentage: "29.99". */
  penalty_apr?: string;
}

/**
 * How the product sets its minimum payment: `percent_of_balance` percent of the balance, the
 * month's interest and fees included in it or added to it, never less than `minimum_amount`.
 */
export interface MinimumPaymentRule {
  percent_of_balance: string;
  includes_interest_and_fees: boolean;
  minimum_amount: number;
}
