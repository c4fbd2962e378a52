// The sandbox's volume budgets: what one partner's sandbox may write and hold, counted in line
// items and rows rather than in statements (a statement of 1,000 line items weighs a thousand of
// one), and the shard's guard, which stops every sandbox write on a shard near its capacity
// before production writes there can fail. They bound partner-key writes in sandbox only (the
// simulations, orders, order events and transaction intents); production keys and the operator's
// imports never meet them. docs/scale.md gives the arithmetic; the reference states each number.
import { ApiError, invalidRequest } from "../app/errors";

/** D1's largest database (10 GB, counted here in decimal bytes: the lower reading). */
export const SHARD_CAPACITY_BYTES = 10_000_000_000;

/** The sandbox's volume budgets. */
export const SANDBOX_BUDGETS = {
  /** Line items one simulated statement may carry (an imported one: 1,000). */
  lineItemsPerStatement: 100,
  /** Line items a partner's simulated statements may carry per UTC day, all together. */
  lineItemsPerDay: 10_000,
  /**
   * Rows a partner's sandbox writes may hold: every row they made in the expiry window (sandbox
   * data expires after it), statements, line items, customers and accounts, cards, orders, order
   * events and intents alike.
   */
  rowsHeld: 100_000,
  /** The share of its capacity past which a shard refuses sandbox writes. */
  shardThreshold: 0.8,
  /** How long a refused write is asked to wait at most, in seconds. */
  retryAfterSeconds: 60,
} as const;

/** The size past which a shard refuses sandbox writes, in bytes. */
export const SHARD_THRESHOLD_BYTES = SHARD_CAPACITY_BYTES * SANDBOX_BUDGETS.shardThreshold;

/** The budgets a write can be refused by, by the name its refusal gives. */
export type BudgetName =
  | "sandbox_line_items_per_day"
  | "sandbox_rows_held"
  | "sandbox_shard_capacity";

/** The start of the UTC day after `now`. */
export function nextDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** Seconds from `now` to `then`, at least 1. */
function secondsUntil(now: Date, then: Date): number {
  return Math.max(1, Math.ceil((then.getTime() - now.getTime()) / 1000));
}

/**
 * 429 for a write a budget has no room for, naming the budget. `Retry-After` is a minute at most,
 * whenever the budget frees: no client or proxy parks its requests for hours on a sandbox, and
 * the message says when the room comes back.
 */
export function budgetExceeded(budget: BudgetName, now: Date): ApiError {
  const wait = String(SANDBOX_BUDGETS.retryAfterSeconds);
  const headers: Record<string, string> = { "Retry-After": wait };
  let message: string;
  switch (budget) {
    case "sandbox_line_items_per_day": {
      const resets = nextDay(now);
      const limit = SANDBOX_BUDGETS.lineItemsPerDay;
      message =
        `a partner's simulated statements carry at most ${limit} line items per day (UTC); ` +
        `it resets at ${resets.toISOString()}.`;
      headers["RateLimit-Policy"] = `"sandbox-line-items";q=${limit};w=86400`;
      headers.RateLimit = `"sandbox-line-items";r=0;t=${secondsUntil(now, resets)}`;
      break;
    }
    case "sandbox_rows_held":
      message =
        `a partner's sandbox writes hold at most ${SANDBOX_BUDGETS.rowsHeld} rows made in the ` +
        "last 90 days; an Admin can reset sandbox data from the dashboard (Sandbox simulations).";
      break;
    case "sandbox_shard_capacity":
      message =
        "the storage this sandbox shares is nearly full, and sandbox writes wait so that " +
        "production writes do not fail; the operator is adding room.";
      break;
  }
  return new ApiError(
    "RATE_LIMITED_ERROR",
    `Sandbox budget reached (${budget}): ${message} Retry after ${wait} seconds.`,
    { headers },
  );
}

/** 400 for a simulated statement with more line items than a simulated statement may carry. */
export function tooManyLineItems(sent: number): ApiError {
  return invalidRequest(
    [
      `Sandbox budget reached (sandbox_line_items_per_statement): a simulated statement carries ` +
        `at most ${SANDBOX_BUDGETS.lineItemsPerStatement} line items (${sent} sent); an imported ` +
        "one, more.",
    ],
    "line_items",
  );
}
