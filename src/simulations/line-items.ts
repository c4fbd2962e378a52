// The line items of a simulated cycle: made up for its activity (purchases at merchants with their
// category codes, one abroad; the payment; a refund or credit; the interest an APR charged on the
// balance carried; a late fee), each type summing exactly to its total, posted inside the cycle;
// or the ones a request gives, checked against the cycle.
import {
  LINE_ITEM_TOTALS,
  LINE_ITEM_TYPES,
  type LineItem,
  type Merchant,
} from "../domain/line-item";
import type { InterestRate } from "../domain/statement";

/** The lines of activity a cycle may record; a quiet line is omitted, never 0. */
export const ACTIVITY_FIELDS = [
  "purchases",
  "payments",
  "credits",
  "refunds",
  "interest",
  "fees",
] as const;
export type ActivityField = (typeof ACTIVITY_FIELDS)[number];

/** The APR a simulated cycle charges interest at on the balance it carries. */
const SIMULATED_APR = "24.99";
const MONTHLY_RATE = Number(SIMULATED_APR) / 100 / 12;

/** The interest a month at SIMULATED_APR charges on `balance`. */
export function interestOn(balance: number): number {
  return Math.max(1, Math.round(balance * MONTHLY_RATE));
}

/** The rate that charged `interest`, with the balance it applied to. */
export function ratesFor(interest: number, carried?: number): InterestRate[] {
  return [
    {
      balance_type: "PURCHASES",
      annual_percentage_rate: SIMULATED_APR,
      balance_subject_to_interest: carried ?? Math.round(interest / MONTHLY_RATE),
      interest,
    },
  ];
}

const MERCHANTS: readonly [Merchant, ...Merchant[]] = [
  { name: "Green Valley Grocers", category_code: "5411", city: "Portland", country: "US" },
  { name: "Harbor Coffee Roasters", category_code: "5814", city: "Portland", country: "US" },
  { name: "Metro Fuel", category_code: "5541", city: "Beaverton", country: "US" },
  { name: "Bistro Verde", category_code: "5812", city: "Portland", country: "US" },
  { name: "Corner Pharmacy", category_code: "5912", city: "Portland", country: "US" },
  { name: "Page Turner Books", category_code: "5942", city: "Seattle", country: "US" },
  { name: "City Rides", category_code: "4121", city: "Portland", country: "US" },
  { name: "StreamBox", category_code: "4899", country: "US" },
  { name: "Skyline Airlines", category_code: "4511", country: "US" },
];

/** A purchase abroad: charged in the account's currency, made in the merchant's. */
const ABROAD = {
  merchant: { name: "Hotel du Lac", category_code: "7011", city: "Geneva", country: "CH" },
  currency: "CHF",
  rate: 0.88,
};

const DAY_MS = 86_400_000;

const between = (random: () => number, low: number, high: number) =>
  low + Math.floor(random() * (high - low + 1));

/** `total` split into `parts` positive amounts (fewer when the total is smaller), in random shares. */
function split(total: number, parts: number, random: () => number): number[] {
  const count = Math.max(1, Math.min(parts, Math.abs(total)));
  const weights = Array.from({ length: count }, () => 1 + random() * 3);
  const sum = weights.reduce((a, b) => a + b, 0);
  const amounts = weights.map((w) => Math.trunc((total * w) / sum));
  const rest = total - amounts.reduce((a, b) => a + b, 0);
  amounts[0] = (amounts[0] ?? 0) + rest;
  // A zero share is moved onto the first, so every part is a real transaction.
  return amounts.filter((a, i) => a !== 0 || i === 0);
}

/**
 * Made-up line items for a cycle from `start` to `end` with `activity`: each type's items sum to
 * its total; ids `li_001`, … in posting order.
 */
