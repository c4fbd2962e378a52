// The budget check of a route that writes one row in sandbox (an order, an intent, a test card):
// one round trip before its write, for a sandbox key only (an order event's rides in its own
// batch: src/orders/order-event-store.ts). A row counts by its weight: once per kilobyte begun of
// the body it stores, so that an order of 100 lines with long product links weighs what it holds,
// not one row.
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { budgetExceeded } from "./budgets";
import { chargeBudget } from "./usage";

/** The bytes one row of the rows-held budget stands for: a larger row counts once per these. */
export const ROW_WEIGHT_BYTES = 1024;

/** The rows a row storing `body` counts as: one per ROW_WEIGHT_BYTES begun of its JSON. */
export function rowWeight(body: unknown): number {
  const bytes = new TextEncoder().encode(JSON.stringify(body) ?? "").byteLength;
  return Math.max(1, Math.ceil(bytes / ROW_WEIGHT_BYTES));
}

/**
 * Counts the row that will store `body` against the caller's sandbox budgets (by its weight), or
 * answers 429 naming the budget with no room for it. A production key is never counted and costs
 * nothing.
 *
 * @example
 * await chargeSandboxBudget(c, body); // before the write of one order
 */
export async function chargeSandboxBudget(c: Context<AppEnv>, body: unknown): Promise<void> {
  const { environment, partnerId } = c.get("caller");
  if (environment !== "sandbox") return;
  const now = c.get("now")();
  const rows = rowWeight(body);
  const refused = await chargeBudget(c.get("db"), { partnerId, now }, { rows });
  if (refused) throw budgetExceeded(refused, now);
}
