// A long local run kept usable: the local runtime (workerd, under `wrangler dev`) keeps memory for
// every request and every call of its local bindings, whatever the Worker does (docs/testing.md,
// "Soak"), and a day of integration tests against `npm start` took it past two gigabytes. So
// `npm start` serves through this small proxy in front of `wrangler dev`, and restarts wrangler (its
// runtime and its dev proxy) when their resident memory passes a bound: new requests wait, the ones
// in flight finish, wrangler restarts over the same state on disk (.wrangler/state: D1, R2), then
// the waiting requests go on. Queue messages, which the local runtime holds in memory, are sent
// again by the local cron's sweep (scripts/local-cron.ts), as after any restart.
import { spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The variable that sets the bound, in MB (0 turns restarts off). */
export const BOUND_VARIABLE = "LOCAL_RUNTIME_MAX_MB";
/**
 * The default bound (MB): the runtime and the dev proxy start near 400 MB together and, under the
 * soak's load, climb past 2.4 GB; 1.5 GB leaves a laptop room and restarts rarely.
 */
export const DEFAULT_BOUND_MB = 1536;
/** The lowest bound (MB) accepted: above what a fresh local run holds. */
export const MIN_BOUND_MB = 512;
/** Requests in flight this long after a restart is due are not waited for any more. */
export const DRAIN_PATIENCE_MS = 60_000;
const MB = 1024 * 1024;

/** The bound in bytes from the environment, null when restarts are off; throws on a bad value. */
export function readMemoryBound(env: NodeJS.ProcessEnv = process.env): number | null {
  const text = env[BOUND_VARIABLE]?.trim() || String(DEFAULT_BOUND_MB);
  if (!/^\d+$/.test(text)) {
    throw new Error(
      `${BOUND_VARIABLE} must be a whole number of MB (0: no restarts), got "${text}"`,
    );
  }
  const mb = Number(text);
  if (mb !== 0 && mb < MIN_BOUND_MB) {
    throw new Error(
      `${BOUND_VARIABLE} must be at least ${MIN_BOUND_MB} (MB): a fresh local run holds about 400 MB, ` +
        `and a lower bound would restart it without end; got ${mb}`,
    );
  }
  return mb === 0 ? null : mb * MB;
}

export interface RunState {
  /** Resident memory of the local run's workerd processes now (bytes). */
  memoryBytes: number;
  /** The bound (bytes), or null when restarts are off. */
  boundBytes: number | null;
  /** Requests the proxy has passed on and not yet answered. */
  inFlight: number;
  /** When the restart became due (ms), or null while none is. */
  dueSinceMs: number | null;
  nowMs: number;
}

/**
 * What the proxy does now: `serve` (pass requests on), `drain` (a restart is due: hold new
 * requests until those in flight finish) or `restart` (nothing in flight, or the drain has waited
 * its patience out).
 */
export function nextStep(state: RunState): "serve" | "drain" | "restart" {
  const over = state.boundBytes !== null && state.memoryBytes > state.boundBytes;
  if (state.dueSinceMs === null && !over) return "serve";
  if (state.inFlight === 0) return "restart";
  const since = state.dueSinceMs ?? state.nowMs;
  return state.nowMs - since >= DRAIN_PATIENCE_MS ? "restart" : "drain";
}

/**
 * Resident memory (bytes) of the workerd processes descended from `root` (wrangler): the runtime
 * and wrangler's dev proxy. Read with `ps`, which Linux and macOS both have; 0 when it fails.
 */
export function workerdMemory(root: number): number {
  const ps = spawnSync("ps", ["-A", "-o", "pid=,ppid=,rss=,comm="], { encoding: "utf8" });
  if (ps.status !== 0) return 0;
  const children = new Map<number, number[]>();
  const rows = new Map<number, { rssKb: number; name: string }>();
  for (const line of ps.stdout.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [pid, ppid, rssKb] = [Number(match[1]), Number(match[2]), Number(match[3])];
    rows.set(pid, { rssKb, name: match[4] ?? "" });
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  let total = 0;
  const queue = [root];
  while (queue.length > 0) {
    // The loop runs only while the queue has an element.
    const pid = queue.shift() as number;
    queue.push(...(children.get(pid) ?? []));
    const row = rows.get(pid);
    if (row && /(^|\/)workerd/.test(row.name)) total += row.rssKb * 1024;
  }
  return total;
}

/** A running local runtime: where it listens, how much memory it holds, how to stop it. */
export interface Runtime {
  port: number;
  memoryBytes(): number;
  stop(): Promise<void>;
}

export interface RestartingProxyOptions {
  /** Where the proxy listens (what partners call). */
  port: number;
  host?: string;
  boundBytes: number | null;
  /** Starts a runtime and resolves once it serves. */
  start(): Promise<Runtime>;
  /** How often the runtime's memory is read (default 10 s). */
  checkEveryMs?: number;
  log?(line: string): void;
}

export interface RestartingProxy {
  port: number;
  /** The runtime serving now. */
  runtime(): Runtime;
  restarts(): number;
  /** Whether a restart is due or under way (new requests then wait for it). */
  due(): boolean;
  close(): Promise<void>;
}

const mb = (bytes: number) => `${Math.round(bytes / MB).toLocaleString("en-US")} MB`;

/**
 * Serves `options.port` by passing each request to the runtime `options.start()` started, and
 * restarts the runtime between requests once its memory passes the bound (see `nextStep`).
 */
export async function serveWithRestarts(options: RestartingProxyOptions): Promise<RestartingProxy> {
  const log = options.log ?? ((line: string) => console.log(line));
  let runtime = await options.start();
  let agent = new http.Agent({ keepAlive: true });
  let inFlight = 0;
  let dueSinceMs: number | null = null;
  let restarting: Promise<void> | null = null;
  let restarts = 0;
  let memoryBytes = 0;
  let waiting: (() => void)[] = [];

  const restart = async () => {
    const began = Date.now();
    log(
      `↻ The local runtime holds ${mb(memoryBytes)}, past its bound of ` +
        `${mb(options.boundBytes ?? 0)} (${BOUND_VARIABLE}): restarting it between requests; ` +
        "its state stays on disk in .wrangler/state.",
    );
    agent.destroy();
    await runtime.stop();
    runtime = await options.start();
    agent = new http.Agent({ keepAlive: true });
    restarts += 1;
    memoryBytes = 0;
    dueSinceMs = null;
    const released = waiting;
    waiting = [];
    log(
      `↻ Restarted in ${((Date.now() - began) / 1000).toFixed(1)} s; ` +
        `${released.length} request${released.length === 1 ? "" : "s"} waited for it.`,
    );
    for (const release of released) release();
  };

  /** Decides, from the state now, whether to hold requests or restart. */
  const check = (readMemory: boolean) => {
    if (restarting) return;
    if (readMemory) memoryBytes = runtime.memoryBytes();
    const nowMs = Date.now();
    const step = nextStep({
      memoryBytes,
      boundBytes: options.boundBytes,
      inFlight,
      dueSinceMs,
      nowMs,
    });
    if (step === "serve") return;
    dueSinceMs ??= nowMs;
    if (step === "restart") {
      restarting = restart()
        .catch((error: unknown) => log(`✖ restarting the local runtime failed: ${String(error)}`))
        .finally(() => {
          restarting = null;
        });
    }
  };

  /** Resolves when a request may pass: at once, or after the restart that is due. */
  const admitted = () =>
    dueSinceMs === null && !restarting
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiting.push(resolve));

  const forward = (req: http.IncomingMessage, res: http.ServerResponse) =>
    new Promise<void>((resolve) => {
      res.once("close", resolve);
      const upstream = http.request(
        {
          host: "127.0.0.1",
          port: runtime.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
          answer.pipe(res);
        },
      );
      upstream.once("error", (error) => {
        if (res.headersSent) res.destroy(error);
        else res.writeHead(502, { "content-type": "text/plain" }).end(`${error.message}\n`);
      });
      req.pipe(upstream);
    });

  const server = http.createServer(async (req, res) => {
    await admitted();
    inFlight += 1;
    try {
      await forward(req, res);
    } finally {
      inFlight -= 1;
      check(false);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const timer = setInterval(() => check(true), options.checkEveryMs ?? 10_000);
  timer.unref();

  return {
    // A server listening on a TCP port has an address object, never a pipe's string.
    port: (server.address() as AddressInfo).port,
    runtime: () => runtime,
    restarts: () => restarts,
    due: () => dueSinceMs !== null || restarting !== null,
    async close() {
      clearInterval(timer);
      await restarting;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