export function madeUpLineItems(
  activity: Partial<Record<ActivityField, number>>,
  start: Date,
  end: Date,
  random: () => number,
): LineItem[] {
  const span = Math.max(1, Math.floor((end.getTime() - start.getTime()) / DAY_MS));
  // Noon of a day of the cycle, a few seconds apart so that postings of one day keep an order.
  const day = (n: number, second = 0) =>
    new Date(
      Math.min(
        start.getTime() + Math.min(n, span) * DAY_MS + 12 * 3600_000 + second * 1000,
        end.getTime(),
      ),
    ).toISOString();
  const items: Omit<LineItem, "line_item_id">[] = [];
  const purchases = activity.purchases ?? 0;
  if (purchases > 0) {
    const amounts = split(purchases, between(random, 3, 12), random);
    amounts.forEach((amount, i) => {
      const posted = between(random, 0, span);
      const postedAt = day(posted, i);
      const made = new Date(Date.parse(postedAt) - between(random, 0, 2) * DAY_MS);
      if (i === 1) {
        items.push({
          type: "PURCHASE",
          posted_at: postedAt,
          transaction_date: made.toISOString(),
          description: `${ABROAD.merchant.name.toUpperCase()} ${ABROAD.merchant.city.toUpperCase()}`,
          amount,
          merchant: ABROAD.merchant,
          original_amount: Math.max(1, Math.round(amount * ABROAD.rate)),
          original_currency: ABROAD.currency,
          card_last4: "4242",
        });
        return;
      }
      // `between` answers an index within the list: the fallback is never taken.
      const merchant = MERCHANTS[between(random, 0, MERCHANTS.length - 1)] ?? MERCHANTS[0];
      items.push({
        type: "PURCHASE",
        posted_at: postedAt,
        transaction_date: made.toISOString(),
        description: `${merchant.name.toUpperCase()}${merchant.city ? ` ${merchant.city.toUpperCase()}` : ""}`,
        amount,
        merchant,
        card_last4: "4242",
      });
    });
  }
  if (activity.payments) {
    items.push({
      type: "PAYMENT",
      posted_at: day(Math.floor(span / 2), 59),
      description: "PAYMENT - THANK YOU",
      amount: activity.payments,
    });
  }
  if (activity.refunds) {
    const merchant = MERCHANTS[0];
    items.push({
      type: "REFUND",
      posted_at: day(between(random, 0, span), 58),
      description: `${merchant.name.toUpperCase()} REFUND`,
      amount: activity.refunds,
      merchant,
    });
  }
  if (activity.credits) {
    items.push({
      type: "CREDIT",
      posted_at: day(between(random, 0, span), 57),
      description: "STATEMENT CREDIT",
      amount: activity.credits,
    });
  }
  if (activity.fees) {
    items.push({
      type: "FEE",
      posted_at: day(Math.min(span, 20), 56),
      description: "LATE PAYMENT FEE",
      amount: activity.fees,
    });
  }
  if (activity.interest) {
    items.push({
      type: "INTEREST",
      posted_at: end.toISOString(),
      description: `INTEREST CHARGE ON PURCHASES AT ${SIMULATED_APR}% APR`,
      amount: activity.interest,
    });
  }
  items.sort((a, b) => (a.posted_at < b.posted_at ? -1 : a.posted_at > b.posted_at ? 1 : 0));
  return items.map((item, i) => ({
    line_item_id: `li_${String(i + 1).padStart(3, "0")}`,
    ...item,
  }));
}

/** Per activity field, the sum of the line items of its type (only the types present). */
export function totalsOf(items: readonly LineItem[]): Partial<Record<ActivityField, number>> {
  const totals: Partial<Record<ActivityField, number>> = {};
  for (const type of LINE_ITEM_TYPES) {
    const ofType = items.filter((item) => item.type === type);
    if (ofType.length === 0) continue;
    const { total } = LINE_ITEM_TOTALS[type];
    totals[total] = ofType.reduce((n, item) => n + item.amount, 0);
  }
  return totals;
}
