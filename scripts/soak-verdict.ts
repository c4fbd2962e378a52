// The soak's pass rule, apart from the run that feeds it (scripts/soak.ts), so that it is tested
// on series made up for the purpose: what counts as memory that keeps rising, and what counts as a
// Worker heap figure that is not a measurement at all.
import { mb } from "../bench/format.ts";
import { median } from "../bench/load.ts";

/** The runtime's memory that ends this far above the first half's peak keeps rising. */
export const GROWTH_LIMIT_BYTES = 24 * 1024 * 1024;
/** The same rule for the Worker's own V8 heap, and the most its live heap may gain in the run. */
export const HEAP_GROWTH_LIMIT_BYTES = 8 * 1024 * 1024;
/**
 * A Worker serving requests allocates megabytes a second, and its heap saw-tooths as the collector
 * runs: readings under load that all lie within this much of each other are not from that isolate.
 */
export const CONSTANT_SPREAD_BYTES = 256 * 1024;
/** How many readings taken with traffic flowing it takes to judge the Worker's heap at all. */
export const MIN_HEAP_READINGS = 10;

export interface SoakSample {
  /** Milliseconds since the traffic started (0: the reading before it). */
  at: number;
  /** Resident memory of the workerd runtime (bytes). */
  rss: number;
  /** The Worker's V8 heap in use (bytes); undefined without a reading. */
  heap: number | undefined;
  /** Why the heap reading does not continue the series (see bench/inspector.ts). */
  heapStale?: string;
  /** Requests answered so far. */
  requests: number;
}

/**
 * The runtime's memory in parts at one moment: its resident memory, and the V8 heap of each of
 * its isolates by inspector id (bench/inspector.ts, `isolateHeaps`), the API Worker's included.
 */
export interface RuntimeParts {
  /** Milliseconds since the traffic started (0: the reading before it). */
  at: number;
  rss: number;
  heaps: Record<string, number>;
}

/** The part of the runtime that is the API Worker's own isolate: the service's code. */
export const WORKER_PART = "the API Worker's heap";

/** The part of the runtime that is none of its isolates' V8 heaps. */
export const NATIVE_PART = "native memory outside every isolate's heap";

/**
 * What part of the local run an isolate belongs to: the API Worker `worker`, another Worker of
 * the run, or the Workers Miniflare runs each local binding in.
 */
export function partOf(isolate: string, worker: string): string {
  if (isolate === `core:user:${worker}`) return WORKER_PART;
  const bindings: [RegExp, string][] = [
    [/^d1:/, "D1"],
    [/^r2:bucket/, "R2"],
    [/^queues:/, "the queues"],
    [/^ratelimit:/, "the rate limiters"],
    [/^kv:/, "KV"],
    [/^assets:/, "the static assets"],
    [/^cache:/, "the cache"],
    [/^core:user:miniflare-observability-collector$/, "wrangler's local observability"],
  ];
  for (const [pattern, part] of bindings) if (pattern.test(isolate)) return part;
  const other = /^core:user:(.+)$/.exec(isolate);
  return other ? `the ${other[1]} Worker's heap` : "Miniflare's own Workers";
}

