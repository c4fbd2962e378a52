// What may restart an endpoint's deliveries by hand, and how often: a recovery, a re-send and an
// enable each cost its endpoint one use of an hourly budget, so that no key holder can keep a
// failing receiver (and the shard its partner shares) busy by calling them in a loop. The budget
// lives on the endpoint's row: when its current hour began and the uses of each kind in it,
// taken in the same batch as the change they pay for. A delivery's attempts are capped whatever
// restarts it, so an event is never attempted without end.
import { type SQL, sql } from "drizzle-orm";
import { ApiError } from "../app/errors";
import { webhookEndpoints } from "./schema";

/** What draws on an endpoint's budget. */
export type BudgetedAction = "recover" | "resend" | "enable";

/** Uses of each kind an endpoint has per hour, counted from the first of its hour. */
export const ENDPOINT_BUDGET = { recover: 6, resend: 60, enable: 6 } as const;

/** The hour a budget lasts, in seconds. */
export const BUDGET_WINDOW_SECONDS = 3600;

/**
 * The most attempts one event gets to one endpoint in all: a three-day retry cycle takes 17 to 23
 * (by the jitter), which leaves the rest to re-sends and recoveries.
 */
export const MAX_DELIVERY_ATTEMPTS = 40;

/** The budget's column of each kind, by its SQL name. */
const COLUMN: Record<BudgetedAction, string> = {
  recover: "budget_recoveries",
  resend: "budget_resends",
  enable: "budget_enables",
};

/** The policy's name in `RateLimit-Policy`, per kind. */
const POLICY: Record<BudgetedAction, string> = {
  recover: "webhook-endpoint-recoveries",
  resend: "webhook-endpoint-resends",
  enable: "webhook-endpoint-enables",
};

/** What an endpoint's budget holds, as its row stores it. */
export interface BudgetState {
  budgetSince: string | null;
  budgetRecoveries: number;
  budgetResends: number;
  budgetEnables: number;
}

/** The columns of the budget, for a select. */
export const BUDGET_COLUMNS = {
  budgetSince: webhookEndpoints.budgetSince,
  budgetRecoveries: webhookEndpoints.budgetRecoveries,
  budgetResends: webhookEndpoints.budgetResends,
  budgetEnables: webhookEndpoints.budgetEnables,
};

/** The instant an hour that began before it has ended by `now`. */
function hourAgo(now: Date): string {
  return new Date(now.getTime() - BUDGET_WINDOW_SECONDS * 1000).toISOString();
}

/** SQL over the endpoint row `w` (an alias, or the table's name): its hour is over by `now`. */
function hourOver(w: string, now: Date): SQL {
  const since = sql.raw(`${w}.budget_since`);
  return sql`(${since} IS NULL OR ${since} <= ${hourAgo(now)})`;
}

/** SQL over the endpoint row `w`: one more `action` fits in its budget at `now`. */
export function budgetRoom(action: BudgetedAction, now: Date, w = "webhook_endpoints"): SQL {
  const used = sql.raw(`${w}.${COLUMN[action]}`);
  return sql`(${hourOver(w, now)} OR ${used} < ${ENDPOINT_BUDGET[action]})`;
}

/**
 * The endpoint row's budget once one `action` is taken at `now` (a new hour begins with it when
 * the last one is over): for an UPDATE of `webhook_endpoints`, under `budgetRoom`.
 */
export function takeBudget(action: BudgetedAction, now: Date) {
  const over = hourOver("webhook_endpoints", now);
  const count = (kind: BudgetedAction) => {
    const column = sql.raw(COLUMN[kind]);
    return kind === action
      ? sql`CASE WHEN ${over} THEN 1 ELSE ${column} + 1 END`
      : sql`CASE WHEN ${over} THEN 0 ELSE ${column} END`;
  };
  return {
    budgetSince: sql`CASE WHEN ${over} THEN ${now.toISOString()} ELSE budget_since END`,
    budgetRecoveries: count("recover"),
    budgetResends: count("resend"),
    budgetEnables: count("enable"),
  };
}

/** Seconds until one more `action` fits in the budget `state` at `now`; 0 when it fits now. */
export function budgetWait(state: BudgetState, action: BudgetedAction, now: Date): number {
  if (state.budgetSince === null || state.budgetSince <= hourAgo(now)) return 0;
  const used = {
    recover: state.budgetRecoveries,
    resend: state.budgetResends,
    enable: state.budgetEnables,
  }[action];
  if (used < ENDPOINT_BUDGET[action]) return 0;
  const ends = Date.parse(state.budgetSince) + BUDGET_WINDOW_SECONDS * 1000;
  return Math.max(1, Math.ceil((ends - now.getTime()) / 1000));
}

const WHAT: Record<BudgetedAction, string> = {
  recover: "recoveries",
  resend: "re-sends",
  enable: "enables",
};

/**
 * 429 for an endpoint whose budget of `action` is spent for `wait` more seconds, with
 * `Retry-After` and the RateLimit fields, as the service's rate limits answer.
 */
export function budgetSpent(endpointId: string, action: BudgetedAction, wait: number): ApiError {
  const limit = ENDPOINT_BUDGET[action];
  const name = POLICY[action];
  return new ApiError(
    "RATE_LIMITED_ERROR",
    `Too many ${WHAT[action]} of webhook endpoint ${endpointId}: an endpoint takes at most ` +
      `${limit} an hour. Retry after ${wait} seconds.`,
    {
      param: "webhook_endpoint_id",
      headers: {
        "Retry-After": String(wait),
        "RateLimit-Policy": `"${name}";q=${limit};w=${BUDGET_WINDOW_SECONDS}`,
        RateLimit: `"${name}";r=0;t=${wait}`,
      },
    },
  );
}
