// Serves the bench's Workers from Miniflare (workerd, no dev proxy): for the read arms, the
// production bundle over the large and the small table and the floor Worker over the large one;
// for the import arms, the production bundle and the floor Worker each over an empty database.
// Each Worker gets its own socket, so load reaches it without passing through Miniflare's routing
// entry Worker.
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { ROOT } from "../builds/worker.ts";

export const OPERATOR_TOKEN = "bench-operator-token";
const SIGNING_SECRET = "bench-signing-secret-0123456789abcdefghijklmnopqrstuvwxyz";
/** The cards' data key of the bench's service (AES-256, its id first), as a deployment's secret. */
const CARD_DATA_KEYS = "bench-1:3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhs=";

/**
 * A free port on the loopback interface, for workerd's inspector: a fixed one hangs the start
 * while another run on the machine holds it.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(address),
      );
    });
  });
}

/** D1 database ids: the million-row table and the thousand-row one. */
export const LARGE_DB = "bench-large";
export const SMALL_DB = "bench-small";

/** A Worker of the bench: the production bundle or the floor, over one D1 database. */
export interface WorkerSpec {
  name: string;
  script: "api" | "floor";
  database: string;
  /** Another build of the service to serve instead of the bench's (a profile's comparison). */
  scriptPath?: string;
  /**
   * False leaves the rate limiters unbound (a diagnostic: the service's checks then fail open and
   * log an error line, see src/app/rate-limit.ts; the floor skips its checks).
   */
  limiters?: boolean;
  /**
   * False leaves the request log's queue unbound, so nothing is recorded: the same service
   * without its request log. Otherwise the Worker records to a queue of its own and consumes it,
   * writing into its own database, as deployed.
   */
  requestLogs?: boolean;
}

/** The read arms' Workers. */
export const READ_WORKERS = [
  { name: "api", script: "api", database: LARGE_DB },
  { name: "api-small", script: "api", database: SMALL_DB },
  { name: "api-unlimited", script: "api", database: LARGE_DB, limiters: false },
  { name: "api-unlogged", script: "api", database: LARGE_DB, requestLogs: false },
  { name: "floor", script: "floor", database: LARGE_DB },
  { name: "bare-floor", script: "floor", database: LARGE_DB, limiters: false },
] as const satisfies readonly WorkerSpec[];

export type WorkerName = (typeof READ_WORKERS)[number]["name"];

/** One JSON log line per request, as src/app/request-context.ts prints it. */
export interface RequestLog {
  request_id: string;
  route: string;
  status: number;
  version?: string;
  duration_ms: number;
  d1_queries: number;
  d1_rows_read: number;
}

export interface BenchServer {
  url(worker: string): URL;
  /** The log line of a request sent with this `x-request-id`, once the runtime has printed it. */
  logOf(requestId: string): Promise<RequestLog>;
  /**
   * A D1 database of a Worker, to build data from Node: the floor's `DB`; the service's first
   * shard unless another binding (`DB_01`, `DIRECTORY`) is named.
   */
  database(worker: string, binding?: string): ReturnType<Miniflare["getD1Database"]>;
  dispose(): Promise<void>;
}