/** Each part's memory in one reading (bytes), the native part included, largest first. */
export function partTotals(
  reading: RuntimeParts,
  worker: string,
): { part: string; bytes: number }[] {
  const totals = new Map<string, number>();
  let heaps = 0;
  for (const [isolate, bytes] of Object.entries(reading.heaps)) {
    heaps += bytes;
    const part = partOf(isolate, worker);
    totals.set(part, (totals.get(part) ?? 0) + bytes);
  }
  totals.set(NATIVE_PART, reading.rss - heaps);
  return [...totals].map(([part, bytes]) => ({ part, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/**
 * How much each part of the runtime grew from `from` to `to` (bytes, may be < 0), largest first.
 * An isolate read in only one of the two counts in neither: its heap falls to the native part.
 */
export function partsGrowth(
  from: RuntimeParts,
  to: RuntimeParts,
  worker: string,
): { part: string; bytes: number }[] {
  const grown = new Map<string, number>();
  let heapsFrom = 0;
  let heapsTo = 0;
  for (const [isolate, bytes] of Object.entries(to.heaps)) {
    const before = from.heaps[isolate];
    if (before === undefined) continue;
    heapsFrom += before;
    heapsTo += bytes;
    const part = partOf(isolate, worker);
    grown.set(part, (grown.get(part) ?? 0) + bytes - before);
  }
  grown.set(NATIVE_PART, to.rss - heapsTo - (from.rss - heapsFrom));
  return [...grown].map(([part, bytes]) => ({ part, bytes })).sort((a, b) => b.bytes - a.bytes);
}

export interface SoakRun {
  /** How long the traffic ran (seconds). */
  seconds: number;
  concurrency: number;
  requests: number;
  serverErrors: number;
  samples: SoakSample[];
  /** False when the Worker's inspector was left closed: its heap is then not judged. */
  heapSampled: boolean;
  /** The Worker's live heap (after a full collection) before the traffic and after it settled. */
  liveHeap?: { start: number; end: number };
  /** The runtime read in parts, in time order: before the traffic, during it, after it settled. */
  parts?: RuntimeParts[];
  /** The API Worker's name, which tells its isolate among `parts`. */
  worker?: string;
}

export interface SoakVerdict {
  passed: boolean;
  requestsPerSecond: number;
  /** The runtime's memory: the median of the last tenth above the first half's peak (bytes). */
  runtimeGrowth: number;
  /** The same for the Worker's heap, over its readings with traffic flowing (bytes). */
  heapGrowth: number;
  /** Why the run failed, one sentence each. */
  failures: string[];
  /**
   * When the runtime's memory rose past the rule: each part's growth from mid-run to the end,
   * largest first (see `partsGrowth`); empty when it held or was not read in parts.
   */
  grewIn: { part: string; bytes: number }[];
  /** The one line that says what the run held and what it found. */
  summary: string;
}

/**
 * Keeps rising: the median of the last tenth of `series` above the highest value the first half
 * of the run reached, `start` included (bytes, may be < 0). A memory that has reached its working
 * size swings below its early peak as the collector runs; a leak keeps climbing past it.
 */
export function growthOf(
  series: { at: number; bytes: number }[],
  start: number,
  durationMs: number,
): number {
  const during = series.filter((s) => s.at > 0);
  if (during.length === 0) return 0;
  const firstHalf = during.filter((s) => s.at < durationMs / 2);
  const firstHalfPeak = Math.max(start, ...firstHalf.map((s) => s.bytes));
  const lastTenth = during.slice(-Math.max(1, Math.floor(during.length / 10)));
  return median(lastTenth.map((s) => s.bytes)) - firstHalfPeak;
}

/**
 * The Worker's heap readings that count: taken during the traffic, with requests answered since
 * the reading before, from the isolate the series began on.
 */
export function heapReadings(samples: SoakSample[]): { at: number; bytes: number }[] {
  const readings: { at: number; bytes: number }[] = [];
  samples.forEach((s, i) => {
    const before = samples[i - 1];
    if (s.at <= 0 || s.heap === undefined || s.heapStale) return;
    if (before && s.requests <= before.requests) return;
    readings.push({ at: s.at, bytes: s.heap });
  });
  return readings;
}

/**
 * Why the Worker's heap series is not a measurement, or undefined when it is one: too few
 * readings under traffic to judge, or readings that do not move while requests flow (a session
 * attached to an idle isolate reads the same figure to the byte for as long as the run lasts).
 */
export function heapSeriesProblem(samples: SoakSample[]): string | undefined {
  const readings = heapReadings(samples);
  const stale = samples.filter((s) => s.heapStale).length;
  const staleNote = stale > 0 ? ` (${stale} stale readings left out)` : "";
  if (readings.length < MIN_HEAP_READINGS) {
    return (
      `only ${readings.length} readings of the Worker's heap with traffic flowing${staleNote}, ` +
      `${MIN_HEAP_READINGS} needed to judge it`
    );
  }
  const bytes = readings.map((r) => r.bytes);
  const spread = Math.max(...bytes) - Math.min(...bytes);
  if (spread < CONSTANT_SPREAD_BYTES) {
    return (
      `the Worker's heap read ${mb(Math.min(...bytes))} in all ${readings.length} readings ` +
      `taken with traffic flowing (spread ${(spread / 1024).toFixed(0)} KB, under ` +
      `${CONSTANT_SPREAD_BYTES / 1024} KB)${staleNote}: the figure is not from the isolate ` +
      "serving the requests"
    );
  }
  return undefined;
}

/**
 * The soak's verdict. It fails on any 5xx; on runtime memory that keeps rising (`growthOf` above
 * 24 MB), unless the runtime's parts read at mid-run and at the end name where it grew and that
 * is not the API Worker's heap (`partsGrowth`); and, when the Worker's heap is sampled, on a heap
 * series that is no measurement (`heapSeriesProblem`) or a heap that does not end flat: its
 * readings under traffic keep rising (`growthOf` above 8 MB) or its live heap after a full
 * collection ends more than 8 MB above where it started.
 */
export function soakVerdict(run: SoakRun): SoakVerdict {
  const requestsPerSecond = run.seconds > 0 ? run.requests / run.seconds : 0;
  const durationMs = run.seconds * 1000;
  const start = run.samples[0];
  const failures: string[] = [];
  if (run.serverErrors > 0) failures.push(`${run.serverErrors} server errors (5xx)`);

  const runtimeGrowth = growthOf(
    run.samples.map((s) => ({ at: s.at, bytes: s.rss })),
    start?.rss ?? 0,
    durationMs,
  );
  // Memory the runtime keeps that is not the API Worker's is the local tooling's (Miniflare runs
  // each binding in Workers of its own, beside workerd's native memory): named, it does not fail
  // the run; memory that rose in the API Worker's heap, or that cannot be told apart, does.
  let grewIn: { part: string; bytes: number }[] = [];
  let runtimeLine = "runtime memory steady";
  if (runtimeGrowth > GROWTH_LIMIT_BYTES) {
    const rose = `runtime memory kept rising: ${mb(runtimeGrowth)} above the first half's peak`;
    const parts = run.parts ?? [];
    const mid = parts.filter((p) => p.at <= durationMs / 2).at(-1);
    const end = parts.at(-1);
    if (!mid || !end || end === mid) {
      failures.push(`${rose}, and the runtime was not read in parts to name what grew`);
    } else {
      grewIn = partsGrowth(mid, end, run.worker ?? "");
      const named = grewIn
        .filter((g) => g.bytes > 0)
        .slice(0, 3)
        .map((g) => `${g.part} +${mb(g.bytes)}`)
        .join(", ");
      const largest = grewIn[0];
      if (largest?.part === WORKER_PART)
        failures.push(`${rose}, most of it in the API Worker's heap (${named})`);
      else
        runtimeLine = `runtime memory rose ${mb(runtimeGrowth)} after its first half, not in the API Worker: from mid-run to the end, ${named}`;
    }
  }
  let heapGrowth = 0;
  let heapLine = "the Worker's heap not sampled";
  let heapMeasured = false;
  if (run.heapSampled) {
    const readings = heapReadings(run.samples);
    const problem = heapSeriesProblem(run.samples);
    heapGrowth = growthOf(readings, start?.heap ?? 0, durationMs);
    if (problem) failures.push(problem);
    else if (heapGrowth > HEAP_GROWTH_LIMIT_BYTES)
      failures.push(`the Worker's heap kept rising: ${mb(heapGrowth)} above the first half's peak`);
    const live = run.liveHeap;
    if (!live)
      failures.push("no live heap of the Worker (after a full collection) at start and end");
    else if (live.end - live.start > HEAP_GROWTH_LIMIT_BYTES)
      failures.push(
        `the Worker's live heap ended ${mb(live.end - live.start)} above its start ` +
          `(${mb(live.start)} → ${mb(live.end)} after a full collection)`,
      );
    if (!problem && readings.length > 0) {
      heapMeasured = true;
      const bytes = readings.map((r) => r.bytes);
      heapLine =
        `the Worker's heap moving ${mb(Math.min(...bytes))}–${mb(Math.max(...bytes))} ` +
        `over ${readings.length} readings` +
        (live ? `, live ${mb(live.start)} → ${mb(live.end)}` : "");
    }
  }

  const held =
    `${requestsPerSecond.toFixed(0)} requests/s for ${run.seconds.toFixed(0)} s ` +
    `(${run.requests} requests, ${run.concurrency} clients)`;
  const passed = failures.length === 0;
  const summary = passed
    ? `✔ held ${held}: no 5xx, ${runtimeLine}, ${heapLine}, ending flat`
    : `✖ at ${held}: ${[...failures, ...(heapMeasured ? [heapLine] : [])].join("; ")}`;
  return { passed, requestsPerSecond, runtimeGrowth, heapGrowth, failures, grewIn, summary };
}
