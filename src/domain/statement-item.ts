// The statement item the operator sends (in an import, or as a restatement): its dates and
// figures, its line items, rates and year-to-date totals, each field checked, and for a statement
// that carries line items the figures checked to add up (CONTRACT §9).
import * as z from "zod";
import { isCountryCode } from "./country-codes";
import { amount, currency, id, readableText, timestamp } from "./import-fields";
import {
  CARD_LAST4_PATTERN,
  LINE_ITEM_TOTALS,
  LINE_ITEM_TYPES,
  MAX_DESCRIPTION_LENGTH,
  MAX_LINE_ITEMS_PER_STATEMENT,
  MCC_PATTERN,
} from "./line-item";
import { APR_PATTERN, BALANCE_TYPES } from "./statement";
import { describeProblem, relevantIssues } from "./validation-messages";

/**
 * The import's amount fields, with the column each one is stored in. The import's names, not the
 * API's: they change only with the operator import, never with an API version.
 */
export const IMPORT_AMOUNT_FIELDS = [
  ["statement_balance", "statementBalance"],
  ["minimum_due", "minimumDue"],
  ["previous_balance", "previousBalance"],
  ["purchases", "purchases"],
  ["payments", "payments"],
  ["credits", "credits"],
  ["refunds", "refunds"],
  ["interest", "interest"],
  ["fees", "fees"],
  ["overdue_amount", "overdueAmount"],
] as const;

type ImportAmountField = (typeof IMPORT_AMOUNT_FIELDS)[number][0];

/** Card-statement sign convention: charges positive, money credited back negative. */
const AMOUNT_SIGNS: Partial<Record<ImportAmountField, "positive" | "negative">> = {
  purchases: "positive",
  interest: "positive",
  fees: "positive",
  payments: "negative",
  credits: "negative",
  refunds: "negative",
};

const amountShape = Object.fromEntries(
  IMPORT_AMOUNT_FIELDS.map(([field]) => {
    const sign = AMOUNT_SIGNS[field];
    let rule = amount;
    if (sign === "positive") rule = rule.refine((v) => v >= 0, "must not be negative (a charge)");
    if (sign === "negative") rule = rule.refine((v) => v <= 0, "must not be positive (a credit)");
    if (field === "minimum_due" || field === "overdue_amount") {
      rule = rule.refine((v) => v >= 0, "must not be negative");
    }
    return [field, rule.optional()];
  }),
) as Record<ImportAmountField, z.ZodOptional<typeof amount>>;

const nonNegative = amount.refine((v) => v >= 0, "must not be negative");

const Merchant = z.strictObject({
  name: readableText(MAX_DESCRIPTION_LENGTH),
  category_code: z.string().regex(MCC_PATTERN, "must be a 4-digit merchant category code"),
  city: readableText(100).optional(),
  country: z
    .string()
    .refine(isCountryCode, "must be an ISO 3166-1 alpha-2 country code in capitals, such as US")
    .optional(),
});

const LineItem = z
  .strictObject({
    line_item_id: id,
    type: z.enum(LINE_ITEM_TYPES),
    posted_at: timestamp,
    transaction_date: timestamp.optional(),
    description: readableText(MAX_DESCRIPTION_LENGTH),
    amount,
    merchant: Merchant.optional(),
    original_amount: amount.optional(),
    original_currency: currency.optional(),
    card_last4: z.string().regex(CARD_LAST4_PATTERN, "must be 4 digits").optional(),
  })
  .superRefine((item, ctx) => {
    const { sign } = LINE_ITEM_TOTALS[item.type];
    if (sign === "charge" && item.amount < 0) {
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: `must not be negative: a ${item.type} is a charge`,
      });
    }
    if (sign === "credit" && item.amount > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: `must not be positive: a ${item.type} is money credited back`,
      });
    }
    if ((item.original_amount === undefined) !== (item.original_currency === undefined)) {
      const missing = item.original_amount === undefined ? "original_amount" : "original_currency";
      ctx.addIssue({
        code: "custom",
        path: [missing],
        message: "is required with original_amount or original_currency: send both or neither",
      });
    }
    if (item.original_amount !== undefined && item.original_amount * item.amount < 0) {
      ctx.addIssue({
        code: "custom",
        path: ["original_amount"],
        message: "must have the sign of amount",
      });
    }
    if (item.transaction_date !== undefined && item.transaction_date > item.posted_at) {
      ctx.addIssue({
        code: "custom",
        path: ["transaction_date"],
        message: "must not be after posted_at: a transaction is posted once it has happened",
      });
    }
  });

const InterestRate = z.strictObject({
  balance_type: z.enum(BALANCE_TYPES),
  annual_percentage_rate: z
    .string()
    .regex(
      APR_PATTERN,
      'must be a decimal string from "0" to "999.9999", such as "24.99" (up to 4 decimals)',
    ),
  balance_subject_to_interest: nonNegative,
  interest: nonNegative,
});

const YearToDate = z.strictObject({ fees: nonNegative, interest: nonNegative });