async function productionSettings() {
  const toml = await readFile(path.join(ROOT, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  const brand = /^BRAND\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? "service";
  if (!date) throw new Error("wrangler.toml has no compatibility_date");
  // The rate limiters, each called as in production but with its limit lifted: the load
  // generator sends far more per key and per address than a partner may.
  const limiters = [
    ...toml.matchAll(/^\[\[ratelimits\]\]\s*name\s*=\s*"([^"]+)"\s*namespace_id\s*=\s*"([^"]+)"/gm),
  ].map(([, name, id]) => [
    name as string,
    { namespace_id: id as string, simple: { limit: 1_000_000_000, period: 60 as const } },
  ]);
  // The request log's consumer settings, as wrangler.toml configures its queue.
  const consumer =
    /\[\[queues\.consumers\]\]\s*queue = "request-logs"([^[]*)/.exec(toml)?.[1] ?? "";
  const setting = (name: string) =>
    Number(new RegExp(`${name}\\s*=\\s*(\\d+)`).exec(consumer)?.[1]);
  return {
    compatibilityDate: date,
    compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string),
    brand,
    ratelimits: Object.fromEntries(limiters),
    requestLogConsumer: {
      maxBatchSize: setting("max_batch_size"),
      maxBatchTimeout: setting("max_batch_timeout"),
    },
  };
}

/**
 * Starts workerd with `workers` (by default the read arms' three) over data persisted in
 * `stateDir`. Log lines carrying a request id that starts with `watchPrefix` are kept for
 * `logOf`; all others are dropped.
 */
export async function startServer(options: {
  stateDir: string;
  apiScript: string;
  floorScript: string;
  watchPrefix: string;
  workers?: readonly WorkerSpec[];
  /** Opens workerd's DevTools inspector on this port (CPU profiles, heap samples). */
  inspectorPort?: number;
  /** V8 flags for workerd, such as a heap limit. */
  v8Flags?: string[];
}): Promise<BenchServer> {
  const workers: readonly WorkerSpec[] = options.workers ?? READ_WORKERS;
  const settings = await productionSettings();
  const watched = new Map<string, RequestLog>();
  const waiting = new Map<string, (log: RequestLog) => void>();
  const onLine = (line: string) => {
    if (!line.includes(`"request_id":"${options.watchPrefix}`)) return;
    // A request's own line, not the line a write deferred past its response logs once it lands.
    if (!line.includes('"d1_queries"')) return;
    const log = JSON.parse(line.slice(line.indexOf("{"))) as RequestLog;
    const resolve = waiting.get(log.request_id);
    if (resolve) {
      waiting.delete(log.request_id);
      resolve(log);
    } else watched.set(log.request_id, log);
  };

  const api = (
    name: string,
    database: string,
    limiters = true,
    requestLogs = true,
    scriptPath = options.apiScript,
  ) => ({
    name,
    modules: true,
    scriptPath,
    compatibilityDate: settings.compatibilityDate,
    compatibilityFlags: settings.compatibilityFlags,
    bindings: {
      BRAND: settings.brand,
      CORS_ALLOWED_ORIGINS: "*",
      OPERATOR_TOKEN,
      SIGNING_SECRET,
      CARD_DATA_KEYS,
    },
    // The database is the first shard; a second shard and the directory beside it.
    d1Databases: {
      DIRECTORY: `${database}-directory`,
      DB_00: database,
      DB_01: `${database}-01`,
    },
    r2Buckets: { PDFS: "bench-pdfs" },
    ...(limiters ? { ratelimits: settings.ratelimits } : {}),
    // A queue of its own (its consumer is this Worker), batched as wrangler.toml batches it.
    ...(requestLogs
      ? {
          queueProducers: { REQUEST_LOGS: { queueName: `request-logs-${name}` } },
          queueConsumers: { [`request-logs-${name}`]: settings.requestLogConsumer },
        }
      : {}),
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
  });
  // Miniflare passes V8 flags to workerd only through this variable, read as it builds the config.
  const flagsBefore = process.env.MINIFLARE_WORKERD_V8_FLAGS;
  if (options.v8Flags) process.env.MINIFLARE_WORKERD_V8_FLAGS = options.v8Flags.join(" ");
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: options.stateDir,
      ...(options.inspectorPort ? { inspectorPort: options.inspectorPort } : {}),
      enableDevRegistry: false,
      handleStructuredLogs: ({ message }) => onLine(message),
      workers: workers.map((w) =>
        w.script === "api"
          ? api(w.name, w.database, w.limiters, w.requestLogs, w.scriptPath)
          : {
              name: w.name,
              modules: true,
              scriptPath: options.floorScript,
              compatibilityDate: settings.compatibilityDate,
              compatibilityFlags: settings.compatibilityFlags,
              d1Databases: { DB: w.database },
              ...(w.limiters === false ? {} : { ratelimits: settings.ratelimits }),
              unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
            },
      ),
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  await mf.ready;
  if (flagsBefore === undefined) delete process.env.MINIFLARE_WORKERD_V8_FLAGS;
  else process.env.MINIFLARE_WORKERD_V8_FLAGS = flagsBefore;
  const urls = new Map<string, URL>();
  for (const { name } of workers) urls.set(name, await mf.unsafeGetDirectURL(name));

  return {
    url(worker) {
      const url = urls.get(worker);
      if (!url) throw new Error(`no bench Worker named ${worker}`);
      return url;
    },
    logOf(requestId) {
      const seen = watched.get(requestId);
      if (seen) {
        watched.delete(requestId);
        return Promise.resolve(seen);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no log line for ${requestId}`)), 5000);
        waiting.set(requestId, (log) => {
          clearTimeout(timer);
          resolve(log);
        });
      });
    },
    database: (worker, binding) => {
      const spec = workers.find((w) => w.name === worker);
      return mf.getD1Database(binding ?? (spec?.script === "floor" ? "DB" : "DB_00"), worker);
    },
    dispose: () => mf.dispose(),
  };
}
