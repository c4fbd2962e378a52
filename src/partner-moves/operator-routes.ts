// /operator/v1/partners/{partner_id}/move: moving a partner to another shard (partner-moves.ts).
// Each POST does a bounded part of the move (copy, verify, switch; the old copy is retired an hour
// after the switch) and answers where it stands: 202 while there is more to do, 200 once it is
// done. The operator repeats the same POST until then; GET shows the latest move, and
// GET /operator/v1/moves every unfinished one, with its age and when it will be aborted.
import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { partnerNotFound, validationError } from "../app/operator-requests";
import { readJsonBody } from "../app/read-body";
import { locatePartner } from "../db/directory";
import { partnerJurisdiction } from "../db/partners";
import {
  latestMove,
  moveView,
  openMove,
  ROWS_PER_CALL,
  startMove,
  stepMove,
} from "./partner-moves";
import { openMoves } from "./stuck-moves";

const MoveBody = z.strictObject({
  shard: z.string(),
  /** Rows one call copies at most (smaller steps hold the partner's writes no longer). */
  max_rows: z.number().int().min(1).max(ROWS_PER_CALL).optional(),
});

export const partnerMoveOperatorRoutes = new Hono<AppEnv>()
  .post("/operator/v1/partners/:partner_id/move", async (c) => {
    const partnerId = c.req.param("partner_id");
    const body = await readJsonBody(c.req.raw);
    const parsed = MoveBody.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    const to = parsed.data.shard;
    const shards = c.get("shards");
    const now = c.get("now")();
    const directory = shards.directory();
    let move = await openMove(directory, partnerId);
    if (move && move.toShard !== to) {
      throw new ApiError(
        "CONFLICT_ERROR",
        `${partnerId} is being moved to shard ${move.toShard}: finish that move first.`,
      );
    }
    if (!move) {
      const found = await locatePartner(shards, partnerId);
      if (!found) throw partnerNotFound(partnerId);
      if (!shards.codes.includes(to)) {
        throw invalidRequest(
          [`shard: no shard ${JSON.stringify(to)}; shards: ${shards.codes.join(", ")}`],
          "shard",
        );
      }
      // A move never takes a partner's data out of its jurisdiction.
      const jurisdiction = (await partnerJurisdiction(found.db, partnerId)) ?? "none";
      if (shards.jurisdiction(to) !== jurisdiction) {
        throw new ApiError(
          "CONFLICT_ERROR",
          `${partnerId}'s jurisdiction is ${JSON.stringify(jurisdiction)} and shard ${to}'s is ` +
            `${JSON.stringify(shards.jurisdiction(to))}: a move never crosses jurisdictions.`,
        );
      }
      const started = await startMove(shards, { partnerId, from: found.shard, to }, now);
      if (started.kind === "same-shard") {
        throw invalidRequest([`shard: ${partnerId} already lives on shard ${to}`], "shard");
      }
      if (started.kind === "source-busy") {
        throw new ApiError(
          "CONFLICT_ERROR",
          `Another partner's move off shard ${found.shard} is not finished (its old copy is ` +
            "retired an hour after its switch): one move at a time per shard.",
        );
      }
      if (started.kind === "busy" && started.move.toShard !== to) {
        throw new ApiError("CONFLICT_ERROR", `${partnerId} is being moved to another shard.`);
      }
      move = started.move;
    }
    // Another call is working on this move: its state as it stands.
    const stepped = (await stepMove(shards, move.moveId, now, parsed.data.max_rows)) ?? move;
    const finished = stepped.phase === "done" || stepped.phase === "aborted";
    return c.json(moveView(stepped, now), finished ? 200 : 202);
  })

  .get("/operator/v1/partners/:partner_id/move", async (c) => {
    const partnerId = c.req.param("partner_id");
    const move = await latestMove(c.get("shards").directory(), partnerId);
    if (!move) throw new ApiError("NOT_FOUND_ERROR", `${partnerId} has never been moved.`);
    return c.json(moveView(move, c.get("now")()));
  })

  .get("/operator/v1/moves", async (c) => {
    const now = c.get("now")();
    const moves = await openMoves(c.get("shards").directory());
    return c.json({ data: moves.map((move) => moveView(move, now)) });
  });
