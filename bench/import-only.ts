// `npm run bench:import`: the import arms alone, printed as JSON (BENCH_IMPORT_STATEMENTS sets how
// many statements each table grows to; 100,000 by default). npm run bench runs them too.
import path from "node:path";
import { buildWorker } from "./build.ts";
import { runImportArms } from "./import.ts";
import { DATA_DIR } from "./setup.ts";

const total = Number(process.env.BENCH_IMPORT_STATEMENTS ?? 100_000);
const api = await buildWorker(path.join(DATA_DIR, "build", "api"));
const floor = await buildWorker(path.join(DATA_DIR, "build", "floor"), {
  script: "bench/floor-worker.ts",
  name: "bench-floor",
});
const results = await runImportArms({
  dataDir: DATA_DIR,
  apiScript: api.main,
  floorScript: floor.main,
  total,
  progress: console.log,
});
const { service, floor: floorSamples, ...rest } = results;
console.log(JSON.stringify(rest, null, 1));
console.log("service ms", service.map((s) => Math.round(s.ms)).join(" "));
console.log("service d1", service.map((s) => Math.round(s.longestD1Ms)).join(" "));
console.log("floor ms", floorSamples.map((s) => Math.round(s.ms)).join(" "));
