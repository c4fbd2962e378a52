// A sandbox billing cycle, closed on request: its dates (by default the month after the account's
// newest statement) and its figures (those asked for, those its line items add up to, or a
// plausible cycle made up), chained to the previous statement's balance and in the card-statement
// sign convention, so that
// statement_balance = previous_balance + purchases + payments + credits + refunds + interest + fees,
// with line items that add up to each total, the rate its interest was charged at, and the year's
// fees and interest so far.
import type { LineItem } from "../domain/line-item";
import type { StatementRewards } from "../domain/rewards";
import type { InterestRate, YearToDate } from "../domain/statement";
import {
  ACTIVITY_FIELDS,
  type ActivityField,
  interestOn,
  madeUpLineItems,
  ratesFor,
  totalsOf,
} from "./line-items";

/** What a simulation may say about the cycle; anything left out is worked out. */
export interface CycleRequest extends Partial<Record<ActivityField, number>> {
  /** Normalised RFC 3339 (UTC, milliseconds). */
  period_end_date?: string;
  due_date?: string;
  minimum_due?: number;
  overdue_amount?: number;
  /** The cycle's transactions, as given; made up when absent. */
  line_items?: LineItem[];
}

/** The account's newest statement, which the cycle follows. */
export interface PreviousStatement {
  periodEndDate: string;
  statementBalance: number | null;
  /** Its year's fees and interest so far, when recorded. */
  ytdFees?: number | null;
  ytdInterest?: number | null;
}

/** A closed cycle: its dates and figures, as a statement stores them. */
export interface ClosedCycle extends Partial<Record<ActivityField, number>> {
  period_start_date: string;
  period_end_date: string;
  due_date: string;
  statement_balance: number;
  minimum_due: number;
  previous_balance: number;
  overdue_amount: number;
  line_items: LineItem[];
  interest_rates?: InterestRate[];
  year_to_date?: YearToDate;
  /** What its purchases earned under the product's rewards categories, when it has any. */
  rewards?: StatementRewards;
}

export type CycleOutcome =
  | { ok: true; cycle: ClosedCycle }
  | { ok: false; field: string; problem: string };

/** Payment is due this many days after the cycle closes. */
const DUE_AFTER_DAYS = 25;

/** Midnight UTC of the day `at` falls on, `days` later. */
function dayStart(at: Date, days = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + days));
}

/** The same day of the month `months` later, or that month's last day when it is shorter. */
function addMonths(at: Date, months: number): Date {
  const first = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(at.getUTCDate(), last)),
  );
}

/**
 * The cycle's dates: it opens the day after the previous statement closed and closes a month later
 * (its last second), unless `end` says when. A first cycle is the calendar month before `now`, or
 * the month up to `end` (September 1 to 30, or August 16 to September 15).
 */
function cycleDates(previous: PreviousStatement | null, end: string | undefined, now: Date) {
  let start: Date;
  if (previous) start = dayStart(new Date(previous.periodEndDate), 1);
  // A month before the day after it closes: a cycle closing on September 30 opens September 1.
  else if (end) start = addMonths(dayStart(new Date(end), 1), -1);
  else start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return { start, end: end ? new Date(end) : new Date(addMonths(start, 1).getTime() - 1000) };
}

const between = (random: () => number, low: number, high: number) =>
  low + Math.floor(random() * (high - low + 1));

/**
 * A plausible cycle of card activity after a balance of `previous`: purchases; the previous
 * balance paid in full, or in part (then interest, and sometimes a late fee); now and then a
 * refund or a credit. Lines without activity stay out.
 */
function madeUpActivity(
  previous: number,
  random: () => number,
): { activity: Partial<Record<ActivityField, number>>; carried?: number } {
  const activity: Partial<Record<ActivityField, number>> = {
    purchases: between(random, 2_000, 120_000),
  };
  let carried: number | undefined;
  if (previous > 0) {
    const inFull = random() < 0.7;
    const paid = inFull
      ? previous
      : Math.min(previous, Math.max(2_500, Math.round(previous * 0.3)));
    activity.payments = -paid;
    if (!inFull && previous > paid) {
      carried = previous - paid;
      activity.interest = interestOn(carried);
      if (random() < 0.3) activity.fees = 2_500;
    }
  }
  if (random() < 0.25)
    activity.refunds = -between(random, 500, Math.min(15_000, activity.purchases ?? 500));
  if (random() < 0.1) activity.credits = -between(random, 100, 2_000);
  return carried === undefined ? { activity } : { activity, carried };
}

/** Why the given line items do not fit the cycle, or null: unique ids, postings inside it. */
function lineItemProblem(
  items: readonly LineItem[],
  start: Date,
  end: Date,
): { field: string; problem: string } | null {
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    if (seen.has(item.line_item_id)) {
      return {
        field: "line_items",
        problem: `line_items[${i}].line_item_id repeats ${JSON.stringify(item.line_item_id)}`,
      };
    }
    seen.add(item.line_item_id);
    const posted = Date.parse(item.posted_at);
    if (posted < start.getTime() || posted > end.getTime()) {
      return {
        field: "line_items",
        problem:
          `line_items[${i}].posted_at must be inside the cycle, ${start.toISOString()} to ` +
          `${end.toISOString()}`,
      };
    }
  }
  return null;
}

