// The sandbox's simulations, as the API routes (src/simulations/routes.ts) and the dashboard's
// sandbox page both run them: a customer with an open account, and a billing cycle closed on one
// of its accounts, whose statement then renders and announces itself like any other.
import type { Context } from "hono";
import type { AppEnv, Bindings } from "../app/context";
import { ApiError, accountNotFound, customerNotFound, invalidRequest } from "../app/errors";
import type { BodyOf } from "../canonical/schemas";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import { enqueueRenders } from "../documents";
import type { AccountRecord } from "../domain/account";
import type { CustomerRecord } from "../domain/customer";
import type { Environment } from "../domain/environment";
import { computeRewards, type RewardsCategory, type StatementRewards } from "../domain/rewards";
import type { StatementRecord } from "../domain/statement";
import { normaliseTimestamp } from "../domain/timestamp";
import {
  type BudgetName,
  budgetExceeded,
  SANDBOX_BUDGETS,
  tooManyLineItems,
} from "../sandbox-budgets";
import { enqueueDeliveries } from "../webhook-deliveries";
import {
  DEFAULT_CREDIT_LIMIT,
  DEFAULT_CURRENCY,
  type SimulateCustomerRequest,
  type SimulateStatementRequest,
} from "./api-schemas";
import { type ClosedCycle, type CycleRequest, closeCycle } from "./cycle";
import { customerQuotaReached, SANDBOX_LIMITS, statementQuotaReached } from "./quotas";
import { createCustomer, readCycleAccount, storeCycle } from "./store";

/** What a simulation runs with: the partner's database, the queues, the request and its clock. */
export interface SimulationDeps {
  db: Database;
  /** The shard `db` is: the messages of what a simulation creates name it. */
  shard: string;
  env: Bindings;
  requestId: string;
  now: Date;
}

/** A simulation's dependencies, from the request it runs in (the API's or the dashboard's). */
export function simulationDeps(c: Context<AppEnv>): SimulationDeps {
  return {
    db: c.get("db"),
    shard: c.get("shard"),
    env: c.env,
    requestId: c.get("requestId"),
    now: c.get("now")(),
  };
}

/** Where a simulation creates data: the sandbox of one partner's product. */
export type SandboxScope = ReadScope & { environment: Environment };

export type CustomerRequest = BodyOf<typeof SimulateCustomerRequest>;
export type StatementRequest = BodyOf<typeof SimulateStatementRequest>;

/**
 * A sandbox customer of the scope's product, with one open account; 400 once the sandbox holds
 * its quota of customers, 429 when a sandbox budget has no room for it.
 */
export async function createSandboxCustomer(
  deps: SimulationDeps,
  scope: SandboxScope,
  request: CustomerRequest,
): Promise<{ customer: CustomerRecord; accounts: AccountRecord[] }> {
  const created = await createCustomer(
    deps.db,
    scope,
    request.partner_customer_id ?? null,
    {
      currency: request.currency ?? DEFAULT_CURRENCY,
      creditLimit: request.credit_limit ?? DEFAULT_CREDIT_LIMIT,
    },
    deps.now,
    SANDBOX_LIMITS.customers,
  );
  if (!created.created) {
    throw created.refused === "sandbox_customers"
      ? customerQuotaReached()
      : budgetExceeded(created.refused, deps.now);
  }
  return { customer: created.customer, accounts: [created.account] };
}

export type StatementSimulation =
  | { kind: "created"; statement: Omit<StatementRecord, "hasPdf"> }
  | { kind: "customer_not_found" | "account_not_found" | "closed_meanwhile" }
  | { kind: "over_quota"; at: Date }
  | { kind: "over_budget"; budget: BudgetName; at: Date }
  | { kind: "too_many_line_items"; sent: number }
  | { kind: "invalid"; field: string; problem: string };

/**
 * The statement a simulation created, or the error its outcome answers: the same for the API
 * route and the dashboard's page.
 */
