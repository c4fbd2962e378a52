// The per-endpoint delivery throttle: at most `maxPerSecond` attempts start per endpoint in any
// one Unix second. Each attempt takes a slot, the next free one of the endpoint (a second and
// how many of its slots are taken, kept on the endpoint's row); an attempt whose slot lies in a
// later second is deferred to it, its message re-queued with that delay, and attempted when it
// comes back: never dropped, and never in a second already full. A recovery reserves the slots
// of all its events at once, in event order, so they go out in that order at the throttle's pace.
import { type SQL, sql } from "drizzle-orm";
import { MAX_DELAY_SECONDS } from "../domain/retry-schedule";
import { webhookEndpoints } from "./schema";

/** The Unix second of an instant. */
export function secondOf(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

/** An integer parameter (D1 binds every JavaScript number as REAL, which would divide exactly). */
function int(value: number | SQL): SQL {
  return sql`CAST(${value} AS INTEGER)`;
}

/** The first free slot from the current second `now` on, as the endpoint's row holds it. */
function freeSlot(nowSecond: number, slotsPerSecond: number) {
  const now = int(nowSecond);
  const perSecond = int(slotsPerSecond);
  const second = webhookEndpoints.throttleSecond;
  const used = webhookEndpoints.throttleUsed;
  const stale = sql`(${second} IS NULL OR ${second} < ${now})`;
  return {
    /** The second of the first free slot. */
    second: sql`(CASE WHEN ${stale} THEN ${now} WHEN ${used} >= ${perSecond} THEN ${second} + 1
      ELSE ${second} END)`,
    /** Slots of that second already taken. */
    used: sql`(CASE WHEN ${stale} OR ${used} >= ${perSecond} THEN 0 ELSE ${used} END)`,
  };
}

/**
 * The endpoint row's new throttle state once `count` more slots are taken from the current second
 * `now` on (`count` is SQL, at least 1): for an UPDATE of `webhook_endpoints`.
 */
export function takeSlots(now: number, slotsPerSecond: number, slots: SQL | number) {
  const free = freeSlot(now, slotsPerSecond);
  const perSecond = int(slotsPerSecond);
  const count = int(slots);
  return {
    throttleSecond: sql`${free.second} + (${free.used} + ${count} - 1) / ${perSecond}`,
    throttleUsed: sql`(${free.used} + ${count} - 1) % ${perSecond} + 1`,
  };
}

/**
 * The second of the `rank`-th slot (from 1) of a block taken from the current second `now` on,
 * over the endpoint row `endpoint` (SQL naming its columns `throttle_second`, `throttle_used`).
 */
export function slotOfRank(
  endpoint: string,
  nowSecond: number,
  slotsPerSecond: number,
  rank: SQL,
): SQL {
  const now = int(nowSecond);
  const perSecond = int(slotsPerSecond);
  const second = sql.raw(`${endpoint}.throttle_second`);
  const used = sql.raw(`${endpoint}.throttle_used`);
  const stale = sql`(${second} IS NULL OR ${second} < ${now})`;
  const base = sql`(CASE WHEN ${stale} THEN ${now} WHEN ${used} >= ${perSecond} THEN ${second} + 1
    ELSE ${second} END)`;
  const taken = sql`(CASE WHEN ${stale} OR ${used} >= ${perSecond} THEN 0 ELSE ${used} END)`;
  return sql`(${base} + (${taken} + ${rank} - 1) / ${perSecond})`;
}

/** A slot's second as the RFC 3339 instant it opens at (a delivery's `next_attempt_at`). */
export function slotInstant(second: SQL): SQL {
  return sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${second}, 'unixepoch')`;
}

/**
 * Whole seconds to delay a message whose slot opens at Unix second `slot`: none when it is open,
 * at most the longest delay a queue accepts (a message back early waits again).
 */
export function delayUntil(slot: number, now: Date): number {
  const wait = Math.ceil((slot * 1000 - now.getTime()) / 1000);
  return Math.min(Math.max(0, wait), MAX_DELAY_SECONDS);
}
