// The per-endpoint delivery throttle: at most `maxPerSecond` attempts start per endpoint in any
// one Unix second, and none is dropped. Two counters on the endpoint's row do it:
// - the schedule: each delivery takes the endpoint's next free slot (a second, and its place in
//   that second) when it is first due, or all of a recovery's at once in event order; one whose
//   slot lies in a later second is deferred to it (its message re-queued with that delay);
// - admission: an attempt starts only while fewer than `maxPerSecond` have started in the
//   current second (a message the queue hands over late must not crowd the next second), and only
//   after every slot handed out before its own has been attempted (so a deferral never reorders);
//   otherwise it waits a second more.
// Slots are numbered second × 1000 + place, so they sort in the order they were handed out.
import { type SQL, sql } from "drizzle-orm";
import { MAX_DELAY_SECONDS } from "../domain/retry-schedule";
import { SLOTS_PER_SECOND_MAX } from "../webhook-endpoints";
import { webhookEndpoints } from "../webhook-endpoints/schema";

/** The scale as an SQL integer literal. */
const SCALE = sql.raw(String(SLOTS_PER_SECOND_MAX));

/** The Unix second of an instant. */
export function secondOf(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

/** The Unix second a slot number opens at. */
export function slotSecond(slot: number): number {
  return Math.floor(slot / SLOTS_PER_SECOND_MAX);
}

/** An integer parameter (D1 binds every JavaScript number as REAL, which would divide exactly). */
function int(value: number | SQL): SQL {
  return sql`CAST(${value} AS INTEGER)`;
}

/** The first free slot from the current second on, over an endpoint row's schedule columns. */
function freeSlot(second: SQL, used: SQL, nowSecond: number, slotsPerSecond: number) {
  const now = int(nowSecond);
  const perSecond = int(slotsPerSecond);
  const stale = sql`(${second} IS NULL OR ${second} < ${now})`;
  return {
    second: sql`(CASE WHEN ${stale} THEN ${now} WHEN ${used} >= ${perSecond} THEN ${second} + 1
      ELSE ${second} END)`,
    used: sql`(CASE WHEN ${stale} OR ${used} >= ${perSecond} THEN 0 ELSE ${used} END)`,
  };
}

/**
 * The endpoint row's new schedule once `count` more slots are taken from the current second on
 * (`count` is SQL, at least 1): for an UPDATE of `webhook_endpoints`.
 */
export function takeSlots(nowSecond: number, slotsPerSecond: number, slots: SQL | number) {
  const free = freeSlot(
    sql`${webhookEndpoints.throttleSecond}`,
    sql`${webhookEndpoints.throttleUsed}`,
    nowSecond,
    slotsPerSecond,
  );
  const perSecond = int(slotsPerSecond);
  const count = int(slots);
  return {
    throttleSecond: sql`${free.second} + (${free.used} + ${count} - 1) / ${perSecond}`,
    throttleUsed: sql`(${free.used} + ${count} - 1) % ${perSecond} + 1`,
  };
}

/**
 * The number of the `rank`-th slot (from 1) of a block taken from the current second on, over the
 * endpoint row `endpoint` as it was before the block (SQL naming its `throttle_second` and
 * `throttle_used`).
 */
export function slotOfRank(
  endpoint: string,
  nowSecond: number,
  slotsPerSecond: number,
  rank: SQL,
): SQL {
  const free = freeSlot(
    sql.raw(`${endpoint}.throttle_second`),
    sql.raw(`${endpoint}.throttle_used`),
    nowSecond,
    slotsPerSecond,
  );
  const perSecond = int(slotsPerSecond);
  const place = sql`(${free.used} + ${rank} - 1)`;
  return sql`((${free.second} + ${place} / ${perSecond}) * ${SCALE} + ${place} % ${perSecond})`;
}

/** The number of the slot an endpoint row's schedule handed out last (`endpoint` names it). */
export function lastSlotOf(endpoint: string): SQL {
  return sql.raw(
    `(${endpoint}.throttle_second * ${SLOTS_PER_SECOND_MAX} + ${endpoint}.throttle_used - 1)`,
  );
}

/** SQL: the Unix second of a slot number. */
export function secondOfSlot(slot: SQL): SQL {
  return sql`CAST(${slot} / ${SCALE} AS INTEGER)`;
}

/** A slot's second as the RFC 3339 instant it opens at (a delivery's `next_attempt_at`). */
export function slotInstant(slot: SQL): SQL {
  return sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${secondOfSlot(slot)}, 'unixepoch')`;
}

/**
 * SQL over the endpoint row `endpoint`: another attempt may start in the current second `now`
 * (fewer than `perSecond` started in it).
 */
export function admissionRoom(endpoint: string, nowSecond: number, slotsPerSecond: number): SQL {
  const second = sql.raw(`${endpoint}.admitted_second`);
  const count = sql.raw(`${endpoint}.admitted_count`);
  return sql`(${second} IS NULL OR ${second} <> ${int(nowSecond)}
    OR ${count} < ${int(slotsPerSecond)})`;
}

/** The endpoint row's admission once one more attempt starts in the current second. */
export function admitOne(nowSecond: number) {
  const now = int(nowSecond);
  const same = sql`${webhookEndpoints.admittedSecond} = ${now}`;
  return {
    admittedSecond: now,
    admittedCount: sql`CASE WHEN ${same} THEN ${webhookEndpoints.admittedCount} + 1 ELSE 1 END`,
  };
}

/**
 * Whole seconds to delay a message whose slot opens at Unix second `second`: none when it is
 * open, at most the longest delay a queue accepts (a message back early waits again).
 */
export function delayUntil(second: number, now: Date): number {
  const wait = Math.ceil((second * 1000 - now.getTime()) / 1000);
  return Math.min(Math.max(0, wait), MAX_DELAY_SECONDS);
}
