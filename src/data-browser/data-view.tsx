// What the customers pages share: amounts as a reader reads them, and a fact of an object that
// may be absent. (The audit of a production data view is the dashboard's: dashboard/data-audit.ts.)
const formats = new Map<string, Intl.NumberFormat | null>();

/** A formatter for the currency, or null when the code is not one Intl knows. */
function formatOf(currency: string): Intl.NumberFormat | null {
  let format = formats.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat("en-US", { style: "currency", currency });
    } catch {
      format = null;
    }
    formats.set(currency, format);
  }
  return format;
}

/**
 * An amount in minor units as money (`$1,234.56`), its integer as the API sends it alongside;
 * `—` when absent.
 */
export function Money(props: { amount: number | undefined; currency: string | undefined }) {
  if (props.amount === undefined) return <span class="muted">—</span>;
  const format = props.currency === undefined ? null : formatOf(props.currency);
  if (!format) return <data value={props.amount}>{props.amount.toLocaleString("en")}</data>;
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return <data value={props.amount}>{format.format(props.amount / 10 ** digits)}</data>;
}

/** A text fact, `—` when absent. */
export function Fact({ value }: { value: string | undefined | null }) {
  if (value === undefined || value === null) return <span class="muted">—</span>;
  return value;
}

/** A timestamp's day (`YYYY-MM-DD`), `—` when absent. */
export function Day({ at }: { at: string | undefined }) {
  return at === undefined ? (
    <span class="muted">—</span>
  ) : (
    <time datetime={at}>{at.slice(0, 10)}</time>
  );
}
