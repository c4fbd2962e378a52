// `npm run bench:largest-import [-- --runs 10 --cap 128 --monthly 0 --floor --fresh]`: the
// largest body the import accepts (20 MiB, 5,000 items in every section), `--runs` times in one
// workerd whose V8 heaps are capped at `--cap` MB, as a Worker isolate is capped. `--monthly N`
// first sends N of the bench's monthly imports (5,000 statements each), as `npm run bench` does
// before its largest body, and `--floor` sends each to the floor Worker too, on its own database
// in the same runtime. The memory in use (V8 heap plus ArrayBuffers) of the import Worker's
// isolate and of Miniflare's two D1 isolates is sampled through the inspector throughout. Prints
// each run's peaks and answer; a run that kills the runtime ("other side closed") is reported with
// the last memory seen before it, and the next run gets a fresh workerd. `--fresh`: a fresh one
// every run. `--line-items`: the largest accepted import carrying line items instead (25,000 line
// items, every optional field, their texts grown until the body fills 20 MiB; see
// largestLineItemsBody), over the import arms' seeded accounts.
import { rm } from "node:fs/promises";
import path from "node:path";
import { buildWorker } from "../builds/worker.ts";
import { applyMigrations, migrateService } from "./data.ts";
import { mb } from "./format.ts";
import { MAX_IMPORT_BYTES, postImport } from "./import.ts";
import {
  largestBody,
  largestLineItemsBody,
  monthlyBody,
  seedImportTenants,
} from "./import-data.ts";
import { attach, D1_ISOLATES, type Session, workerIsolate } from "./inspector.ts";
import { type BenchServer, freePort, startServer } from "./serve.ts";
import { DATA_DIR } from "./setup.ts";

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const RUNS = option("--runs", 10);
const CAP_MB = option("--cap", 128);
const MONTHLY = option("--monthly", 0);
const FRESH = process.argv.includes("--fresh");
/** The largest body carrying line items, instead of the largest body of every section. */
const LINE_ITEMS = process.argv.includes("--line-items");
/** The floor Worker beside the import Worker, sent each monthly body too, as the bench does. */
const WITH_FLOOR = process.argv.includes("--floor");
const SERVICE = "importer";
const FLOOR = "import-floor";
const ISOLATES = [workerIsolate(SERVICE), ...D1_ISOLATES];

interface Memory {
  /** By isolate, the most memory seen in use (bytes). */
  peak: Map<string, number>;
  /** By isolate, the last memory seen in use (bytes). */
  last: Map<string, number>;
  samples: number;
}

