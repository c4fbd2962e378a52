// How far a partner's sandbox reaches: its own, lower rate limit on simulations, a cap on its
// customers and on the statements its simulations close per day, and how long its data lives.
// Each simulation makes rows, a document render and up to two webhook events per endpoint: these
// bounds keep one sandbox from costing what production partners depend on. The reference states
// every number (src/simulations/reference.ts).
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { rateLimited, withinLimit } from "../app/rate-limit";
import { API_POLICIES, policyField, RATE_LIMITS } from "../app/rate-policies";
import { nextDay, SANDBOX_BUDGETS, SANDBOX_EXPIRY_DAYS } from "../sandbox-budgets";

/** The sandbox's numbers. */
export const SANDBOX_LIMITS = {
  /** Simulations per partner per minute, API and dashboard together (SIMULATION_RATE_LIMITER). */
  simulationsPerMinute: RATE_LIMITS.simulation.limit,
  /** Sandbox customers a partner may hold, whoever made them (simulations refuse more). */
  customers: 1000,
  /** Statements a partner's simulations may close per UTC day. */
  statementsPerDay: 500,
  /** Sandbox customers expire, with everything of theirs, this many days after they were made. */
  expiryDays: SANDBOX_EXPIRY_DAYS,
  /** The youngest data a reset from the dashboard may delete, in hours. */
  resetMinAgeHours: 1,
} as const;

/** The ages a reset offers: data made longer ago than this goes (hours). */
export const RESET_AGES_HOURS = [1, 24, 7 * 24, 30 * 24] as const;

/** The simulation rate limit's policy, as the responses of simulations report it. */
const SIMULATION_POLICY = RATE_LIMITS.simulation;

/** The daily statement quota as a RateLimit policy (its window: a day). */
const STATEMENTS_POLICY = { name: "sandbox-statements", window: 86_400 };

/**
 * Counts one simulation against the partner's simulation rate limit (API and dashboard alike):
 * 429 once over it. A response of the API names the policy among its own.
 */
export async function limitSimulations(c: Context<AppEnv>, partnerId: string): Promise<void> {
  if (!(await withinLimit(c.env, SIMULATION_POLICY, `${partnerId}:sandbox`))) {
    throw rateLimited(SIMULATION_POLICY);
  }
  if (c.req.path.startsWith("/v2/")) {
    c.header("RateLimit-Policy", `${API_POLICIES}, ${policyField(SIMULATION_POLICY)}`);
  }
}

/** 400 for a customer the sandbox has no room for. */
export function customerQuotaReached(): ApiError {
  return invalidRequest([
    `Sandbox quota reached (sandbox_customers): a partner's sandbox holds at most ` +
      `${SANDBOX_LIMITS.customers} customers. An Admin can reset sandbox data from the ` +
      `dashboard (Sandbox simulations), and sandbox customers expire ` +
      `${SANDBOX_LIMITS.expiryDays} days after they were made.`,
  ]);
}

/**
 * 429 for a statement over the day's quota, with when it resets: `RateLimit` says how long until
 * then, `Retry-After` a minute at most, as every sandbox budget's refusal.
 */
export function statementQuotaReached(now: Date): ApiError {
  const resets = nextDay(now);
  const untilReset = Math.max(1, Math.ceil((resets.getTime() - now.getTime()) / 1000));
  const wait = String(Math.min(untilReset, SANDBOX_BUDGETS.retryAfterSeconds));
  const { name, window } = STATEMENTS_POLICY;
  return new ApiError(
    "RATE_LIMITED_ERROR",
    `Sandbox quota reached (sandbox_statements_per_day): a partner's simulations close at most ` +
      `${SANDBOX_LIMITS.statementsPerDay} statements per day (UTC). The quota resets at ` +
      `${resets.toISOString()}; retry after ${wait} seconds.`,
    {
      headers: {
        "Retry-After": wait,
        "RateLimit-Policy": `"${name}";q=${SANDBOX_LIMITS.statementsPerDay};w=${window}`,
        RateLimit: `"${name}";r=0;t=${untilReset}`,
      },
    },
  );
}
