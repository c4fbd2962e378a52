// How many requests each version served, kept cheaply: counted in the isolate's memory and added
// to a daily counter row at most once per interval, after the response (waitUntil). No request
// waits for, or pays, a D1 write; counts an isolate holds when it is evicted are lost.
import { addVersionUsage, type VersionUsageCount } from "../db/version-usage";
import type { Environment } from "../domain/environment";

export interface VersionUsageOptions {
  /** The shortest time between two writes from one isolate. Default 60 seconds. */
  flushEveryMs?: number;
}

/** One request served: in which version, for whom, when. */
export interface ServedRequest {
  version: string;
  partnerId: string;
  environment: Environment;
  now: Date;
}

/** Where counts are written, and how a write outlives the response. */
export interface UsageSink {
  db: D1Database;
  /** `waitUntil` of the request's execution context; may throw when there is none. */
  waitUntil(write: Promise<unknown>): void;
}

export interface VersionUsage {
  /** Counts one request; may schedule a write to `sink`. */
  record(request: ServedRequest, sink: UsageSink): void;
}

export function createVersionUsage(options: VersionUsageOptions = {}): VersionUsage {
  const interval = options.flushEveryMs ?? 60_000;
  let counts = new Map<string, VersionUsageCount>();
  let lastFlush: number | undefined;

  return {
    record({ version, partnerId, environment, now }, sink) {
      const day = now.toISOString().slice(0, 10);
      const key = `${day} ${version} ${environment} ${partnerId}`;
      const count = counts.get(key);
      if (count) count.requests += 1;
      else counts.set(key, { day, version, partnerId, environment, requests: 1 });

      lastFlush ??= now.getTime();
      const since = now.getTime() - lastFlush;
      // A clock that went back (a new isolate's, a test's) writes too, rather than never.
      if (since >= 0 && since < interval) return;
      lastFlush = now.getTime();
      const pending = counts;
      counts = new Map();
      const write = addVersionUsage(sink.db, [...pending.values()], now).catch((err) => {
        // Put them back for the next write; storage may be briefly unavailable.
        for (const [k, v] of pending) {
          const kept = counts.get(k);
          if (kept) kept.requests += v.requests;
          else counts.set(k, v);
        }
        console.error(JSON.stringify({ version_usage: "write failed", error: String(err) }));
      });
      try {
        sink.waitUntil(write);
      } catch {
        // No execution context (the app called directly): the write goes on by itself.
      }
    },
  };
}
