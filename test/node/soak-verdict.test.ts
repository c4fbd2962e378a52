// The soak's pass rule (scripts/soak-verdict.ts) on made-up series: the request rate it states,
// memory that keeps rising, and a Worker heap figure that is no measurement.
import { describe, expect, it } from "vitest";
import {
  CONSTANT_SPREAD_BYTES,
  growthOf,
  heapSeriesProblem,
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
        /^runtime memory kept rising: 1\d\d\.\d MB above the first half's peak$/,
      ),
    ]);
  });

  it("judges no heap when the Worker's inspector was left closed", () => {
    const verdict = soakVerdict({ ...run(() => undefined), heapSampled: false });
    expect(verdict.passed).toBe(true);
    expect(verdict.summary).toContain("the Worker's heap not sampled");
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
