// How many requests each version served, kept cheaply: counted in the isolate's memory and added
// to a daily counter row at most once per interval, after the response (waitUntil), on the shard
// of the partner that made the request. No request waits for, or pays, a D1 write; counts an
// isolate holds when it is evicted are lost. The operator's reads sum every shard, so a count
// lands wherever its partner lived when it was counted.
import { addVersionUsage, type VersionUsageCount } from "../db/version-usage";
import type { Environment } from "../domain/environment";

export interface VersionUsageOptions {
  /** The shortest time between two writes from one isolate. Default 60 seconds. */
  flushEveryMs?: number;
}

/** One request served: in which version, for whom (on which shard), when. */
export interface ServedRequest {
  version: string;
  partnerId: string;
  environment: Environment;
  shard: string;
  now: Date;
}

/** Where counts are written, and how a write outlives the response. */
export interface UsageSink {
  /** The database of shard `code` (null: none, and its counts are dropped). */
  shard(code: string): D1Database | null;
  /** `waitUntil` of the request's execution context; may throw when there is none. */
  waitUntil(write: Promise<unknown>): void;
}

export interface VersionUsage {
  /** Counts one request; may schedule a write to `sink`. */
  record(request: ServedRequest, sink: UsageSink): void;
}

export function createVersionUsage(options: VersionUsageOptions = {}): VersionUsage {
  const interval = options.flushEveryMs ?? 60_000;
  let counts = new Map<string, VersionUsageCount & { shard: string }>();
  let lastFlush: number | undefined;

  /** Puts counts whose write failed back, for the next write. */
  const keep = (pending: Map<string, VersionUsageCount & { shard: string }>) => {
    for (const [k, v] of pending) {
      const kept = counts.get(k);
      if (kept) kept.requests += v.requests;
      else counts.set(k, v);
    }
  };

  return {
    record({ version, partnerId, environment, shard, now }, sink) {
      const day = now.toISOString().slice(0, 10);
      const key = `${shard} ${day} ${version} ${environment} ${partnerId}`;
      const count = counts.get(key);
      if (count) count.requests += 1;
      else counts.set(key, { day, version, partnerId, environment, shard, requests: 1 });

      lastFlush ??= now.getTime();
      const since = now.getTime() - lastFlush;
      // A clock that went back (a new isolate's, a test's) writes too, rather than never.
      if (since >= 0 && since < interval) return;
      lastFlush = now.getTime();
      const byShard = new Map<string, Map<string, VersionUsageCount & { shard: string }>>();
      for (const [k, v] of counts) {
        const group = byShard.get(v.shard) ?? new Map();
        group.set(k, v);
        byShard.set(v.shard, group);
      }
      counts = new Map();
      // One batch per shard; a shard that fails keeps its counts, the others are written.
      const write = Promise.all(
        [...byShard].map(async ([shard, pending]) => {
          const binding = sink.shard(shard);
          if (!binding) return;
          try {
            await addVersionUsage(binding, [...pending.values()], now);
          } catch (err) {
            keep(pending);
            console.error(
              JSON.stringify({ version_usage: "write failed", shard, error: String(err) }),
            );
          }
        }),
      );
      try {
        sink.waitUntil(write);
      } catch {
        // No execution context (the app called directly): the write goes on by itself.
      }
    },
  };
}
