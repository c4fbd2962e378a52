// The minimum-payment repayment disclosure (Regulation Z, 12 CFR 1026.7(b)(12), appendix M1):
// how long and how much if the cardholder pays only the minimum, and what paying the balance off
// in 36 months takes. Pure: the service may compute it for its own use with the same function.
import type {
  InterestRate,
  MinimumPaymentRule,
  RepaymentDisclosure,
  StatementFigures,
} from "./statement-document";

/** Beyond this the balance is, for the disclosure, never paid (a thousand years). */
const MONTHS_LIMIT = 12_000;

/**
 * The APR the disclosure assumes: the purchases rate, or the highest rate given when there is no
 * purchases rate; undefined without rates.
 */
export function disclosureRate(rates: InterestRate[] | undefined): string | undefined {
  if (!rates || rates.length === 0) return undefined;
  const purchases = rates.find((r) => r.balance_type === "PURCHASES");
  if (purchases) return purchases.annual_percentage_rate;
  return rates.reduce((a, b) =>
    Number(b.annual_percentage_rate) > Number(a.annual_percentage_rate) ? b : a,
  ).annual_percentage_rate;
}

/**
 * The disclosure for `balance` (integer minor units) at `apr` (percent, "24.99") under `rule`,
 * assuming no new charges or fees. Month by month: the month's interest is the balance times
 * APR / 12, rounded to the minor unit; the payment is the rule's (at least its minimum amount, at
 * most what is owed); the balance is paid when it reaches zero. Never paid (months null) when a
 * payment is no more than its month's interest. The 36-month payment is the level payment that
 * repays the balance in 36 months at the same rate, rounded to the minor unit; it is given only
 * when the minimum takes longer. Totals are exact; `savings` is the difference of the two totals
 * each rounded to whole units of the currency (`digits` decimals), as the document shows them,
 * and never less than zero.
 */
export function repaymentOf(
  balance: number,
  apr: string,
  rule: MinimumPaymentRule,
  digits: number,
): RepaymentDisclosure {
  const monthly = Number(apr) / 1200;
  const percent = Number(rule.percent_of_balance) / 100;
  let owed = balance;
  let months = 0;
  let total = 0;
  let never = false;
  while (owed > 0) {
    const interest = Math.round(owed * monthly);
    let payment = Math.round(owed * percent) + (rule.includes_interest_and_fees ? 0 : interest);
    payment = Math.min(Math.max(payment, rule.minimum_amount), owed + interest);
    if ((payment <= interest && payment < owed + interest) || months === MONTHS_LIMIT) {
      never = true;
      break;
    }
    owed += interest - payment;
    total += payment;
    months += 1;
  }
  const disclosure: RepaymentDisclosure = {
    minimum_payment: never ? { months: null } : { months, total_cost: total },
  };
  if (never || months > 36) {
    const factor = monthly === 0 ? 36 : (1 - (1 + monthly) ** -36) / monthly;
    const payment = Math.round(balance / factor);
    const cost = payment * 36;
    const unit = 10 ** digits;
    const whole = (amount: number) => Math.round(amount / unit) * unit;
    disclosure.three_years = {
      monthly_payment: payment,
      total_cost: cost,
      // At 0% (or nearly) the level payment's rounding can cost a few cents more: no savings.
      ...(never ? {} : { savings: Math.max(0, whole(total) - whole(cost)) }),
    };
  }
  return disclosure;
}

/**
 * The disclosure a statement shows: the issuer's own figures when it gives them, else computed
 * from the new balance, the disclosure rate and the product's rule; undefined when neither can be
 * had (no rule, no rate, or nothing owed).
 */
export function statementRepayment(
  statement: StatementFigures,
  rule: MinimumPaymentRule | undefined,
  digits: number,
): RepaymentDisclosure | undefined {
  if (statement.repayment) return statement.repayment;
  const apr = disclosureRate(statement.interest_rates);
  const balance = statement.statement_balance;
  if (!rule || apr === undefined || balance === undefined || balance <= 0) return undefined;
  return repaymentOf(balance, apr, rule, digits);
}
