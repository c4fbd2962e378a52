// workerd's DevTools inspector, as the bench uses it: CPU profiles of isolates while a load runs
// (CPU milliseconds per request) and the V8 heap of an isolate sampled while a request runs.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { SourceMap, type SourceMapPayload, type SourceMapping } from "node:module";

/** The isolates a statements request crosses: the Worker, Miniflare's D1 proxy, the D1 object. */
export const D1_ISOLATES = ["d1:db:entry", "d1:db"] as const;

/** The isolates of Miniflare's rate-limiter binding: its entry Worker and the limiter object. */
export const LIMITER_ISOLATES = ["ratelimit:ns:entry", "ratelimit:ns"] as const;

/** The profiler's sampling interval (µs). */
export const SAMPLING_MICROS = 200;

/** The inspector target name of a bench Worker's isolate. */
export const workerIsolate = (worker: string) => `core:user:${worker}`;

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
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

/**
 * How long a DevTools call may take before it fails (a profile of a busy isolate takes seconds to
 * serialise; an answer that never comes, from a runtime that died or dropped the message, used to
 * hang the bench for good).
 */
export const INSPECTOR_CALL_MS = 120_000;

/**
 * A DevTools protocol session over the inspector's WebSocket. Each call fails after `callMs`
 * without an answer, and every call fails at once when the socket closes or errs.
 */
export async function openSession(
  url: string,
  headers: Record<string, string> = {},
  callMs = INSPECTOR_CALL_MS,
): Promise<Session> {
  // Node's WebSocket takes headers as an extension of its init (wrangler's proxy wants an Origin).
  const socket = new WebSocket(url, { headers } as unknown as string[]);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`the inspector at ${url} did not open within ${callMs / 1000} s`));
    }, callMs);
    socket.addEventListener("open", () => resolve(clearTimeout(timer)));
    socket.addEventListener("error", () => {
      clearTimeout(timer);
      reject(new Error(`the inspector at ${url} refused the connection`));
    });
  });
  let next = 0;
  let closed: Error | undefined;
  const pending = new Map<number, { resolve(result: unknown): void; reject(e: Error): void }>();
  const fail = (error: Error) => {
    closed ??= error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.resolve(message.result);
  });
  socket.addEventListener("close", () => fail(new Error(`the inspector at ${url} closed`)));
  socket.addEventListener("error", () => fail(new Error(`the inspector at ${url} failed`)));
  return {
    send<T>(method: string, params: object = {}): Promise<T> {
      if (closed) return Promise.reject(closed);
      next += 1;
      const id = next;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method}: no answer from the inspector within ${callMs / 1000} s`));
        }, callMs);
        pending.set(id, {
          resolve: (result) => {
            clearTimeout(timer);
            pending.delete(id);
            resolve(result as T);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () => socket.close(),
  };
}

/** Opens a session on the named isolate of the inspector listening on `port`. */
export async function attach(port: number, isolate: string): Promise<Session> {
  const listed = await fetch(`http://127.0.0.1:${port}/json/list`, {
    signal: AbortSignal.timeout(30_000),
  });
  const targets = (await listed.json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const target = targets.find((t) => t.webSocketDebuggerUrl.endsWith(`/${isolate}`));
  if (!target) throw new Error(`no inspector target ${isolate}`);
  return openSession(target.webSocketDebuggerUrl);
}

/**
 * CPU profiles of `isolates` taken while `load` runs; `load` returns how many requests it sent.
 * Every session is closed whatever fails, so that the next profile attaches to a free isolate.
 */
