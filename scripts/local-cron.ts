// The five-minute cron, run locally. `wrangler dev` never fires a Worker's cron triggers ("Scheduled
// Workers are not automatically triggered during local development"), so a local run would never
// sweep: a render or delivery whose queue message was lost would stay pending for ever, where a
// deployed service re-sends it within minutes. Miniflare keeps a queue's messages in memory, so
// they are lost whenever the local runtime stops or restarts. The local runs (`npm start`, the
// tests' throwaway runs) therefore fire the scheduled handler themselves, at the times
// wrangler.toml's cron names, through Miniflare's trigger endpoint.
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

/** The path through which Miniflare runs the Worker's `scheduled()` handler. */
export const SCHEDULED_PATH = "/cdn-cgi/local/scheduled";

/** wrangler.toml's cron (one, of the form `*\/N * * * *`): every N minutes, on the minute. */
export function cronOf(toml = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8")) {
  const crons = /^\[triggers\][^[]*?crons\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  const [cron, ...others] = [...crons.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
  const minutes = Number(/^\*\/(\d+) \* \* \* \*$/.exec(cron ?? "")?.[1]);
  if (!cron || others.length > 0 || !(minutes > 0)) {
    throw new Error(
      `wrangler.toml's crons must be one "*/N * * * *" to run locally; got [${crons}]`,
    );
  }
  return { cron, everyMs: minutes * 60_000 };
}

/** Runs the scheduled handler once, as the cron at `time` would; answers its outcome. */
export async function runScheduled(base: string, time = Date.now()): Promise<string> {
  const { cron } = cronOf();
  const query = new URLSearchParams({ cron, time: String(time) });
  const res = await fetch(`${base}${SCHEDULED_PATH}?${query}`, {
    signal: AbortSignal.timeout(120_000),
  });
  const outcome = await res.text();
  if (!res.ok) throw new Error(`the scheduled handler answered ${res.status} ${outcome}`);
  return outcome;
}

/**
 * Fires the cron against the local run at `base` at every time the cron names (every five minutes,
 * on the minute) until stopped; a run that fails is reported through `onError` and the next one
 * still comes.
 */
export function startLocalCron(
  base: string,
  onError: (error: unknown) => void = (error) =>
    console.error(`local cron: ${(error as Error).message}`),
): { stop(): void } {
  const { everyMs } = cronOf();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    const wait = everyMs - (Date.now() % everyMs);
    timer = setTimeout(async () => {
      try {
        await runScheduled(base, Date.now() - (Date.now() % 60_000));
      } catch (error) {
        if (!stopped) onError(error);
      }
      next();
    }, wait);
    timer.unref();
  };
  next();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
