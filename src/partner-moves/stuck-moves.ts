// Moves the operator should see: every unfinished move, with its age and when it will be aborted
// (GET /operator/v1/moves), and the maintenance step that aborts, on its source shard's run, a
// move that has kept its partner frozen past the limit (move-limits.ts) when nobody stepped it.
import { and, asc, eq, isNull } from "drizzle-orm";
import type { MaintenanceStep } from "../app/maintenance";
import type { Database } from "../db/client";
import { newQueryStats } from "../db/client";
import { partnerMoves } from "../db/directory-schema";
import { openShards } from "../db/shards";
import { frozenTooLong } from "./move-limits";
import { type MoveRow, stepMove } from "./partner-moves";

/** Every unfinished move, oldest first (one per source shard at most: a short list). */
export function openMoves(directory: Database): Promise<MoveRow[]> {
  return directory
    .select()
    .from(partnerMoves)
    .where(isNull(partnerMoves.finishedAt))
    .orderBy(asc(partnerMoves.startedAt));
}

/**
 * Aborts the move off this shard when it has kept its partner frozen past the limit: a step of
 * the move, which aborts it first thing (nothing is copied), unless an operator's step holds it
 * now (the next run, or that step, does it). Answers how many moves it aborted.
 */
export const stuckMovesAborted: MaintenanceStep = {
  name: "stuck_moves_aborted",
  async run({ env, shard, now }) {
    const shards = openShards(env, newQueryStats());
    const [move] = await shards
      .directory()
      .select()
      .from(partnerMoves)
      .where(and(eq(partnerMoves.fromShard, shard), isNull(partnerMoves.finishedAt)));
    if (!move || !frozenTooLong(move, now)) return 0;
    const stepped = await stepMove(shards, move.moveId, now, 0);
    return stepped?.phase === "aborted" ? 1 : 0;
  },
};
