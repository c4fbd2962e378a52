// What the renderer refuses to draw, each problem naming its field: the service checks its data
// when it is imported or set, so these guard the document against input it could only draw wrong.
import {
  BALANCE_TYPES,
  BILLING_ADDRESS_LINES,
  DECIMAL_RATE,
  LINE_ITEM_TYPES,
  logoProblem,
  MAX_LINE_ITEMS,
  type StatementDocumentInput,
} from "./statement-document";

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}/;

const quoted = (value: unknown) => JSON.stringify(value);

function integer(field: string, value: number | undefined): string | null {
  return value === undefined || Number.isSafeInteger(value)
    ? null
    : `${field} must be an integer of minor units; got ${quoted(value)}`;
}

function rate(field: string, value: string | undefined): string | null {
  return value === undefined || DECIMAL_RATE.test(value)
    ? null
    : `${field} must be a decimal percentage such as "24.99"; got ${quoted(value)}`;
}

function timestamp(field: string, value: string | undefined): string | null {
  return value === undefined || TIMESTAMP.test(value)
    ? null
    : `${field} must be an RFC 3339 timestamp; got ${quoted(value)}`;
}

function oneOf(field: string, value: string, allowed: readonly string[]): string | null {
  return allowed.includes(value)
    ? null
    : `${field} must be one of ${allowed.join(", ")}; got ${quoted(value)}`;
}

const first = (problems: (string | null)[]) => problems.find((p) => p !== null) ?? null;

/** The first reason the input cannot be drawn, or null when it can. */
export function inputProblem(input: StatementDocumentInput): string | null {
  const { statement, product } = input;
  if (product.logo) {
    const problem = logoProblem(product.logo);
    if (problem) return problem;
  }
  const rewards = statement.rewards;
  if (rewards) {
    const problem = first([
      rewards.unit === "POINTS" || rewards.unit === statement.currency
        ? null
        : `rewards.unit must be POINTS or the statement's currency; got ${quoted(rewards.unit)}`,
      integer("rewards.earned", rewards.earned),
      integer("rewards.redeemed", rewards.redeemed),
      integer("rewards.balance", rewards.balance),
      ...(rewards.by_category ?? []).map((part, i) =>
        integer(`rewards.by_category[${i}].earned`, part.earned),
      ),
    ]);
    if (problem) return problem;
  }
  const items = statement.line_items ?? [];
  if (items.length > MAX_LINE_ITEMS) {
    const [most, got] = [MAX_LINE_ITEMS, items.length].map((n) => n.toLocaleString("en-US"));
    return `line_items: at most ${most} per statement; got ${got}`;
  }
  for (const [i, item] of items.entries()) {
    const at = `line_items[${i}]`;
    const problem = first([
      oneOf(`${at}.type`, item.type, LINE_ITEM_TYPES),
      timestamp(`${at}.posted_at`, item.posted_at),
      timestamp(`${at}.transaction_date`, item.transaction_date),
      integer(`${at}.amount`, item.amount),
      integer(`${at}.original_amount`, item.original_amount),
      item.description.trim() === "" ? `${at}.description must not be empty` : null,
    ]);
    if (problem) return problem;
  }
  for (const [i, line] of (statement.interest_rates ?? []).entries()) {
    const at = `interest_rates[${i}]`;
    const problem = first([
      oneOf(`${at}.balance_type`, line.balance_type, BALANCE_TYPES),
      rate(`${at}.annual_percentage_rate`, line.annual_percentage_rate),
      integer(`${at}.balance_subject_to_interest`, line.balance_subject_to_interest),
      integer(`${at}.interest`, line.interest),
    ]);
    if (problem) return problem;
  }
  const { year_to_date: ytd, restates, repayment } = statement;
  const address = product.billing_rights_address ?? [];
  return first([
    integer("year_to_date.fees", ytd?.fees),
    integer("year_to_date.interest", ytd?.interest),
    restates && restates.statement_id.trim() === ""
      ? "restates.statement_id must not be empty"
      : null,
    timestamp("restates.period_end_date", restates?.period_end_date),
    repayment ? repaymentProblem(repayment) : null,
    address.length > BILLING_ADDRESS_LINES
      ? `billing_rights_address: at most ${BILLING_ADDRESS_LINES} lines; got ${address.length}`
      : null,
    address.some((line) => line.trim() === "")
      ? "billing_rights_address lines must not be empty"
      : null,
    integer("late_payment.late_fee", product.late_payment?.late_fee),
    rate("late_payment.penalty_apr", product.late_payment?.penalty_apr),
    rate("minimum_payment.percent_of_balance", product.minimum_payment?.percent_of_balance),
    integer("minimum_payment.minimum_amount", product.minimum_payment?.minimum_amount),
  ]);
}

function repaymentProblem(
  repayment: NonNullable<StatementDocumentInput["statement"]["repayment"]>,
): string | null {
  const { months, total_cost } = repayment.minimum_payment;
  if (months !== null && !(Number.isSafeInteger(months) && months > 0)) {
    const field = "repayment.minimum_payment.months";
    return `${field} must be a whole number of months or null; got ${quoted(months)}`;
  }
  if (months !== null && total_cost === undefined) {
    return "repayment.minimum_payment.total_cost is required when months is given";
  }
  const three = repayment.three_years;
  return first([
    integer("repayment.minimum_payment.total_cost", total_cost),
    integer("repayment.three_years.monthly_payment", three?.monthly_payment),
    integer("repayment.three_years.total_cost", three?.total_cost),
    integer("repayment.three_years.savings", three?.savings),
  ]);
}