/**
 * The year's fees and interest so far: this cycle's alone when it is the year's first, else the
 * previous statement's plus this cycle's (none when the previous one did not record them).
 */
function yearToDate(
  previous: PreviousStatement | null,
  end: Date,
  activity: Partial<Record<ActivityField, number>>,
): YearToDate | undefined {
  const fees = activity.fees ?? 0;
  const interest = activity.interest ?? 0;
  if (!previous || new Date(previous.periodEndDate).getUTCFullYear() < end.getUTCFullYear()) {
    return { fees, interest };
  }
  if (previous.ytdFees == null || previous.ytdInterest == null) return undefined;
  return { fees: previous.ytdFees + fees, interest: previous.ytdInterest + interest };
}

/** The minimum due: all of a small balance, else 1% plus the cycle's interest and fees, at least 25.00. */
function minimumOf(balance: number, activity: Partial<Record<ActivityField, number>>): number {
  if (balance <= 0) return 0;
  const floor = Math.ceil(balance / 100) + (activity.interest ?? 0) + (activity.fees ?? 0);
  return Math.min(balance, Math.max(2_500, floor));
}

/** The cycle's activity and its line items: given, summed from given line items, or made up. */
type Activity = {
  ok: true;
  activity: Partial<Record<ActivityField, number>>;
  carried?: number | undefined;
  lineItems: LineItem[];
};

/**
 * The cycle's activity, as `request` asks: the totals of its line items (a total given beside them
 * must be their sum), the totals it gives (with line items made up to fit), or a plausible cycle
 * made up after `previousBalance`.
 */
function cycleActivity(
  request: CycleRequest,
  previousBalance: number,
  start: Date,
  end: Date,
  random: () => number,
): Activity | { ok: false; field: string; problem: string } {
  const given = ACTIVITY_FIELDS.flatMap((field) => {
    const amount = request[field];
    return amount === undefined ? [] : [{ field, amount }];
  });
  const asked = Object.fromEntries(given.map(({ field, amount }) => [field, amount]));
  if (request.line_items !== undefined) {
    const misfit = lineItemProblem(request.line_items, start, end);
    if (misfit) return { ok: false, ...misfit };
    const sums = totalsOf(request.line_items);
    for (const { field, amount } of given) {
      const sum = sums[field] ?? 0;
      if (amount !== sum) {
        return {
          ok: false,
          field,
          problem:
            `${field} is ${amount} but its line items sum to ${sum}: a difference of ` +
            `${amount - sum}`,
        };
      }
    }
    return { ok: true, activity: { ...asked, ...sums }, lineItems: request.line_items };
  }
  let activity: Partial<Record<ActivityField, number>>;
  let carried: number | undefined;
  if (given.length > 0) activity = asked;
  else ({ activity, carried } = madeUpActivity(previousBalance, random));
  return { ok: true, activity, carried, lineItems: madeUpLineItems(activity, start, end, random) };
}

/**
 * Closes the cycle that follows `previous` (the account's newest statement, or null), as
 * `request` asks: its activity as given (only the lines given), or made up when it gives none.
 */
export function closeCycle(
  request: CycleRequest,
  previous: PreviousStatement | null,
  now: Date,
  random: () => number = Math.random,
): CycleOutcome {
  const { start, end } = cycleDates(previous, request.period_end_date, now);
  if (end.getTime() < start.getTime()) {
    return {
      ok: false,
      field: "period_end_date",
      problem:
        `period_end_date must be on or after ${start.toISOString()}: the cycle opens the day ` +
        "after the account's newest statement closed",
    };
  }
  const dueDate = request.due_date ?? dayStart(end, DUE_AFTER_DAYS).toISOString();
  if (dueDate <= end.toISOString()) {
    return { ok: false, field: "due_date", problem: "due_date must be after period_end_date" };
  }
  const previousBalance = previous?.statementBalance ?? 0;
  const made = cycleActivity(request, previousBalance, start, end, random);
  if (!made.ok) return made;
  const { activity, carried, lineItems } = made;
  const balance = ACTIVITY_FIELDS.reduce(
    (sum, field) => sum + (activity[field] ?? 0),
    previousBalance,
  );
  const owed = Math.max(balance, 0);
  const ytd = yearToDate(previous, end, activity);
  for (const field of ["minimum_due", "overdue_amount"] as const) {
    const value = request[field];
    if (value !== undefined && value > owed) {
      return {
        ok: false,
        field,
        problem: `${field} must be at most the balance owed, ${owed}; got ${value}`,
      };
    }
  }
  return {
    ok: true,
    cycle: {
      period_start_date: start.toISOString(),
      period_end_date: end.toISOString(),
      due_date: dueDate,
      statement_balance: balance,
      minimum_due: request.minimum_due ?? minimumOf(balance, activity),
      previous_balance: previousBalance,
      ...activity,
      overdue_amount: request.overdue_amount ?? 0,
      line_items: lineItems,
      ...(activity.interest ? { interest_rates: ratesFor(activity.interest, carried) } : {}),
      ...(ytd ? { year_to_date: ytd } : {}),
    },
  };
}
