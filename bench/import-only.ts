// `npm run bench:import`: the import arms alone, printed as JSON (BENCH_IMPORT_STATEMENTS sets how
// many statements each table grows to; 100,000 by default). npm run bench runs them too.
// `npm run bench:import -- --line-items`: the line items import arm alone (statements of 30 line
// items; BENCH_IMPORT_LINE_ITEMS sets how many line items each table grows to, 1,000,000 unless
// told), its figures saved to bench/.data/import-line-items.json as each request pair finishes.
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buildWorker } from "../builds/worker.ts";
import { runImportArms } from "./import.ts";
import { runLineItemImport } from "./import-line-items.ts";
import { DATA_DIR } from "./setup.ts";

const api = await buildWorker(path.join(DATA_DIR, "build", "api"));
const floor = await buildWorker(path.join(DATA_DIR, "build", "floor"), {
  script: "bench/floor-worker.ts",
  name: "bench-floor",
});
if (process.argv.includes("--line-items")) {
  const file = path.join(DATA_DIR, "import-line-items.json");
  const loads: number[][] = [os.loadavg()];
  const results = await runLineItemImport({
    dataDir: DATA_DIR,
    apiScript: api.main,
    floorScript: floor.main,
    totalLineItems: Number(process.env.BENCH_IMPORT_LINE_ITEMS ?? 1_000_000),
    progress: (message) => console.log(`[${new Date().toISOString()}] ${message}`),
    onRequest: async (partial) => {
      loads.push(os.loadavg());
      await writeFile(file, JSON.stringify({ date: new Date(), loads, ...partial }));
    },
  });
  loads.push(os.loadavg());
  await writeFile(file, JSON.stringify({ date: new Date(), loads, ...results }));
  const { service, floor: floorSamples, ...rest } = results;
  console.log(JSON.stringify(rest, null, 1));
  console.log("service ms", service.map((s) => Math.round(s.ms)).join(" "));
  console.log("floor ms", floorSamples.map((s) => Math.round(s.ms)).join(" "));
  console.log(
    "load average (1 min) before, during and after:",
    loads.map((l) => (l[0] as number).toFixed(1)).join(" "),
  );
} else {
  const total = Number(process.env.BENCH_IMPORT_STATEMENTS ?? 100_000);
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
}
