// Serves the bench's Workers from Miniflare (workerd, no dev proxy): the production bundle over the
// large and the small table, and the floor Worker over the large one. Each Worker gets its own
// socket, so load reaches it without passing through Miniflare's routing entry Worker.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { ROOT } from "./build.ts";

export const OPERATOR_TOKEN = "bench-operator-token";
const SIGNING_SECRET = "bench-signing-secret-0123456789abcdefghijklmnopqrstuvwxyz";

/** D1 database ids: the million-row table and the thousand-row one. */
export const LARGE_DB = "bench-large";
export const SMALL_DB = "bench-small";

export type WorkerName = "api" | "api-small" | "floor";

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
  url(worker: WorkerName): URL;
  /** The log line of a request sent with this `x-request-id`, once the runtime has printed it. */
  logOf(requestId: string): Promise<RequestLog>;
  /** The D1 database behind one of the production Workers, to build data from Node. */
  database(worker: "api" | "api-small"): ReturnType<Miniflare["getD1Database"]>;
  dispose(): Promise<void>;
}

async function productionSettings() {
  const toml = await readFile(path.join(ROOT, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  const brand = /^BRAND\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? "service";
  if (!date) throw new Error("wrangler.toml has no compatibility_date");
  return {
    compatibilityDate: date,
    compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string),
    brand,
  };
}

/**
 * Starts workerd with the three Workers over data persisted in `stateDir`. Log lines carrying a
 * request id that starts with `watchPrefix` are kept for `logOf`; all others are dropped.
 */
export async function startServer(options: {
  stateDir: string;
  apiScript: string;
  floorScript: string;
  watchPrefix: string;
  /** Opens workerd's DevTools inspector on this port (for bench/profile.ts). */
  inspectorPort?: number;
}): Promise<BenchServer> {
  const settings = await productionSettings();
  const watched = new Map<string, RequestLog>();
  const waiting = new Map<string, (log: RequestLog) => void>();
  const onLine = (line: string) => {
    if (!line.includes(`"request_id":"${options.watchPrefix}`)) return;
    const log = JSON.parse(line.slice(line.indexOf("{"))) as RequestLog;
    const resolve = waiting.get(log.request_id);
    if (resolve) {
      waiting.delete(log.request_id);
      resolve(log);
    } else watched.set(log.request_id, log);
  };

  const api = (name: WorkerName, database: string) => ({
    name,
    modules: true,
    scriptPath: options.apiScript,
    compatibilityDate: settings.compatibilityDate,
    compatibilityFlags: settings.compatibilityFlags,
    bindings: {
      BRAND: settings.brand,
      CORS_ALLOWED_ORIGINS: "*",
      OPERATOR_TOKEN,
      SIGNING_SECRET,
    },
    d1Databases: { DB: database },
    r2Buckets: { PDFS: "bench-pdfs" },
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
  });
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: options.stateDir,
      ...(options.inspectorPort ? { inspectorPort: options.inspectorPort } : {}),
      enableDevRegistry: false,
      handleStructuredLogs: ({ message }) => onLine(message),
      workers: [
        api("api", LARGE_DB),
        api("api-small", SMALL_DB),
        {
          name: "floor",
          modules: true,
          scriptPath: options.floorScript,
          compatibilityDate: settings.compatibilityDate,
          compatibilityFlags: settings.compatibilityFlags,
          d1Databases: { DB: LARGE_DB },
          unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
        },
      ],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  await mf.ready;
  const urls = new Map<WorkerName, URL>();
  for (const name of ["api", "api-small", "floor"] as const) {
    urls.set(name, await mf.unsafeGetDirectURL(name));
  }

  return {
    url: (worker) => urls.get(worker) as URL,
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
    database: (worker) => mf.getD1Database("DB", worker),
    dispose: () => mf.dispose(),
  };
}
