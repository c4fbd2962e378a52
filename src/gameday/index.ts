// The game day's seams (scripts/gameday.ts, docs/testing.md "Game day"): faults switched on and off
// at run time in a local run, through `/__gameday/*`. They exist only when the run's
// `GAMEDAY_FAULTS` var is `on`, which only the game day passes (`wrangler dev --var`); no
// configuration file sets it, and a Worker that carries the deploy's `DEPLOYMENT` marker ignores
// it. Without the flag every handler is the service's own, untouched, and `/__gameday/*` is a 404.
import type { Bindings } from "../app/context";
import { shardBinding, shardCodes } from "../db/shards";
import { arm, disarmAll, faultReport, parseFault } from "./faults";
import { faultyBindings, faultyQueue } from "./seams";

const PREFIX = "/__gameday/";

/** Whether this run's seams are on: the flag set, and the deploy's marker absent. */
export function gameDayEnabled(env: object): boolean {
  return Reflect.get(env, "GAMEDAY_FAULTS") === "on" && !Reflect.get(env, "DEPLOYMENT");
}

type Fetch = (
  request: Request,
  env: Bindings,
  ctx: ExecutionContext,
) => Response | Promise<Response>;
type Queue = (batch: MessageBatch<unknown>, env: Bindings) => Promise<void> | void;
type Scheduled = (controller: ScheduledController, env: Bindings) => Promise<void>;

async function authorised(request: Request, env: Bindings): Promise<boolean> {
  const token = env.OPERATOR_TOKEN ?? "";
  const given = /^Bearer +(\S+) *$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  if (!token || !given) return false;
  const digest = async (text: string) =>
    crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return crypto.subtle.timingSafeEqual(await digest(given), await digest(token));
}

const json = (body: unknown, status = 200) => Response.json(body, { status });

/**
 * How many rows the request log holds of each request id, per shard (a partner moved keeps its old
 * copy until it is retired): what the game day checks "every request recorded exactly once" by.
 */
async function requestLogCounts(
  env: Bindings,
  ids: string[],
): Promise<Record<string, Record<string, number>>> {
  const counts: Record<string, Record<string, number>> = {};
  for (const code of shardCodes(env)) {
    const db = shardBinding(env, code);
    if (!db) continue;
    const shard: Record<string, number> = {};
    counts[code] = shard;
    for (let i = 0; i < ids.length; i += 90) {
      const chunk = ids.slice(i, i + 90);
      const marks = chunk.map(() => "?").join(",");
      const rows = await db
        .prepare(
          `SELECT request_id AS id, count(*) AS n FROM request_logs WHERE request_id IN (${marks}) GROUP BY request_id`,
        )
        .bind(...chunk)
        .all<{ id: string; n: number }>();
      for (const row of rows.results) shard[row.id] = row.n;
    }
  }
  return counts;
}

/** `/__gameday/faults` (GET the report, POST arms one, DELETE disarms all) and the log's counts. */
async function control(request: Request, env: Bindings): Promise<Response> {
  if (!(await authorised(request, env))) return json({ error: "unauthorised" }, 401);
  const path = new URL(request.url).pathname.slice(PREFIX.length);
  const body: unknown = request.method === "POST" ? await request.json().catch(() => null) : null;
  if (path === "faults" && request.method === "GET") return json(faultReport(Date.now()));
  if (path === "faults" && request.method === "DELETE") return json({ finished: disarmAll() });
  if (path === "faults" && request.method === "POST") {
    const fault = parseFault(body, Date.now());
    if (typeof fault === "string") return json({ error: fault }, 400);
    arm(fault);
    return json(fault, 201);
  }
  if (path === "request-log-counts" && request.method === "POST") {
    // Parsed JSON or null; the field is checked next.
    const ids = (body as { request_ids?: unknown } | null)?.request_ids;
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) {
      return json({ error: "request_ids must be an array of strings" }, 400);
    }
    return json(await requestLogCounts(env, ids));
  }
  return json({ error: "not found" }, 404);
}

/** The Worker's handlers, with the game day's seams in place when the run's flag is on. */
export function withGameDay<H extends { fetch: Fetch; queue: Queue; scheduled: Scheduled }>(
  handlers: H,
): H {
  const queue = faultyQueue(handlers.queue);
  return {
    ...handlers,
    fetch: (request, env, ctx) => {
      if (!gameDayEnabled(env)) return handlers.fetch(request, env, ctx);
      if (new URL(request.url).pathname.startsWith(PREFIX)) return control(request, env);
      return handlers.fetch(request, faultyBindings(env), ctx);
    },
    queue: (batch, env) =>
      gameDayEnabled(env) ? queue(batch, faultyBindings(env)) : handlers.queue(batch, env),
    scheduled: (controller, env) =>
      handlers.scheduled(controller, gameDayEnabled(env) ? faultyBindings(env) : env),
  };
}
