// The figures of a statement that carries line items must add up (CONTRACT §9): each type's
// line items to its total (an absent total: none of that type), the previous balance plus every
// line item to the statement balance; each line item inside the period and once; the rates'
// interest to the statement's, the year's totals at least the cycle's. Pure: the operator's
// statement item reports these as its validation issues.
import { LINE_ITEM_TOTALS, LINE_ITEM_TYPES, type LineItemType } from "./line-item";

/** What the checks read of a statement (the statement item, validated field by field). */
export interface Figures {
  period_start_date?: string | undefined;
  period_end_date: string;
  previous_balance?: number | undefined;
  statement_balance?: number | undefined;
  purchases?: number | undefined;
  payments?: number | undefined;
  credits?: number | undefined;
  refunds?: number | undefined;
  interest?: number | undefined;
  fees?: number | undefined;
  line_items?:
    | readonly { line_item_id: string; type: LineItemType; posted_at: string; amount: number }[]
    | undefined;
  interest_rates?: readonly { balance_type: string; interest: number }[] | undefined;
  year_to_date?: { fees: number; interest: number } | undefined;
}

/** A problem at its path inside the statement: `["purchases"]`, `["line_items", 3, "posted_at"]`. */
export interface FigureProblem {
  path: (string | number)[];
  message: string;
}

/** `4000` → `4000`, a bigint sum → its decimal text. */
const show = (value: bigint | number) => String(value);

/** The issue of a figure that its parts do not add up to, with the difference. */
function mismatch(stated: bigint, parts: bigint, what: string): string {
  return `is ${show(stated)} but ${what} ${show(parts)}: a difference of ${show(stated - parts)}`;
}

/** Each line item id once, each inside the statement's period. */
function checkLineItemPlaces(s: Figures, problems: FigureProblem[]): void {
  const seen = new Map<string, number>();
  (s.line_items ?? []).forEach((item, i) => {
    const earlier = seen.get(item.line_item_id);
    if (earlier !== undefined) {
      problems.push({
        path: ["line_items", i, "line_item_id"],
        message: `repeats line_items[${earlier}]: a line item id is unique in its statement`,
      });
    } else seen.set(item.line_item_id, i);
    const before = s.period_start_date !== undefined && item.posted_at < s.period_start_date;
    if (before || item.posted_at > s.period_end_date) {
      problems.push({
        path: ["line_items", i, "posted_at"],
        message:
          `must be inside the statement's period (${s.period_start_date ?? "its start"} to ` +
          `${s.period_end_date})`,
      });
    }
  });
}

/**
 * For a statement that carries line items: each type sums to its total (an absent total means no
 * item of that type), and the previous balance plus every line item is the statement balance.
 * Sums are exact (bigint): a thousand amounts near 2^53 would lose digits as numbers.
 */
function checkSums(s: Figures, problems: FigureProblem[]): void {
  const items = s.line_items ?? [];
  if (items.length === 0) return;
  const sums = new Map<string, bigint>();
  let all = 0n;
  for (const item of items) {
    const { total } = LINE_ITEM_TOTALS[item.type];
    sums.set(total, (sums.get(total) ?? 0n) + BigInt(item.amount));
    all += BigInt(item.amount);
  }
  for (const type of LINE_ITEM_TYPES) {
    const { total } = LINE_ITEM_TOTALS[type];
    const sum = sums.get(total) ?? 0n;
    const stated = s[total];
    if (stated === undefined) {
      if (items.some((item) => item.type === type)) {
        problems.push({
          path: [total],
          message:
            `is absent, which means no ${type} line items, but they sum to ${show(sum)}: a ` +
            `difference of ${show(-sum)}`,
        });
      }
    } else if (BigInt(stated) !== sum) {
      problems.push({
        path: [total],
        message: mismatch(BigInt(stated), sum, `its ${type} line items sum to`),
      });
    }
  }
  if (s.previous_balance !== undefined && s.statement_balance !== undefined) {
    const expected = BigInt(s.previous_balance) + all;
    if (expected !== BigInt(s.statement_balance)) {
      problems.push({
        path: ["statement_balance"],
        message: mismatch(
          BigInt(s.statement_balance),
          expected,
          `previous_balance (${s.previous_balance}) plus the line items (${show(all)}) is`,
        ),
      });
    }
  }
}

/** Each balance type once, the rates' interest summing to the cycle's, the year's at least it. */
function checkRates(s: Figures, problems: FigureProblem[]): void {
  const rates = s.interest_rates;
  if (rates !== undefined) {
    const seen = new Set<string>();
    rates.forEach((rate, i) => {
      if (seen.has(rate.balance_type)) {
        problems.push({
          path: ["interest_rates", i, "balance_type"],
          message: `repeats ${rate.balance_type}: each balance type has one rate`,
        });
      }
      seen.add(rate.balance_type);
    });
    const sum = rates.reduce((n, rate) => n + BigInt(rate.interest), 0n);
    const stated = BigInt(s.interest ?? 0);
    if (sum !== stated) {
      problems.push({
        path: ["interest_rates"],
        message:
          `interest sums to ${show(sum)} but the statement's interest is ` +
          `${s.interest === undefined ? "absent (none)" : show(stated)}: a difference of ` +
          show(stated - sum),
      });
    }
  }
  const ytd = s.year_to_date;
  if (ytd !== undefined) {
    for (const field of ["fees", "interest"] as const) {
      const cycle = s[field] ?? 0;
      if (ytd[field] < cycle) {
        problems.push({
          path: ["year_to_date", field],
          message:
            `is ${ytd[field]}, less than the cycle's own ${field} (${cycle}): the year to date ` +
            "includes this cycle",
        });
      }
    }
  }
}

/** Every way the statement's figures fail to add up or fit; none for a statement that fits. */
export function figureProblems(s: Figures): FigureProblem[] {
  const problems: FigureProblem[] = [];
  if (s.period_start_date !== undefined && s.period_start_date > s.period_end_date) {
    problems.push({ path: ["period_start_date"], message: "must not be after period_end_date" });
  }
  checkLineItemPlaces(s, problems);
  checkSums(s, problems);
  checkRates(s, problems);
  return problems;
}
