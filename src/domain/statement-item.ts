// The statement item the operator sends (in an import, or as a restatement): its dates and
// figures, its line items, rates and year-to-date totals, each field checked, and for a statement
// that carries line items the figures checked to add up (CONTRACT §9, statement-figures.ts).
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
import { rewardsUnitProblem, StatementRewardsItem } from "./rewards";
import { APR_PATTERN, BALANCE_TYPES } from "./statement";
import { type AmountSign, type ImportAmountName, STATEMENT_AMOUNTS } from "./statement-amounts";
import { figureProblems } from "./statement-figures";
import { describeProblem, propertyOf, relevantIssues } from "./validation-messages";

/** The rule of an amount's sign (see AmountSign), refused with what the sign means. */
function signed(sign: AmountSign) {
  switch (sign) {
    case "charge":
      return amount.refine((v) => v >= 0, "must not be negative (a charge)");
    case "credit":
      return amount.refine((v) => v <= 0, "must not be positive (a credit)");
    case "non-negative":
      return amount.refine((v) => v >= 0, "must not be negative");
    case "any":
      return amount;
  }
}

// One optional amount for each of STATEMENT_AMOUNTS, by its import name (refine keeps the type).
const amountShape = Object.fromEntries(
  STATEMENT_AMOUNTS.map((field) => [field.import, signed(field.sign).optional()]),
  // Object.fromEntries types its keys as string: these are exactly the import names, one each.
) as Record<ImportAmountName, z.ZodOptional<typeof amount>>;

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
  rewards: StatementRewardsItem.optional(),
});

/** The statement item: the import's `statements[]` entry, and a restatement's body. */
export const StatementItem = StatementFields.superRefine((s, ctx) => {
  for (const { path, message } of figureProblems(s)) {
    ctx.addIssue({ code: "custom", path, message });
  }
  const unitProblem = s.rewards && rewardsUnitProblem(s.rewards.unit, s.currency);
  if (unitProblem)
    ctx.addIssue({ code: "custom", path: ["rewards", "unit"], message: unitProblem });
});

export type StatementInput = z.output<typeof StatementItem>;
export type LineItemInput = NonNullable<StatementInput["line_items"]>[number];

/** The fields that name an item of a list, shown after its index when it has one. */
const ITEM_NAMES = ["line_item_id", "category_id"] as const;

/**
 * The path inside an item, as a refusal names it: `.line_items[3] ("li_4").amount`, the id of a
 * line item or rewards category shown when it has one.
 */
export function describeItemPath(item: unknown, path: readonly PropertyKey[]): string {
  let where = "";
  let value = item;
  for (const part of path) {
    value = propertyOf(value, part);
    if (typeof part !== "number") {
      where += `.${String(part)}`;
      continue;
    }
    where += `[${part}]`;
    const named = ITEM_NAMES.map((name) => propertyOf(value, name)).find(
      (itemId) => typeof itemId === "string",
    );
    if (typeof named === "string") where += ` (${JSON.stringify(named.slice(0, 64))})`;
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
  const itemId = propertyOf(input, "statement_id");
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
