// The figures of the earlier recorded run (bench/RESULTS.md of 2026-11-26, before statement
// events, key expiry, rate limits and date filters joined the measured paths), shown next to each
// new run's so that RESULTS.md keeps both.
export const EARLIER = {
  date: "2026-11-26",
  statementsVsFloor: { 10: "0.67", 100: "0.87" },
  /** Profiled Worker CPU per statements request, and its ratio to the floor's. */
  workerCpu: { 10: "2.78 (0.78 ms vs 0.29 ms)", 100: "2.74 (1.53 ms vs 0.58 ms)" },
  import: "1.11 median, lowest 1.04 (a floor writing statements only; the import wrote no events)",
  largestImport: "114.2 MB; passed at 64 MB",
  longestD1: "0.93 s; 0.60 s",
  depth: "1.00",
  tableSize: "0.91",
  versionChain: "1.12",
  cost: "max 1 round trip; limit + 4 rows",
  bundle: "124.6 KiB",
  requestLog: "new",
} as const;
