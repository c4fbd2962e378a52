// How a line item's row reads in the document, written out independently of the renderer: its
// transaction and posting dates, description, where it was made, foreign amount and amount.
import { expect } from "vitest";
import type { LineItem } from "../src/statement-document";

/** Dollars as the document writes them: "$1,234.56", "-$500.00". */
export const usd = (minor: number) => {
  const dollars = (Math.abs(minor) / 100).toLocaleString("en-US", { minimumFractionDigits: 2 });
  return `${minor < 0 ? "-" : ""}$${dollars}`;
};

/** "Sep 5" for any September 2026 timestamp or date of the samples. */
const september = (timestamp: string) => {
  expect(timestamp.slice(0, 8)).toBe("2026-09-");
  return `Sep ${Number(timestamp.slice(8, 10))}`;
};

const FOREIGN_DIGITS: Record<string, number> = { EUR: 2, GBP: 2, JPY: 0 };

/** A line item's row as the document reads: dates, description, where, foreign amount, amount. */
export function rowText(item: LineItem, foreignColumn: boolean): string {
  const where = item.merchant
    ? [
        ...(item.merchant.name === item.description ? [] : [item.merchant.name]),
        [item.merchant.city, item.merchant.country].filter(Boolean).join(", "),
      ]
    : [];
  const detail = [...where, ...(item.card_last4 ? [`Card ending ${item.card_last4}`] : [])];
  const currency = item.original_currency ?? "";
  const digits = FOREIGN_DIGITS[currency] ?? 2;
  const foreign =
    item.original_amount === undefined
      ? []
      : [
          `${currency} ${(item.original_amount / 10 ** digits).toLocaleString("en-US", {
            minimumFractionDigits: digits,
          })}`,
        ];
  return [
    ...(item.transaction_date ? [september(item.transaction_date)] : []),
    september(item.posted_at),
    item.description,
    ...(detail.length > 0 ? [detail.join(" · ")] : []),
    ...(foreignColumn ? foreign : []),
    usd(item.amount),
  ].join(" ");
}
