// "Last used" of API keys at day precision, without a D1 write per request: the key lookup already
// returns the stored day, and only a request that sees an older day schedules one conditional
// UPDATE after the response. At most one write lands per key per day.
import type { Context } from "hono";
import { openDatabase } from "../db/client";
import { markKeyUsed } from "../db/key-lookup";
import { shardBinding } from "../db/shards";
import type { AppEnv, Caller } from "./context";

/** Keys this isolate has already recorded today, so that it schedules each write only once. */
let recorded = { day: "", keys: new Set<string>() };

/** Schedules the day's one "last used" write for the caller's key, if the lookup saw another day. */
export function recordKeyUse(c: Context<AppEnv>, caller: Caller, now: Date): void {
  const today = now.toISOString().slice(0, 10);
  if (caller.lastUsedOn !== null && caller.lastUsedOn >= today) return;
  // A partner being moved takes no write; a later request of the day records the use.
  const binding = shardBinding(c.env, caller.shard);
  if (caller.moving || !binding) return;
  if (recorded.day !== today) recorded = { day: today, keys: new Set() };
  if (recorded.keys.has(caller.keyId)) return;
  recorded.keys.add(caller.keyId);
  c.get("queryStats").deferredWrites += 1;
  const requestId = c.get("requestId");
  // A handle of its own: the write may land before the request's log line is written, and its
  // cost is reported on its own line, not mixed into the request's figures.
  const { db } = openDatabase(binding);
  const write = markKeyUsed(db, caller.keyId, today).then(
    // Its own line, after the request's: what the deferred write cost.
    (cost) =>
      console.log(
        JSON.stringify({
          request_id: requestId,
          deferred_write: "api_keys.last_used_on",
          rows_read: cost.rowsRead,
          rows_written: cost.rowsWritten,
        }),
      ),
    (error: unknown) => {
      // Losing a "last used" day is harmless; the next request of the day tries again.
      recorded.keys.delete(caller.keyId);
      console.error(JSON.stringify({ request_id: requestId, error: String(error) }));
    },
  );
  c.executionCtx.waitUntil(write);
}
