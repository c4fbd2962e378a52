// `npm run bench:sql-time`: how long a statements page holds the database, the figure that bounds
// one D1 database's request rate (docs/scale.md). Sends N pages at limit 10 and 100 over the
// bench's 1,000,000-statement table and reports SQLite's time per request from the log line
// (`d1_sql_ms`, D1's `meta.timings.sql_duration_ms`). Run it when `npm run bench` is not running.
import path from "node:path";
import { buildWorker } from "./build.ts";
import { cachedDataset, MAIN_ACCOUNT } from "./data.ts";
import { median } from "./load.ts";
import { statementsPath } from "./probe.ts";
import { startServer } from "./serve.ts";
import { DATA_DIR, STATE_DIR } from "./setup.ts";

const REQUESTS = Number(process.env.BENCH_SQL_REQUESTS ?? 1000);

const dataset = await cachedDataset(path.join(DATA_DIR, "dataset.json"));
if (!dataset) throw new Error("no bench data: run npm run bench (or bench:profile) once first");
const api = await buildWorker(path.join(DATA_DIR, "build", "sql-time"));
const floor = await buildWorker(path.join(DATA_DIR, "build", "sql-time-floor"), {
  script: "bench/floor-worker.ts",
  name: "bench-floor",
});
const server = await startServer({
  stateDir: STATE_DIR,
  apiScript: api.main,
  floorScript: floor.main,
  watchPrefix: "bench-sql-",
});
try {
  for (const limit of [10, 100]) {
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const requestId = `bench-sql-${limit}-${i}`;
      const res = await fetch(
        new URL(statementsPath(MAIN_ACCOUNT, `limit=${limit}`), server.url("api")),
        {
          headers: { authorization: `Bearer ${dataset.keys.large}`, "x-request-id": requestId },
        },
      );
      await res.arrayBuffer();
      const log = (await server.logOf(requestId)) as unknown as { d1_sql_ms: number };
      times.push(log.d1_sql_ms);
    }
    times.sort((a, b) => a - b);
    const p99 = times[Math.floor(times.length * 0.99)] ?? Number.NaN;
    console.log(
      `limit=${limit}: SQL time per page, median ${median(times).toFixed(3)} ms, ` +
        `p99 ${p99.toFixed(3)} ms (${REQUESTS} requests)`,
    );
  }
} finally {
  await server.dispose();
}
