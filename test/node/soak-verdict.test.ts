// The soak's pass rule (scripts/soak-verdict.ts) on made-up series: the request rate it states,
// memory that keeps rising, and a Worker heap figure that is no measurement.
import { describe, expect, it } from "vitest";
import {
  CONSTANT_SPREAD_BYTES,
  growthOf,
  heapSeriesProblem,
  NATIVE_PART,
  partOf,
  partsGrowth,
  type RuntimeParts,
  type SoakRun,
  type SoakSample,
  soakVerdict,
} from "../../scripts/soak-verdict.ts";

const MB = 2 ** 20;

/** A run of `count` samples 5 s apart, 100 requests between each, with the given heap figures. */
function run(heap: (i: number) => number | undefined, count = 24): SoakRun {
  const samples: SoakSample[] = Array.from({ length: count + 1 }, (_, i) => ({
    at: i * 5000,
    rss: 300 * MB,
    heap: heap(i),
    requests: i * 100,
  }));
  return {
    seconds: count * 5,
    concurrency: 8,
    requests: count * 100,
    serverErrors: 0,
    samples,
    heapSampled: true,
    liveHeap: { start: 9 * MB, end: 10 * MB },
  };
}

/** A heap that saw-tooths between 10 and 40 MB as the collector runs. */
const sawTooth = (i: number) => (10 + ((i * 7) % 30)) * MB;

describe("soakVerdict", () => {
  it("passes a saw-toothing heap that ends flat, stating the request rate it held", () => {
    const verdict = soakVerdict(run(sawTooth));
    expect(verdict.failures).toEqual([]);
    expect(verdict.passed).toBe(true);
    expect(verdict.requestsPerSecond).toBe(20);
    expect(verdict.summary).toMatch(
      /^✔ held 20 requests\/s for 120 s \(2400 requests, 8 clients\)/,
    );
    expect(verdict.summary).toContain("live 9.0 MB → 10.0 MB");
  });

  it("fails a heap that reads the same in every sample while traffic flows, saying why", () => {
    const verdict = soakVerdict(run(() => 15.1 * MB));
    expect(verdict.passed).toBe(false);
    expect(verdict.summary).toMatch(/^✖ at 20 requests\/s for 120 s/);
    expect(verdict.failures).toEqual([
      expect.stringMatching(
        /heap read 15\.1 MB in all 24 readings taken with traffic flowing .* not from the isolate serving the requests/,
      ),
    ]);
  });

  it("fails a heap whose readings spread less than the threshold", () => {
    const tiny = CONSTANT_SPREAD_BYTES / 2;
    const verdict = soakVerdict(run((i) => 15 * MB + (i % 2) * tiny));
    expect(verdict.failures.join()).toMatch(/not from the isolate serving the requests/);
  });

  it("fails when too few readings were taken with traffic flowing to judge the heap", () => {
    const verdict = soakVerdict(run(sawTooth, 6));
    expect(verdict.failures).toEqual([
      "only 6 readings of the Worker's heap with traffic flowing, 10 needed to judge it",
    ]);
  });

  it("leaves out stale readings and readings with no traffic since the one before", () => {
    const stalled = run(sawTooth);
    for (const s of stalled.samples.slice(1)) s.requests = 100;
    expect(heapSeriesProblem(stalled.samples)).toMatch(/^only 1 readings/);

    const stale = run(sawTooth);
    stale.samples.forEach((s, i) => {
      if (i > 5) s.heapStale = "the Worker runs in a new isolate (1 → 2)";
    });
    expect(heapSeriesProblem(stale.samples)).toBe(
      "only 5 readings of the Worker's heap with traffic flowing (19 stale readings left out), " +
        "10 needed to judge it",
    );
  });

  it("fails a heap that keeps rising past its first half's peak", () => {
    const verdict = soakVerdict(run((i) => (10 + i) * MB));
    expect(verdict.heapGrowth).toBeGreaterThan(8 * MB);
    expect(verdict.failures).toEqual([
      expect.stringMatching(
        /^the Worker's heap kept rising: 1\d\.\d MB above the first half's peak$/,
      ),
    ]);
  });

  it("fails a live heap that ends more than 8 MB above its start", () => {
    const verdict = soakVerdict({ ...run(sawTooth), liveHeap: { start: 9 * MB, end: 18 * MB } });
    expect(verdict.failures).toEqual([
      "the Worker's live heap ended 9.0 MB above its start (9.0 MB → 18.0 MB after a full collection)",
    ]);
  });

  it("fails on 5xx and on runtime memory that keeps rising", () => {
    const rising = run(sawTooth);
    rising.serverErrors = 3;
    rising.samples.forEach((s, i) => {
      s.rss = (300 + 10 * i) * MB;
    });
    const verdict = soakVerdict(rising);
    expect(verdict.summary).toMatch(
      /; the Worker's heap moving 11\.0 MB–39\.0 MB over 24 readings, live 9\.0 MB → 10\.0 MB$/,
    );
    expect(verdict.failures.slice(0, 2)).toEqual([
      "3 server errors (5xx)",
      expect.stringMatching(
        /^runtime memory kept rising: 1\d\d\.\d MB above the first half's peak, and the runtime was not read in parts to name what grew$/,
      ),
    ]);
  });

  /** The runtime read in parts at `at`: each isolate's heap and the resident memory, in MB. */
  const parts = (at: number, rss: number, heaps: Record<string, number>): RuntimeParts => ({
    at,
    rss: rss * MB,
    heaps: Object.fromEntries(Object.entries(heaps).map(([id, mb]) => [id, mb * MB])),
  });
  /** A run whose runtime memory climbs 10 MB a sample, read in parts before, mid-run and after. */
  const risingWith = (mid: Record<string, number>, end: Record<string, number>): SoakRun => {
    const rising = run(sawTooth);
    rising.samples.forEach((s, i) => {
      s.rss = (300 + 10 * i) * MB;
    });
    return {
      ...rising,
      worker: "api",
      parts: [
        parts(0, 300, { "core:user:api": 10, "d1:db": 20 }),
        parts(60_000, 420, mid),
        parts(120_000, 540, end),
      ],
    };
  };

  it("names where the runtime grew and passes when that is not the API Worker's heap", () => {
    const verdict = soakVerdict(
      risingWith(
        { "core:user:api": 30, "d1:db": 20, "queues:queue": 5, "core:entry": 4 },
        { "core:user:api": 31, "d1:db": 50, "queues:queue": 6, "core:entry": 4 },
      ),
    );
    expect(verdict.failures).toEqual([]);
    expect(verdict.passed).toBe(true);
    // 120 MB more resident memory: D1's isolate took 30, the queues' 1, the API Worker's 1.
    expect(verdict.grewIn).toEqual([
      { part: NATIVE_PART, bytes: 88 * MB },
      { part: "D1", bytes: 30 * MB },
      { part: "the API Worker's heap", bytes: 1 * MB },
      { part: "the queues", bytes: 1 * MB },
      { part: "Miniflare's own Workers", bytes: 0 },
    ]);
    expect(verdict.summary).toMatch(
      new RegExp(
        "^✔ held 20 requests/s .*: no 5xx, runtime memory rose 1\\d\\d\\.\\d MB after its first " +
          `half, not in the API Worker: from mid-run to the end, ${NATIVE_PART} \\+88\\.0 MB, ` +
          "D1 \\+30\\.0 MB, the API Worker's heap \\+1\\.0 MB, the Worker's heap moving",
      ),
    );
  });

  it("fails runtime memory that rose most in the API Worker's heap, naming it", () => {
    const verdict = soakVerdict(
      risingWith({ "core:user:api": 30, "d1:db": 20 }, { "core:user:api": 140, "d1:db": 20 }),
    );
    expect(verdict.passed).toBe(false);
    expect(verdict.failures).toEqual([
      expect.stringMatching(
        /^runtime memory kept rising: .*, most of it in the API Worker's heap \(the API Worker's heap \+110\.0 MB, native memory outside every isolate's heap \+10\.0 MB\)$/,
      ),
    ]);
  });

  it("fails runtime memory that rose when it was read in parts only once", () => {
    const rising = risingWith({}, {});
    const verdict = soakVerdict({ ...rising, parts: rising.parts?.slice(0, 1) });
    expect(verdict.failures.join()).toMatch(/not read in parts to name what grew$/);
  });

  it("judges no heap when the Worker's inspector was left closed", () => {
    const verdict = soakVerdict({ ...run(() => undefined), heapSampled: false });
    expect(verdict.passed).toBe(true);
    expect(verdict.summary).toContain("the Worker's heap not sampled");
  });
});

