// The saved API version's history, and the rule for rolling a change back.

/** A change of a partner's saved version in one environment. */
export interface SavedVersionChange {
  id: number;
  fromVersion: string;
  toVersion: string;
  /** A `rollback` undoes the change before it and cannot itself be rolled back. */
  kind: "change" | "rollback";
  changedAt: string;
}

/** A change can be rolled back for this long. */
export const ROLLBACK_WINDOW_MS = 72 * 3_600_000;

/**
 * The change that may be rolled back now: the newest one, if it is a change (not a rollback),
 * made less than 72 hours ago, and still in force.
 */
export function rollbackCandidate(
  saved: string,
  history: readonly SavedVersionChange[],
  now: Date,
): SavedVersionChange | null {
  const newest = history[0];
  if (newest?.kind !== "change" || newest.toVersion !== saved) return null;
  const age = now.getTime() - Date.parse(newest.changedAt);
  return age < ROLLBACK_WINDOW_MS ? newest : null;
}

/** When the rollback window of `change` closes. */
export function rollbackDeadline(change: SavedVersionChange): Date {
  return new Date(Date.parse(change.changedAt) + ROLLBACK_WINDOW_MS);
}