/** Samples the isolates' memory until `work` settles; answers its outcome and what was seen. */
async function sampled<T>(port: number, work: () => Promise<T>) {
  const sessions = await Promise.all(
    ISOLATES.map(
      async (isolate): Promise<[string, Session]> => [isolate, await attach(port, isolate)],
    ),
  );
  const memory: Memory = { peak: new Map(), last: new Map(), samples: 0 };
  let running = true;
  const sampler = (async () => {
    while (running) {
      const usages = await Promise.all(
        sessions.map(([, session]) =>
          session
            .send<{ usedSize: number; backingStorageSize?: number }>("Runtime.getHeapUsage")
            .catch(() => null),
        ),
      );
      if (usages.some((usage) => usage === null)) return; // the runtime is gone
      usages.forEach((usage, i) => {
        const isolate = ISOLATES[i] as string;
        const used = (usage?.usedSize ?? 0) + (usage?.backingStorageSize ?? 0);
        memory.peak.set(isolate, Math.max(memory.peak.get(isolate) ?? 0, used));
        memory.last.set(isolate, used);
      });
      memory.samples += 1;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  try {
    const outcome = await work().then(
      (value) => ({ ok: true as const, value }),
      (error: Error) => ({ ok: false as const, error }),
    );
    return { outcome, memory };
  } finally {
    running = false;
    await sampler;
    for (const [, session] of sessions) session.close();
  }
}

// Its own folder: two of these runs side by side must not share (or remove) each other's state.
const stateDir = path.join(DATA_DIR, `largest-import-state-${process.pid}`);
const buildDir = path.join(DATA_DIR, `largest-import-build-${process.pid}`);
const api = await buildWorker(path.join(buildDir, "api"));
const floor = await buildWorker(path.join(buildDir, "floor"), {
  script: "bench/floor-worker.ts",
  name: "bench-floor",
});

async function start(inspectorPort: number): Promise<BenchServer> {
  await rm(stateDir, { recursive: true, force: true });
  const server = await startServer({
    stateDir,
    apiScript: api.main,
    floorScript: floor.main,
    watchPrefix: "bench-largest-",
    inspectorPort,
    v8Flags: [`--max-old-space-size=${CAP_MB}`],
    workers: [
      { name: SERVICE, script: "api", database: "bench-largest" },
      ...(WITH_FLOOR
        ? [{ name: FLOOR, script: "floor" as const, database: "bench-largest-floor" }]
        : []),
    ],
  });
  await migrateService(server, SERVICE);
  if (WITH_FLOOR) await applyMigrations(await server.database(FLOOR));
  if (LINE_ITEMS && MONTHLY === 0) await seedImportTenants(await server.database(SERVICE));
  if (MONTHLY > 0) {
    await seedImportTenants(await server.database(SERVICE));
    if (WITH_FLOOR) await seedImportTenants(await server.database(FLOOR));
    for (let month = 0; month < MONTHLY; month++) {
      const body = monthlyBody(month);
      const res = await postImport(server, SERVICE, body, `bench-largest-m${month}`);
      if (res.status !== 200) throw new Error(`monthly import ${month}: ${await res.text()}`);
      await res.arrayBuffer();
      if (WITH_FLOOR) {
        const floorRes = await fetch(new URL("/import", server.url(FLOOR)), {
          method: "POST",
          body,
          signal: AbortSignal.timeout(120_000),
        });
        if (floorRes.status !== 200) throw new Error(`floor import ${month}: ${floorRes.status}`);
        await floorRes.arrayBuffer();
      }
      if ((month + 1) % 20 === 0) console.log(`  ${month + 1} monthly imports`);
    }
  }
  return server;
}

const figures = (memory: Map<string, number>) =>
  ISOLATES.map((isolate) => `${isolate} ${mb(memory.get(isolate) ?? 0)}`).join(", ");

const runs: { run: number; answer: number | string; peak: number }[] = [];
let inspectorPort = await freePort();
let server = await start(inspectorPort);
try {
  for (let run = 1; run <= RUNS; run++) {
    const body = LINE_ITEMS
      ? largestLineItemsBody(`r${run}`, MAX_IMPORT_BYTES)
      : largestBody(`r${run}`, MAX_IMPORT_BYTES);
    const started = performance.now();
    const { outcome, memory } = await sampled(inspectorPort, async () => {
      const res = await postImport(server, SERVICE, body, `bench-largest-${run}`);
      await res.arrayBuffer();
      return res.status;
    });
    const answer = outcome.ok
      ? outcome.value
      : `${outcome.error.message}${outcome.error.cause ? ` (${String(outcome.error.cause)})` : ""}`;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    runs.push({ run, answer, peak: memory.peak.get(workerIsolate(SERVICE)) ?? 0 });
    console.log(
      `run ${run}: ${answer} in ${seconds} s (${memory.samples} samples, ` +
        `${Buffer.byteLength(body).toLocaleString("en")} bytes)`,
    );
    console.log(`  peak: ${figures(memory.peak)}`);
    if (answer !== 200) console.log(`  last seen before the failure: ${figures(memory.last)}`);
    if (answer !== 200 || FRESH) {
      await server.dispose().catch(() => {});
      inspectorPort = await freePort();
      server = await start(inspectorPort);
    }
  }
} finally {
  await server.dispose().catch(() => {});
  await rm(stateDir, { recursive: true, force: true });
  await rm(buildDir, { recursive: true, force: true });
}
const passed = runs.filter((r) => r.answer === 200).length;
console.log(
  `${passed} of ${runs.length} runs answered 200 under a ${CAP_MB} MB cap; the import ` +
    `Worker's peaks: ${runs.map((r) => mb(r.peak)).join(", ")}`,
);
process.exitCode = passed === runs.length ? 0 : 1;
