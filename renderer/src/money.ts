// Amounts as a statement shows them: integers in the currency's minor unit, scaled by its ISO 4217
// exponent (USD 2, JPY 0, KWD 3) and written the way an en-US reader expects ("$1,234.56",
// "¥12,345", "KWD 1.234"). ICU's own digits differ from ISO 4217 for a few currencies (IQD: 0 in
// ICU, 3 in ISO), so the exponent comes from the ISO table and ICU only writes the result.
import { code as iso4217 } from "currency-codes";

/** The exponent when the currency is absent or not in ISO 4217. */
const FALLBACK_DIGITS = 2;

export interface AmountFormat {
  /** The ISO 4217 code, when the statement has a well-formed one. */
  currency?: string;
  /** Decimal places: the currency's minor units. */
  digits: number;
  /** The currency's English name and code ("US Dollar (USD)"), or undefined without currency. */
  description?: string;
  format(amount: number): string;
  /** Rounded to whole units of the currency, as estimates are shown: "$4,745". */
  whole(amount: number): string;
}

/**
 * How amounts in `currency` are written. An unknown code keeps 2 decimals and shows its code;
 * `display: "code"` writes every currency by its code ("EUR 45.00"), as foreign amounts are.
 */
export function amountFormat(
  currency: string | undefined,
  display: "symbol" | "code" = "symbol",
): AmountFormat {
  const code = currency !== undefined && /^[A-Z]{3}$/.test(currency) ? currency : undefined;
  const digits = (code === undefined ? undefined : iso4217(code)?.digits) ?? FALLBACK_DIGITS;
  const style = code
    ? ({ style: "currency", currency: code, currencyDisplay: display } as const)
    : ({} as const);
  const number = new Intl.NumberFormat("en-US", {
    ...style,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  const wholeNumber = new Intl.NumberFormat("en-US", {
    ...style,
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  });
  const unit = 10 ** digits;
  const name = code && new Intl.DisplayNames("en-US", { type: "currency" }).of(code);
  return {
    ...(code
      ? { currency: code, description: name && name !== code ? `${name} (${code})` : code }
      : {}),
    digits,
    format: (amount) => number.format(amount / unit),
    whole: (amount) => wholeNumber.format(Math.round(amount / unit)),
  };
}
