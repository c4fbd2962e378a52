// A scope's retained events: what is still kept at a moment, and one event of the scope while it
// is (404 otherwise).
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import type { ReadScope } from "../db/customers";
import { EVENT_RETENTION_MS } from "../domain/event";
import { type EventRow, findEvent } from "./event-store";

/** The oldest creation time still kept at `now`. */
export function retainedSince(now: Date): string {
  return new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
}

function eventNotFound(eventId: string): ApiError {
  return new ApiError("NOT_FOUND_ERROR", `No such event: ${JSON.stringify(eventId.slice(0, 64))}`, {
    param: "event_id",
  });
}

/** The event of the scope, if still retained; 404 otherwise. */
export async function retainedEvent(
  c: Context<AppEnv>,
  scope: ReadScope,
  eventId: string,
): Promise<EventRow> {
  const since = retainedSince(c.get("now")());
  const row = await findEvent(c.get("db"), scope, since, eventId);
  if (!row) throw eventNotFound(eventId);
  return row;
}
