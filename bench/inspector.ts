// workerd's DevTools inspector, as the bench uses it: CPU profiles of isolates while a load runs
// (CPU milliseconds per request) and the V8 heap of an isolate sampled while a request runs.
import { readFile } from "node:fs/promises";

/** The isolates a statements request crosses: the Worker, Miniflare's D1 proxy, the D1 object. */
export const D1_ISOLATES = ["d1:db:entry", "d1:db"] as const;

/** The profiler's sampling interval (µs). */
export const SAMPLING_MICROS = 200;

/** The inspector target name of a bench Worker's isolate. */
export const workerIsolate = (worker: string) => `core:user:${worker}`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Session {
  send<T>(method: string, params?: object): Promise<T>;
  close(): void;
}

/** A DevTools protocol session over the inspector's WebSocket. */
export async function openSession(
  url: string,
  headers: Record<string, string> = {},
): Promise<Session> {
  // Node's WebSocket takes headers as an extension of its init (wrangler's proxy wants an Origin).
  const socket = new WebSocket(url, { headers } as unknown as string[]);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve);
    socket.addEventListener("error", reject);
  });
  let next = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  return {
    send<T>(method: string, params: object = {}): Promise<T> {
      next += 1;
      const id = next;
      return new Promise((resolve) => {
        pending.set(id, (result) => {
          pending.delete(id);
          resolve(result as T);
        });
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () => socket.close(),
  };
}

/** Opens a session on the named isolate of the inspector listening on `port`. */
export async function attach(port: number, isolate: string): Promise<Session> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const target = targets.find((t) => t.webSocketDebuggerUrl.endsWith(`/${isolate}`));
  if (!target) throw new Error(`no inspector target ${isolate}`);
  return openSession(target.webSocketDebuggerUrl);
}

/** CPU profiles of `isolates` taken while `load` runs; `load` returns how many requests it sent. */
export async function profileDuring(
  port: number,
  isolates: readonly string[],
  load: () => Promise<number>,
): Promise<{ requests: number; profiles: Map<string, CpuProfile> }> {
  const sessions = await Promise.all(
    isolates.map(async (isolate) => {
      const session = await attach(port, isolate);
      await session.send("Profiler.enable");
      await session.send("Profiler.setSamplingInterval", { interval: SAMPLING_MICROS });
      await session.send("Profiler.start");
      return { isolate, session };
    }),
  );
  const requests = await load();
  const profiles = new Map<string, CpuProfile>();
  for (const { isolate, session } of sessions) {
    const { profile } = await session.send<{ profile: CpuProfile }>("Profiler.stop");
    await session.send("Profiler.disable");
    session.close();
    profiles.set(isolate, profile);
  }
  return { requests, profiles };
}

/**
 * Microseconds of CPU by name (module, or module: function), idle excluded; and the busy total.
 * A sample's weight is the time since the previous one, but at most two sampling intervals: on
 * a loaded machine the isolate's thread waits for a core between samples, and that wait is not
 * CPU the isolate spent.
 */
export function cpuByName(
  profile: CpuProfile,
  nameOf: (frame: ProfileNode["callFrame"]) => string,
): { busyMicros: number; byName: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byName = new Map<string, number>();
  let busyMicros = 0;
  profile.samples.forEach((sample, i) => {
    const frame = byId.get(sample)?.callFrame;
    if (!frame || frame.functionName === "(idle)") return;
    const micros = Math.min(profile.timeDeltas[i] ?? 0, 2 * SAMPLING_MICROS);
    busyMicros += micros;
    const name = nameOf(frame);
    byName.set(name, (byName.get(name) ?? 0) + micros);
  });
  return { busyMicros, byName };
}

/** Maps a line of a bundle to the module esbuild placed there (its `// path` header). */
export async function bundleModules(bundlePath: string): Promise<(line: number) => string> {
  const headers: [number, string][] = [];
  (await readFile(bundlePath, "utf8")).split("\n").forEach((text, index) => {
    const match = /^\/\/ ((?:node_modules|src|versions)\/\S+)$/.exec(text);
    if (match?.[1]) {
      const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(match[1])?.[1];
      headers.push([index, pkg ?? match[1]]);
    }
  });
  return (line) => {
    let name = "(bundle prelude)";
    for (const [start, module] of headers) {
      if (start > line) break;
      name = module;
    }
    return name;
  };
}

export interface HeapPeak {
  /**
   * The most memory seen in use while the work ran (bytes): the V8 heap's used size plus the
   * backing stores of ArrayBuffers (request bodies, encoded text), which live outside that heap.
   */
  usedBytes: number;
  /** The largest V8 heap size (used and free pages) seen meanwhile (bytes). */
  totalBytes: number;
  /** How many samples were taken. */
  samples: number;
}

interface HeapUsage {
  usedSize: number;
  totalSize: number;
  backingStorageSize?: number;
}

/**
 * Samples the memory of `isolate` while `work` runs. The inspector answers between JavaScript
 * turns, so a peak inside one long synchronous step is seen only if it outlives that step; garbage
 * not yet collected counts, as it does against the isolate's limit.
 */
export async function heapPeakDuring<T>(
  port: number,
  isolate: string,
  work: () => Promise<T>,
): Promise<{ result: T; peak: HeapPeak }> {
  const session = await attach(port, isolate);
  const peak: HeapPeak = { usedBytes: 0, totalBytes: 0, samples: 0 };
  let running = true;
  const sampler = (async () => {
    while (running) {
      const usage = await session.send<HeapUsage>("Runtime.getHeapUsage");
      peak.usedBytes = Math.max(peak.usedBytes, usage.usedSize + (usage.backingStorageSize ?? 0));
      peak.totalBytes = Math.max(peak.totalBytes, usage.totalSize);
      peak.samples += 1;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  try {
    const result = await work();
    return { result, peak };
  } finally {
    running = false;
    await sampler;
    session.close();
  }
}