describe("partOf and partsGrowth", () => {
  it("tells each isolate's part: the API Worker, another Worker, a binding, Miniflare's own", () => {
    expect(partOf("core:user:api", "api")).toBe("the API Worker's heap");
    expect(partOf("core:user:renderer", "api")).toBe("the renderer Worker's heap");
    expect(partOf("d1:db:entry", "api")).toBe("D1");
    expect(partOf("r2:bucket", "api")).toBe("R2");
    expect(partOf("queues:queue:request-logs", "api")).toBe("the queues");
    expect(partOf("ratelimit:ns", "api")).toBe("the rate limiters");
    expect(partOf("core:user:miniflare-observability-collector", "api")).toBe(
      "wrangler's local observability",
    );
    expect(partOf("core:entry", "api")).toBe("Miniflare's own Workers");
  });

  it("leaves an isolate read only once to the native part", () => {
    const grown = partsGrowth(
      { at: 0, rss: 100 * MB, heaps: { "d1:db": 10 * MB, "r2:bucket": 5 * MB } },
      { at: 1, rss: 130 * MB, heaps: { "d1:db": 12 * MB } },
      "api",
    );
    // Native: (130 − 12) − (100 − 10) = 28 MB, R2's heap (read once) among it.
    expect(grown).toEqual([
      { part: NATIVE_PART, bytes: 28 * MB },
      { part: "D1", bytes: 2 * MB },
    ]);
  });
});

describe("growthOf", () => {
  it("measures the median of the last tenth against the first half's peak", () => {
    const series = Array.from({ length: 20 }, (_, i) => ({
      at: (i + 1) * 1000,
      bytes: i < 10 ? 50 : 30,
    }));
    expect(growthOf(series, 40, 20_000)).toBe(-20);
    expect(growthOf([], 40, 20_000)).toBe(0);
  });
});