export function createdStatement(
  outcome: StatementSimulation,
  request: StatementRequest,
): Omit<StatementRecord, "hasPdf"> {
  switch (outcome.kind) {
    case "customer_not_found":
      throw customerNotFound(request.customer_id);
    case "account_not_found":
      throw accountNotFound(request.account_id);
    case "invalid":
      throw invalidRequest([outcome.problem], outcome.field);
    case "over_quota":
      throw statementQuotaReached(outcome.at);
    case "over_budget":
      throw budgetExceeded(outcome.budget, outcome.at);
    case "too_many_line_items":
      throw tooManyLineItems(outcome.sent);
    case "closed_meanwhile":
      throw new ApiError(
        "CONFLICT_ERROR",
        "Another cycle of this account closed meanwhile; send the request again.",
      );
    case "created":
      return outcome.statement;
  }
}

/**
 * What the cycle's purchases earned under the product's rewards categories, by their merchants'
 * category codes; none when the product has no categories, or pays cash back on an account
 * without a currency to pay it in.
 */
function cycleRewards(
  cycle: ClosedCycle,
  account: { currency: string | null; categories: RewardsCategory[] },
): StatementRewards | null {
  const cashBack = account.categories[0]?.earn_unit === "PERCENT_CASH_BACK";
  if (cashBack && account.currency === null) return null;
  const currency = account.currency ?? "USD";
  // The currency's minor units as ICU knows them: close enough for a sandbox's points.
  const exponent =
    new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  const purchases = cycle.line_items
    .filter((item) => item.type === "PURCHASE")
    .map((item) => ({ amount: item.amount, categoryCode: item.merchant?.category_code ?? null }));
  return computeRewards(account.categories, purchases, currency, exponent);
}

/**
 * Closes a cycle on the account, as `request` asks, after its newest statement: the statement is
 * stored with its event, then its webhook deliveries and its render are queued.
 */
export async function closeSandboxCycle(
  deps: SimulationDeps,
  scope: SandboxScope,
  request: StatementRequest,
): Promise<StatementSimulation> {
  const { customer_id: customerId, account_id: accountId, ...asked } = request;
  const found = await readCycleAccount(deps.db, scope, customerId, accountId);
  if (!found.customerFound) return { kind: "customer_not_found" };
  if (!found.account) return { kind: "account_not_found" };
  // Dates as they are stored: UTC with milliseconds (the schema checked they are RFC 3339).
  const { line_items: lineItems, ...figures } = asked;
  // A simulated statement carries fewer line items than an imported one may.
  if (lineItems !== undefined && lineItems.length > SANDBOX_BUDGETS.lineItemsPerStatement) {
    return { kind: "too_many_line_items", sent: lineItems.length };
  }
  const cycleRequest: CycleRequest = { ...figures };
  for (const field of ["period_end_date", "due_date"] as const) {
    const date = asked[field];
    if (date !== undefined) cycleRequest[field] = normaliseTimestamp(date) ?? date;
  }
  if (lineItems !== undefined) {
    const normal = (date: string) => normaliseTimestamp(date) ?? date;
    cycleRequest.line_items = lineItems.map(({ transaction_date, ...item }) => ({
      ...item,
      posted_at: normal(item.posted_at),
      ...(transaction_date === undefined ? {} : { transaction_date: normal(transaction_date) }),
    }));
  }
  const closed = closeCycle(cycleRequest, found.newest, deps.now);
  if (!closed.ok) return { kind: "invalid", field: closed.field, problem: closed.problem };
  const rewards = cycleRewards(closed.cycle, found.account);
  if (rewards) closed.cycle.rewards = rewards;
  const stored = await storeCycle(
    deps.db,
    deps.shard,
    scope,
    {
      customerId,
      accountId,
      currency: found.account.currency,
      cycle: closed.cycle,
      follows: found.newest,
    },
    deps.now,
    { max: SANDBOX_LIMITS.statementsPerDay },
  );
  if (!stored.stored) {
    switch (stored.refused) {
      case null:
        return { kind: "closed_meanwhile" };
      case "sandbox_statements_per_day":
        return { kind: "over_quota", at: deps.now };
      default:
        return { kind: "over_budget", budget: stored.refused, at: deps.now };
    }
  }
  await enqueueDeliveries(deps.env.WEBHOOK_DELIVERIES, stored.deliveries, deps.requestId);
  await enqueueRenders(deps.env, stored.renders, deps.requestId);
  return { kind: "created", statement: stored.statement };
}
