// The budgets in D1: conditions a sandbox write's own batch checks (so that two writes racing
// cannot both pass room only one has), the count of what the write made, added in the same batch
// and only when the write happened, and the read that says which budget refused a write. A check
// reads the partner's usage of the expiry window by its primary key (91 rows at most) and the
// shard's one measured size: no round trip of its own when it rides in a write's batch, one when a
// route charges it before its write (chargeBudget).
import { type SQL, sql } from "drizzle-orm";
import { atomically, returnedValue } from "../db/batch";
import type { Database } from "../db/client";
import { type BudgetName, SANDBOX_BUDGETS, SHARD_THRESHOLD_BYTES } from "./budgets";

/** Sandbox data lives this many days (its expiry): the rows-held budget's window. */
export const SANDBOX_EXPIRY_DAYS = 90;

/** Whose usage, and when: the partner and the instant of the write. */
export interface Budgeted {
  partnerId: string;
  now: Date;
}

/** What a write adds to its partner's usage. */
export interface SandboxCharge {
  statements?: number;
  lineItems?: number;
  rows: number;
}

/** The UTC day of `now`, as the usage counts it. */
export function usageDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The first day the rows-held budget counts: rows made before it have expired. */
export function windowStart(now: Date): string {
  return usageDay(new Date(now.getTime() - SANDBOX_EXPIRY_DAYS * 86_400_000));
}

function rowsHeld(b: Budgeted): SQL {
  return sql`(SELECT coalesce(sum(rows), 0) FROM sandbox_usage
    WHERE partner_id = ${b.partnerId} AND day >= ${windowStart(b.now)})`;
}

function lineItemsToday(b: Budgeted): SQL {
  return sql`coalesce((SELECT line_items FROM sandbox_usage
    WHERE partner_id = ${b.partnerId} AND day = ${usageDay(b.now)}), 0)`;
}

/** The statements the partner's simulations closed today: the daily quota's count. */
export function statementsToday(b: Budgeted): SQL {
  return sql`coalesce((SELECT statements FROM sandbox_usage
    WHERE partner_id = ${b.partnerId} AND day = ${usageDay(b.now)}), 0)`;
}

const SHARD_BYTES = sql`coalesce((SELECT bytes FROM shard_size WHERE id = 1), 0)`;

/** SQL true when `charge` fits every budget of the partner, and its shard is below its guard. */
export function budgetRoom(b: Budgeted, charge: SandboxCharge): SQL {
  return sql`(${rowsHeld(b)} + ${charge.rows} <= ${SANDBOX_BUDGETS.rowsHeld}
    AND ${lineItemsToday(b)} + ${charge.lineItems ?? 0} <= ${SANDBOX_BUDGETS.lineItemsPerDay}
    AND ${SHARD_BYTES} < ${SHARD_THRESHOLD_BYTES})`;
}

/** Adds `charge` to the partner's day, when `done` holds (the write it counts happened). */
export function countUsage(b: Budgeted, charge: SandboxCharge, done: SQL): SQL {
  return sql`INSERT INTO sandbox_usage (partner_id, day, statements, line_items, rows)
    SELECT ${b.partnerId}, ${usageDay(b.now)}, ${charge.statements ?? 0},
      ${charge.lineItems ?? 0}, ${charge.rows} WHERE ${done}
    ON CONFLICT (partner_id, day) DO UPDATE SET statements = statements + excluded.statements,
      line_items = line_items + excluded.line_items, rows = rows + excluded.rows`;
}

/** What the budgets read, as one row: to say which one refused a write. */
export function usageState(b: Budgeted): SQL {
  return sql`SELECT ${rowsHeld(b)} AS rows_held, ${lineItemsToday(b)} AS line_items_today,
    ${statementsToday(b)} AS statements_today, ${SHARD_BYTES} AS shard_bytes`;
}

/** The usage a write saw, read from `usageState`'s result. */
export interface UsageState {
  rowsHeld: number;
  lineItemsToday: number;
  statementsToday: number;
  shardBytes: number;
}

/** `usageState`'s row; zeros when there is none. */
export function stateOf(result: D1Result | undefined): UsageState {
  const read = (name: string): number => {
    const value = returnedValue(result, name);
    return typeof value === "number" ? value : 0;
  };
  return {
    rowsHeld: read("rows_held"),
    lineItemsToday: read("line_items_today"),
    statementsToday: read("statements_today"),
    shardBytes: read("shard_bytes"),
  };
}

/** The budget that has no room for `charge` in `state`, the shard's guard first; null: none. */
export function refusedBy(state: UsageState, charge: SandboxCharge): BudgetName | null {
  if (state.shardBytes >= SHARD_THRESHOLD_BYTES) return "sandbox_shard_capacity";
  if (state.rowsHeld + charge.rows > SANDBOX_BUDGETS.rowsHeld) return "sandbox_rows_held";
  if (state.lineItemsToday + (charge.lineItems ?? 0) > SANDBOX_BUDGETS.lineItemsPerDay) {
    return "sandbox_line_items_per_day";
  }
  return null;
}

/**
 * One round trip, before a write: counts `charge` against the partner's budgets unless one has no
 * room for it; answers the budget that refused it, or null when it was counted. A write refused
 * after this (a conflict) keeps its count: the budgets count what was attempted, never less.
 */
export async function chargeBudget(
  db: Database,
  b: Budgeted,
  charge: SandboxCharge,
): Promise<BudgetName | null> {
  const [counted, state] = await atomically(db, [
    countUsage(b, charge, budgetRoom(b, charge)),
    usageState(b),
  ]);
  if ((counted?.meta.changes ?? 0) > 0) return null;
  // The read saw what the insert's condition saw (one transaction): one budget had no room.
  return refusedBy(stateOf(state), charge) ?? "sandbox_rows_held";
}

/**
 * Gives back the rows counted on days before `before`'s day: an Admin's reset deleted the sandbox
 * data made before it.
 */
export function releaseRowsBefore(partnerId: string, before: Date): SQL {
  return sql`UPDATE sandbox_usage SET rows = 0
    WHERE partner_id = ${partnerId} AND day < ${usageDay(before)}`;
}
