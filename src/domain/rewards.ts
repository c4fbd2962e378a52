// Rewards: what a card product earns per merchant category (CONTRACT §11), and what a statement
// earned, redeemed and holds. The rules here are the one check of a product's categories (the
// operator import and the product change take them) and of a statement's rewards, whose
// categories' sum must be what it says it earned. Pure: callers name the problems they report.
import * as z from "zod";
import { amount, id, readableText } from "./import-fields";
import { MCC_PATTERN } from "./line-item";

export const EARN_UNITS = ["POINTS_PER_DOLLAR", "PERCENT_CASH_BACK"] as const;
export type EarnUnit = (typeof EARN_UNITS)[number];

/** A product has at most this many categories. */
export const MAX_REWARDS_CATEGORIES = 50;
export const MAX_CATEGORY_NAME = 60;

/** A positive decimal with at most two decimals, written without a sign or leading zeros. */
export const EARN_RATE_PATTERN = /^(0|[1-9][0-9]{0,5})(\.[0-9]{1,2})?$/;

/** One category of a product: the merchant category codes it covers and what a purchase earns. */
export type RewardsCategory = {
  category_id: string;
  name: string;
  /** Four-digit codes; an empty list is the catch-all for purchases no other category covers. */
  merchant_category_codes: string[];
  /** Returned exactly as set (`"3"`, `"1.5"`). */
  earn_rate: string;
  earn_unit: EarnUnit;
};

/** The unit of a statement's rewards: points, or cash back in the statement's currency. */
export const POINTS = "POINTS";

/** What a statement's cycle earned, in total and per category, and what was redeemed and is held. */
export type StatementRewards = {
  /** `POINTS`, or the statement's currency (cash back, in its minor units). */
  unit: string;
  earned: number;
  redeemed?: number;
  balance?: number;
  by_category?: { category_id: string; earned: number }[];
};

const Category = z.strictObject({
  category_id: id,
  name: readableText(MAX_CATEGORY_NAME),
  merchant_category_codes: z
    .array(z.string().regex(MCC_PATTERN, "must be a 4-digit merchant category code"))
    .max(1000),
  earn_rate: z
    .string()
    .regex(EARN_RATE_PATTERN, 'must be a decimal string such as "3" or "1.5" (up to 2 decimals)')
    .refine((rate) => Number(rate) > 0, "must be more than 0"),
  earn_unit: z.enum(EARN_UNITS),
});

/**
 * A product's categories, in the product's order: each id once, each code in one category at
 * most, all earning in one unit (a statement's rewards are counted in one), at most 50.
 */
export const RewardsCategories = z
  .array(Category)
  .max(MAX_REWARDS_CATEGORIES)
  .superRefine((categories, ctx) => {
    const ids = new Map<string, number>();
    const codes = new Map<string, string>();
    categories.forEach((category, i) => {
      const earlier = ids.get(category.category_id);
      if (earlier !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [i, "category_id"],
          message: `repeats [${earlier}]: a category id is unique in its product`,
        });
      } else ids.set(category.category_id, i);
      category.merchant_category_codes.forEach((code, j) => {
        const holder = codes.get(code);
        if (holder === undefined) codes.set(code, category.category_id);
        else {
          ctx.addIssue({
            code: "custom",
            path: [i, "merchant_category_codes", j],
            message:
              holder === category.category_id
                ? `repeats ${code} in this category`
                : `${code} is already in category ${JSON.stringify(holder)}: a code belongs to ` +
                  "one category at most",
          });
        }
      });
      const first = categories[0];
      if (first !== undefined && category.earn_unit !== first.earn_unit) {
        ctx.addIssue({
          code: "custom",
          path: [i, "earn_unit"],
          message:
            `must be ${first.earn_unit}, as the first category's: a product's categories earn ` +
            "in one unit",
        });
      }
    });
  });

const nonNegative = amount.refine((v) => v >= 0, "must not be negative");

/**
 * A statement's rewards as the operator sends them. `earned` may be negative (returns took back
 * more than the cycle earned); what was redeemed and the balance held never are.
 */
