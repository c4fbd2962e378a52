// One benchmark run's measurements: their shape, and their JSON file (Maps kept as entry lists),
// which the report is written from.
import { readFile, writeFile } from "node:fs/promises";
import type { Bundle, StartupProfile } from "../builds/worker.ts";
import type { Arm } from "./arms.ts";
import type { CpuRounds } from "./cpu.ts";
import type { ImportResults } from "./import.ts";
import type { Measurement } from "./load.ts";
import type { RequestCost } from "./probe.ts";
import type { RequestLogFigures } from "./request-log.ts";

export interface RunResults {
  date: Date;
  settings: {
    rounds: number;
    seconds: number;
    warmupSeconds: number;
    connections: number;
    cpuRounds: number;
    cpuSeconds: number;
    /** The timed rounds ran with workerd's inspector open (every run before this setting did). */
    inspectorInRounds?: boolean;
  };
  load: { before: number[]; after: number[] };
  durationSeconds: number;
  arms: Arm[];
  rounds: Map<string, Measurement>[];
  cpu: CpuRounds;
  costs: RequestCost[];
  /** The line items pages' D1 cost, first page and deep (absent in runs before them). */
  lineItemCosts?: RequestCost[];
  /** The request log's growth over the rounds and its delay (absent in runs before it). */
  requestLog?: RequestLogFigures;
  bundle: Bundle;
  startup: StartupProfile | null;
  tables: { large: number; small: number };
  imports: ImportResults;
  /** The steps (or arms) that failed or overran their time limit, with why. */
  failures?: Record<string, string>;
  /** False while the run is still going (RESULTS.md is written after every step). */
  finished?: boolean;
  /** The last shard migration of the tree measured (see scripts/bench-freshness.ts). */
  schema?: string;
  /** What ran, when only some arms did (`npm run bench:arms`); absent for a full run. */
  partial?: string;
}

/** Writes the run's measurements as JSON (its Maps as entry lists). */
export async function saveResults(file: string, results: RunResults): Promise<void> {
  const replacer = (_key: string, value: unknown) =>
    value instanceof Map ? { $map: [...value] } : value;
  await writeFile(file, JSON.stringify(results, replacer));
}

export async function loadResults(file: string): Promise<RunResults> {
  const reviver = (_key: string, value: unknown) =>
    value && typeof value === "object" && "$map" in value
      ? new Map((value as { $map: [unknown, unknown][] }).$map)
      : value;
  const results = JSON.parse(await readFile(file, "utf8"), reviver) as RunResults;
  results.date = new Date(results.date);
  return results;
}
