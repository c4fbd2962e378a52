// What the customers pages share: the audit of a production data view, amounts as a reader
// reads them, and a fact of an object that may be absent.
import type { Context } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";

/**
 * Writes the view of production customers' data to the audit log, before the data is read: no
 * production data is shown without its audit row. Sandbox views are not audited.
 */
export async function auditDataView(
  c: Context<AppEnv>,
  page: "customers" | "customer" | "account" | "statement",
  target: string,
): Promise<void> {
  const environment = c.var.environment;
  if (environment !== "production") return;
  const { user } = c.var.session;
  await atomically(c.get("db"), [
    auditInsert(
      user.partnerId,
      userActor(c, user),
      { action: "customer_data.viewed", environment, target, details: { page } },
      c.get("now")(),
    ),
  ]);
}

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