export async function profileDuring(
  port: number,
  isolates: readonly string[],
  load: () => Promise<number>,
): Promise<{ requests: number; profiles: Map<string, CpuProfile> }> {
  const sessions: { isolate: string; session: Session }[] = [];
  try {
    for (const isolate of isolates) {
      const session = await attach(port, isolate);
      sessions.push({ isolate, session });
      await session.send("Profiler.enable");
      await session.send("Profiler.setSamplingInterval", { interval: SAMPLING_MICROS });
      await session.send("Profiler.start");
    }
    const requests = await load();
    const profiles = new Map<string, CpuProfile>();
    for (const { isolate, session } of sessions) {
      const { profile } = await session.send<{ profile: CpuProfile }>("Profiler.stop");
      await session.send("Profiler.disable");
      profiles.set(isolate, profile);
    }
    return { requests, profiles };
  } finally {
    for (const { session } of sessions) session.close();
  }
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

/** Where a position of a minified bundle comes from: its source (file or package) and function. */
export interface Origin {
  /** `src/app/route.ts`, or a package name for code from node_modules. */
  module: string;
  /** The function's name in the source (the minifier renames them), else the frame's. */
  name: string;
}

/**
 * Maps a frame of the bundle to its origin through the bundle's source map (wrangler writes one
 * beside the bundle), so that a profile of the minified Worker names source files and functions.
 */
export async function bundleOrigins(
  bundlePath: string,
): Promise<(frame: ProfileNode["callFrame"]) => Origin> {
  const payload = JSON.parse(await readFile(`${bundlePath}.map`, "utf8")) as SourceMapPayload;
  const map = new SourceMap(payload);
  return ({ lineNumber, columnNumber, functionName }) => {
    // Node fills `name` when the map names the position (the types leave it out).
    const entry = map.findEntry(lineNumber, columnNumber) as Partial<SourceMapping> & {
      name?: string;
    };
    const source = (entry.originalSource ?? "").replace(/^(\.\.\/)+/, "");
    if (!source) return { module: "(bundle)", name: functionName || "(anonymous)" };
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
    const line = entry.originalLine === undefined ? "" : `:${entry.originalLine + 1}`;
    return {
      module: pkg ?? source,
      name: `${entry.name || functionName || "(anonymous)"}${pkg ? ` ${source.split("/").slice(-2).join("/")}` : ""}${line}`,
    };
  };
}

/**
 * Microseconds of CPU per name, counting every name on the stack once per sample (time inside,
 * callees included), with the same capped weights as `cpuByName`.
 */
export function inclusiveCpuByName(
  profile: CpuProfile,
  nameOf: (frame: ProfileNode["callFrame"]) => string,
): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((sample, i) => {
    const leaf = byId.get(sample);
    if (!leaf || leaf.callFrame.functionName === "(idle)") return;
    const micros = Math.min(profile.timeDeltas[i] ?? 0, 2 * SAMPLING_MICROS);
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (!frame || frame.functionName === "(root)") continue;
      const name = nameOf(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      totals.set(name, (totals.get(name) ?? 0) + micros);
    }
  });
  return totals;
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
  // A runtime that dies mid-request ends the sampling (its calls fail), not the measurement.
  const sampler = (async () => {
    while (running) {
      const usage = await session.send<HeapUsage>("Runtime.getHeapUsage").catch(() => null);
      if (!usage) return;
      const used = usage.usedSize + (usage.backingStorageSize ?? 0);
      peak.usedBytes = Math.max(peak.usedBytes, used);
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

// ---- the Worker's heap, sampled from the runtime's own inspector --------------------------------

/** The process ids under `root` (itself included), read from /proc. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while being read.
    }
  }
  const tree: number[] = [];
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** The TCP ports process `pid` listens on (its sockets matched against /proc/net/tcp). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) inodes.add(inode);
    }
  } catch {
    return [];
  }
  const ports: number[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      // State 0A is LISTEN.
      if (state === "0A" && inode && inodes.has(inode))
        ports.push(parseInt(local?.split(":")[1] ?? "", 16));
    }
  }
  return ports;
}

/** An isolate on a workerd runtime's inspector, as the DevTools protocol's /json/list lists it. */
interface InspectorTarget {
  id: string;
  webSocketDebuggerUrl: string;
}

/**
 * Every isolate on the inspector of the workerd runtime that `root` (wrangler's process) started,
 * or none while there is no such runtime. The runtime's other ports serve its Workers, which
 * answer /json/list as they will, so only a list of DevTools targets counts.
 */
async function runtimeTargets(root: number): Promise<InspectorTarget[]> {
  for (const pid of processTree(root)) {
    let cmdline = "";
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (!cmdline.includes("workerd") || !cmdline.includes("--inspector-addr")) continue;
    for (const port of listeningPorts(pid)) {
      const listed: unknown = await fetch(`http://127.0.0.1:${port}/json/list`, {
        signal: AbortSignal.timeout(10_000),
      })
        .then((res) => res.json())
        .catch(() => null);
      if (!Array.isArray(listed)) continue;
      // workerd's target list, as the DevTools protocol's /json/list writes it.
      const targets = (listed as { id?: unknown; webSocketDebuggerUrl?: unknown }[]).filter(
        (t): t is InspectorTarget =>
          typeof t.id === "string" && typeof t.webSocketDebuggerUrl === "string",
      );
      if (targets.length > 0) return targets;
    }
  }
  return [];
}

/**
 * The DevTools URL of `isolate` on the inspector of the workerd runtime that `root` (wrangler's
 * process) started, or undefined while there is none. wrangler's own inspector proxy (`/ws` on
 * `--inspector-port`) is no use for this: with several `-c` configs it follows whichever Worker's
 * bundle finished last, so it may hold the session of an idle Worker beside the one under load.
 */
export async function findRuntimeTarget(
  root: number,
  isolate: string,
): Promise<string | undefined> {
  const targets = await runtimeTargets(root);
  return targets.find((t) => t.id === isolate)?.webSocketDebuggerUrl;
}

/**
 * The V8 heap (bytes: its used and free pages, what the isolate holds of the runtime's memory) of
 * every isolate of the workerd runtime under `root` but those in `skip`, by inspector id: the
 * Workers, and the Workers Miniflare runs each local binding in (`d1:db`, `r2:bucket`,
 * `queues:queue`, `ratelimit:ns`, …). An isolate whose session cannot be had (the runtime keeps
 * one per isolate, and wrangler's proxy may hold it) is left out. Each session is closed after its
 * one call.
 */
export async function isolateHeaps(
  root: number,
  skip: readonly string[] = [],
): Promise<Record<string, number>> {
  const heaps: Record<string, number> = {};
  for (const target of await runtimeTargets(root)) {
    if (skip.includes(target.id)) continue;
    try {
      const session = await openSession(target.webSocketDebuggerUrl, {}, 10_000);
      try {
        heaps[target.id] = (await session.send<HeapUsage>("Runtime.getHeapUsage")).totalSize;
      } finally {
        session.close();
      }
    } catch {
      // Held by another client, or gone: not read this time.
    }
  }
  return heaps;
}

export interface WorkerHeapSample {
  /** The V8 heap in use (bytes), garbage not yet collected included; undefined without a reading. */
  usedBytes: number | undefined;
  /** The V8 heap's size (bytes: used and free pages); undefined without a reading. */
  totalBytes?: number;
  /** The isolate the figure is from (V8's id, new for every isolate the runtime builds). */
  isolateId: string | undefined;
  /**
   * Why this reading does not continue the series before it: the session was lost and attached
   * again, the Worker runs in a new isolate (a reload), or no reading could be had.
   */
  stale?: string;
}

export interface WorkerHeapSampler {
  /** One reading; `collectGarbage` runs a full collection first, so that only live objects count. */
  sample(options?: { collectGarbage?: boolean }): Promise<WorkerHeapSample>;
  close(): void;
}

/**
 * Samples the V8 heap of `worker`'s own isolate (`core:user:<worker>`) in the workerd runtime under
 * `root`, attached straight to the runtime's inspector (and read once before it is returned).
 * Every reading checks that it still comes from the same isolate: a lost session, or a new isolate
 * after a reload, is attached to again and the reading says so (`stale`) rather than passing for
 * a continuation of the series.
 */
export async function workerHeapSampler(root: number, worker: string): Promise<WorkerHeapSampler> {
  const isolate = workerIsolate(worker);
  let session: Session | undefined;
  let attached = false;
  let lastIsolateId: string | undefined;
  /** What ended the last session, kept for the reading that attaches again. */
  let failure = "";
  const sampler: WorkerHeapSampler = {
    async sample({ collectGarbage = false } = {}) {
      const reasons: string[] = [];
      // A session lost since the last reading (a runtime restarted, a second client booted it)
      // is attached to again once within the same reading.
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          if (!session) {
            const url = await findRuntimeTarget(root, isolate);
            if (!url) throw new Error(`the runtime lists no inspector target ${isolate}`);
            session = await openSession(url, {}, 30_000);
            if (attached)
              reasons.push(`the inspector session was lost (${failure}) and attached again`);
            attached = true;
          }
          const { id } = await session.send<{ id: string }>("Runtime.getIsolateId");
          // workerd leaves HeapProfiler.collectGarbage unanswered (V8 runs it as a task the
          // runtime never schedules for the inspector); a heap snapshot collects all garbage first.
          if (collectGarbage)
            await session.send("HeapProfiler.takeHeapSnapshot", {
              reportProgress: false,
              captureNumericValue: false,
            });
          const usage = await session.send<HeapUsage>("Runtime.getHeapUsage");
          if (lastIsolateId !== undefined && id !== lastIsolateId)
            reasons.push(`the Worker runs in a new isolate (${lastIsolateId} → ${id})`);
          lastIsolateId = id;
          const stale = reasons.length > 0 ? { stale: reasons.join("; ") } : {};
          return {
            usedBytes: usage.usedSize,
            totalBytes: usage.totalSize,
            isolateId: id,
            ...stale,
          };
        } catch (error) {
          session?.close();
          session = undefined;
          failure = error instanceof Error ? error.message : String(error);
        }
      }
      return { usedBytes: undefined, isolateId: undefined, stale: `no reading: ${failure}` };
    },
    close() {
      session?.close();
      session = undefined;
    },
  };
  // A first reading before the series: when wrangler's own inspector proxy holds this isolate,
  // the first session is lost at once (and attached again), which is no news about the series.
  const first = await sampler.sample();
  if (first.usedBytes === undefined) {
    sampler.close();
    throw new Error(`cannot sample the heap of ${isolate}: ${first.stale}`);
  }
  return sampler;
}
