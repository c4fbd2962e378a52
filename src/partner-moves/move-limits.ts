// How long a move may keep its partner frozen. From the move's start until its switch the
// partner's writes answer 503 and its queued work (request logs, renders, deliveries) is sent
// again every 30 seconds (MOVE_DEFER_SECONDS) without spending attempts; a move left unfinished
// would keep both going. Past this limit the move is aborted: the partner takes writes again on
// its source shard, the copy is deleted, and the re-sends stop (at most one per 30 s for 6 hours,
// 720, per message).
import type { partnerMoves } from "../db/directory-schema";

/** A move's row, as the directory stores it. */
type MoveRow = typeof partnerMoves.$inferSelect;

/** How long a move may keep its partner frozen before it is aborted. */
export const MAX_FROZEN_MS = 6 * 60 * 60 * 1000;

/** The limit in words, as the move's error and the alert state it. */
export const MAX_FROZEN_TEXT = "6 hours";

/** Whether the move keeps its partner frozen: it has not switched (nor finished). */
export function isFrozen(move: Pick<MoveRow, "phase">): boolean {
  return move.phase === "copying" || move.phase === "verifying";
}

/** When a frozen move is aborted, or null for a move that freezes nothing. */
export function abortsAt(move: Pick<MoveRow, "phase" | "startedAt">): Date | null {
  return isFrozen(move) ? new Date(Date.parse(move.startedAt) + MAX_FROZEN_MS) : null;
}

/** Whether the move has kept its partner frozen past the limit at `now`. */
export function frozenTooLong(move: Pick<MoveRow, "phase" | "startedAt">, now: Date): boolean {
  const deadline = abortsAt(move);
  return deadline !== null && deadline.getTime() <= now.getTime();
}