const StatementFields = z.strictObject({
  statement_id: id,
  account_id: id,
  period_start_date: timestamp.optional(),
  period_end_date: timestamp,
  due_date: timestamp.optional(),
  currency: currency.optional(),
  ...amountShape,
  line_items: z.array(LineItem).max(MAX_LINE_ITEMS_PER_STATEMENT).optional(),
  interest_rates: z.array(InterestRate).max(BALANCE_TYPES.length).optional(),
  year_to_date: YearToDate.optional(),
});

type StatementFields = z.output<typeof StatementFields>;

/** `4000` → `4000`, a bigint sum → its decimal text. */
const show = (value: bigint | number) => String(value);

/** The issue of a figure that its parts do not add up to, with the difference. */
function mismatch(stated: bigint, parts: bigint, what: string): string {
  return `is ${show(stated)} but ${what} ${show(parts)}: a difference of ${show(stated - parts)}`;
}

/** Each line item id once, each inside the statement's period. */
function checkLineItemPlaces(s: StatementFields, ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  (s.line_items ?? []).forEach((item, i) => {
    const earlier = seen.get(item.line_item_id);
    if (earlier !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["line_items", i, "line_item_id"],
        message: `repeats line_items[${earlier}]: a line item id is unique in its statement`,
      });
    } else seen.set(item.line_item_id, i);
    const before = s.period_start_date !== undefined && item.posted_at < s.period_start_date;
    if (before || item.posted_at > s.period_end_date) {
      ctx.addIssue({
        code: "custom",
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
function checkSums(s: StatementFields, ctx: z.RefinementCtx): void {
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
        ctx.addIssue({
          code: "custom",
          path: [total],
          message:
            `is absent, which means no ${type} line items, but they sum to ${show(sum)}: a ` +
            `difference of ${show(-sum)}`,
        });
      }
    } else if (BigInt(stated) !== sum) {
      ctx.addIssue({
        code: "custom",
        path: [total],
        message: mismatch(BigInt(stated), sum, `its ${type} line items sum to`),
      });
    }
  }
  if (s.previous_balance !== undefined && s.statement_balance !== undefined) {
    const expected = BigInt(s.previous_balance) + all;
    if (expected !== BigInt(s.statement_balance)) {
      ctx.addIssue({
        code: "custom",
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
function checkRates(s: StatementFields, ctx: z.RefinementCtx): void {
  const rates = s.interest_rates;
  if (rates !== undefined) {
    const seen = new Set<string>();
    rates.forEach((rate, i) => {
      if (seen.has(rate.balance_type)) {
        ctx.addIssue({
          code: "custom",
          path: ["interest_rates", i, "balance_type"],
          message: `repeats ${rate.balance_type}: each balance type has one rate`,
        });
      }
      seen.add(rate.balance_type);
    });
    const sum = rates.reduce((n, rate) => n + BigInt(rate.interest), 0n);
    const stated = BigInt(s.interest ?? 0);
    if (sum !== stated) {
      ctx.addIssue({
        code: "custom",
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
        ctx.addIssue({
          code: "custom",
          path: ["year_to_date", field],
          message:
            `is ${ytd[field]}, less than the cycle's own ${field} (${cycle}): the year to date ` +
            "includes this cycle",
        });
      }
    }
  }
}

/** The statement item: the import's `statements[]` entry, and a restatement's body. */
export const StatementItem = StatementFields.superRefine((s, ctx) => {
  if (s.period_start_date !== undefined && s.period_start_date > s.period_end_date) {
    ctx.addIssue({
      code: "custom",
      path: ["period_start_date"],
      message: "must not be after period_end_date",
    });
  }
  checkLineItemPlaces(s, ctx);
  checkSums(s, ctx);
  checkRates(s, ctx);
});

export type StatementInput = z.output<typeof StatementItem>;
export type LineItemInput = NonNullable<StatementInput["line_items"]>[number];

/**
 * The path inside a statement item, as a refusal names it: `.line_items[3] ("li_4").amount`, the
 * line item's id shown when it has one.
 */
export function describeItemPath(item: unknown, path: readonly PropertyKey[]): string {
  let where = "";
  let value = item;
  for (const part of path) {
    value = (value as Record<PropertyKey, unknown> | null | undefined)?.[part];
    if (typeof part !== "number") {
      where += `.${String(part)}`;
      continue;
    }
    where += `[${part}]`;
    const lineItemId = (value as { line_item_id?: unknown } | null | undefined)?.line_item_id;
    if (typeof lineItemId === "string") where += ` (${JSON.stringify(lineItemId.slice(0, 64))})`;
  }
  return where;
}

/**
 * A restatement's body: the validated statement item, or its problems, each naming the field
 * (`statement ("st_2").line_items[3] ("li_4").amount: …`).
 */
export function parseStatementItem(
  input: unknown,
): { ok: true; statement: StatementInput } | { ok: false; details: string[] } {
  const result = StatementItem.safeParse(input);
  if (result.success) return { ok: true, statement: result.data };
  const itemId = (input as { statement_id?: unknown } | null)?.statement_id;
  const named = typeof itemId === "string" ? ` (${JSON.stringify(itemId.slice(0, 64))})` : "";
  return {
    ok: false,
    details: relevantIssues(result.error.issues)
      .slice(0, 50)
      .map(
        (issue) =>
          `statement${named}${describeItemPath(input, issue.path)}: ` +
          describeProblem(input, issue),
      ),
  };
}
