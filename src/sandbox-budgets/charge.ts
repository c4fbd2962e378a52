// The budget check of a route that writes one row in sandbox (an order, an order event, an
// intent, a test card): one round trip before its write, for a sandbox key only.
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { budgetExceeded } from "./budgets";
import { chargeBudget } from "./usage";

/**
 * Counts `rows` rows against the caller's sandbox budgets, or answers 429 naming the budget with
 * no room for them. A production key is never counted and costs nothing.
 *
 * @example
 * await chargeSandboxBudget(c, 1); // before the write of one order
 */
export async function chargeSandboxBudget(c: Context<AppEnv>, rows: number): Promise<void> {
  const { environment, partnerId } = c.get("caller");
  if (environment !== "sandbox") return;
  const now = c.get("now")();
  const refused = await chargeBudget(c.get("db"), { partnerId, now }, { rows });
  if (refused) throw budgetExceeded(refused, now);
}
