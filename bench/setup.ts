// What every bench entry point needs first: both bundles built as a deploy builds them, the data
// (built once, then reused), and workerd serving the Workers over it.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { type Bundle, buildWorker } from "../builds/worker.ts";
import { buildDataset, cachedDataset, clearState, type Dataset } from "./data.ts";
import { type BenchServer, READ_WORKERS, startServer, type WorkerSpec } from "./serve.ts";

export const BENCH_DIR = import.meta.dirname;
export const DATA_DIR = path.join(BENCH_DIR, ".data");
const STATE_DIR = path.join(DATA_DIR, "state");
const DATASET_FILE = path.join(DATA_DIR, "dataset.json");

export interface BenchSetup {
  bundle: Bundle;
  floor: Bundle;
  server: BenchServer;
  dataset: Dataset;
}

/**
 * workerd serving the read arms' Workers (and `extraWorkers`) over the bench's data, with its
 * DevTools inspector open on `inspectorPort` if given. The caller disposes of it.
 */
export function serveBench(
  bundle: Bundle,
  floor: Bundle,
  options: { inspectorPort?: number; extraWorkers?: readonly WorkerSpec[] } = {},
): Promise<BenchServer> {
  return startServer({
    stateDir: STATE_DIR,
    apiScript: bundle.main,
    floorScript: floor.main,
    watchPrefix: "bench-",
    workers: [...READ_WORKERS, ...(options.extraWorkers ?? [])],
    ...(options.inspectorPort ? { inspectorPort: options.inspectorPort } : {}),
  });
}

/** The caller disposes of `server` when done. */
export async function setUpBench(
  progress: (message: string) => void,
  options: {
    inspectorPort?: number;
    /** More Workers to serve over the read arms' data, beside the read arms' own. */
    extraWorkers?: readonly WorkerSpec[];
  } = {},
): Promise<BenchSetup> {
  await mkdir(DATA_DIR, { recursive: true });
  progress("building the production bundle and the floor Worker (wrangler deploy --dry-run)");
  const bundle = await buildWorker(path.join(DATA_DIR, "build", "api"));
  const floor = await buildWorker(path.join(DATA_DIR, "build", "floor"), {
    script: "bench/floor-worker.ts",
    name: "bench-floor",
  });

  let dataset = await cachedDataset(DATASET_FILE);
  if (!dataset) await clearState(STATE_DIR, DATASET_FILE);
  const server = await serveBench(bundle, floor, options);
  try {
    if (dataset) progress("reusing the data in bench/.data (same migrations and layout)");
    else {
      progress("building the data (first run only)");
      dataset = await buildDataset(server, DATASET_FILE, progress);
    }
  } catch (err) {
    await server.dispose();
    throw err;
  }
  return { bundle, floor, server, dataset };
}