export const StatementRewardsItem = z
  .strictObject({
    unit: z
      .string()
      .regex(/^(POINTS|[A-Z]{3})$/, "must be POINTS or a currency code (cash back) such as USD"),
    earned: amount,
    redeemed: nonNegative.optional(),
    balance: nonNegative.optional(),
    by_category: z
      .array(z.strictObject({ category_id: id, earned: amount }))
      .max(MAX_REWARDS_CATEGORIES)
      .optional(),
  })
  .superRefine((rewards, ctx) => {
    const parts = rewards.by_category;
    if (parts === undefined) return;
    const seen = new Map<string, number>();
    parts.forEach((part, i) => {
      const earlier = seen.get(part.category_id);
      if (earlier !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["by_category", i, "category_id"],
          message: `repeats by_category[${earlier}]: each category is listed once`,
        });
      } else seen.set(part.category_id, i);
    });
    const sum = parts.reduce((n, part) => n + BigInt(part.earned), 0n);
    if (sum !== BigInt(rewards.earned)) {
      ctx.addIssue({
        code: "custom",
        path: ["by_category"],
        message:
          `earned sums to ${sum} but the statement's rewards earned ${rewards.earned}: a ` +
          `difference of ${BigInt(rewards.earned) - sum}`,
      });
    }
  });

/** Why a statement's rewards cannot be in `unit` for a statement in `currency`, or null. */
export function rewardsUnitProblem(unit: string, currency: string | undefined): string | null {
  if (unit === POINTS || unit === currency) return null;
  return currency === undefined
    ? `is ${unit}, but the statement has no currency: cash back is in the statement's currency`
    : `must be POINTS or the statement's currency (${currency}), not ${unit}`;
}

/** The categories of `rewards` that are not among `known`, with their index in `by_category`. */
export function unknownCategories(
  rewards: StatementRewards,
  known: ReadonlySet<string>,
): { index: number; categoryId: string }[] {
  return (rewards.by_category ?? []).flatMap((part, index) =>
    known.has(part.category_id) ? [] : [{ index, categoryId: part.category_id }],
  );
}

/** The purchase a category earns on: what was paid, in minor units, and the merchant's code. */
export interface EarningPurchase {
  amount: number;
  categoryCode: string | null;
}

/**
 * What purchases earn under `categories`: each purchase in the category holding its code, else in
 * the catch-all (the first category without codes), else nothing. Points are whole points per
 * major unit spent, cash back minor units, each rounded down per category. Null when the product
 * has no categories.
 */
export function computeRewards(
  categories: readonly RewardsCategory[],
  purchases: readonly EarningPurchase[],
  currency: string,
  exponent: number,
): StatementRewards | null {
  const first = categories[0];
  if (first === undefined) return null;
  const byCode = new Map<string, RewardsCategory>();
  for (const category of categories) {
    for (const code of category.merchant_category_codes) byCode.set(code, category);
  }
  const catchAll = categories.find((c) => c.merchant_category_codes.length === 0);
  const spent = new Map<string, number>();
  for (const purchase of purchases) {
    const category =
      (purchase.categoryCode === null ? undefined : byCode.get(purchase.categoryCode)) ?? catchAll;
    if (!category) continue;
    spent.set(category.category_id, (spent.get(category.category_id) ?? 0) + purchase.amount);
  }
  // Rates have at most two decimals: hundredths keep the arithmetic in integers.
  const scale = 10 ** exponent;
  const byCategory = categories.flatMap((category) => {
    const minor = spent.get(category.category_id);
    if (minor === undefined) return [];
    const hundredths = Math.round(Number(category.earn_rate) * 100);
    const earned =
      category.earn_unit === "POINTS_PER_DOLLAR"
        ? Math.floor((minor * hundredths) / (100 * scale))
        : Math.floor((minor * hundredths) / 10_000);
    return [{ category_id: category.category_id, earned }];
  });
  return {
    unit: first.earn_unit === "POINTS_PER_DOLLAR" ? POINTS : currency,
    earned: byCategory.reduce((n, part) => n + part.earned, 0),
    by_category: byCategory,
  };
}
