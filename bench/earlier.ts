// The figures of the earlier recorded run (bench/RESULTS.md of 2026-11-25 and the profiles in
// bench/README.md's findings), shown next to each new run's so that RESULTS.md keeps both.
export const EARLIER = {
  date: "2026-11-25",
  statementsVsFloor: { 10: "0.64", 100: "0.55" },
  /** Profiled Worker CPU per statements request; the floor's was not profiled then. */
  workerCpu: { 10: "4.1 ms (floor not profiled)", 100: "8.1 ms (floor not profiled)" },
  import: "about 5,000 statements/s (5,000-statement requests, table growing to 200,000); no floor",
  largestImport: "not measured",
  depth: "1.07",
  tableSize: "0.94",
  versionChain: "1.01",
  cost: "max 1 round trip; limit + 4 rows",
  bundle: "122.7 KiB",
} as const;
