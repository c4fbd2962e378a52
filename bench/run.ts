// `npm run bench`: builds the bundles and the data, serves every read arm from one workerd, loads
// them side by side in interleaved rounds, profiles the CPU a request costs the service and the
// floor, runs the import arms on a second workerd, and writes bench/RESULTS.md and
// bench/depth.svg: every figure of the goals comes from this one run. Each step has its own time
// limit, and what it measured is saved (and RESULTS.md written again) as soon as it finishes: a
// step that fails or overruns is reported as failed in RESULTS.md, and the steps after it still
// run, so a bad moment costs its own figures, not the run's.
import os from "node:os";
import path from "node:path";
import { profileStartup } from "../builds/worker.ts";
import { migrationNames } from "../scripts/bench-freshness.ts";
import { type Arm, defineArms } from "./arms.ts";
import { type CpuArm, measureCpu } from "./cpu.ts";
import {
  type Dataset,
  DEEP_ACCOUNT,
  LARGE_TOTAL,
  LINE_ITEMS_STATEMENT,
  MAIN_ACCOUNT,
  ON_SHARD_01,
  SMALL_TOTAL,
} from "./data.ts";
import { emptyImports, runImportArms } from "./import.ts";
import { runLineItemImport } from "./import-line-items.ts";
import { type Measurement, measure } from "./load.ts";
import {
  costOf,
  floorPath,
  lineItemPositionsAt,
  measureLineItemCosts,
  type PagePosition,
  positionsAt,
  type RequestCost,
  statementsPath,
  unknownKey,
} from "./probe.ts";
import { suspectGoals, writeResults } from "./report.ts";
import { logDelays, settledLogSize } from "./request-log.ts";
import { loadResults, type RunResults, saveResults } from "./results.ts";
import { type BenchServer, freePort } from "./serve.ts";
import { BENCH_DIR, DATA_DIR, serveBench, setUpBench } from "./setup.ts";

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SETTINGS = {
  rounds: setting("BENCH_ROUNDS", 7),
  seconds: setting("BENCH_SECONDS", 2),
  warmupSeconds: setting("BENCH_WARMUP_SECONDS", 1),
  connections: setting("BENCH_CONNECTIONS", 4),
  cpuRounds: setting("BENCH_CPU_ROUNDS", 3),
  cpuSeconds: setting("BENCH_CPU_SECONDS", 3),
  importStatements: setting("BENCH_IMPORT_STATEMENTS", 1_000_000),
  importLineItems: setting("BENCH_IMPORT_LINE_ITEMS", 1_000_000),
  /**
   * 1 runs the timed rounds on the workerd whose inspector is open for the CPU profiles, as
   * earlier runs did (a diagnostic): an open inspector makes V8 keep every `console.log` message
   * for DevTools, several times the line's own cost, which production never pays.
   */
  inspectorInRounds: setting("BENCH_ROUNDS_INSPECTOR", 0) === 1,
};
const INSPECTOR_PORT = await freePort();
/** Requests whose way into the request log is timed, one at a time. */
const LOG_DELAY_PROBES = 5;
/** Every measurement of the last run, so RESULTS.md can be written again without re-measuring. */
const RAW_RESULTS = path.join(DATA_DIR, "results.json");
/** Depths (statements before the page) of the depth arm; the last is near the end of 100,000. */
export const DEPTHS = [0, 25_000, 50_000, 75_000, 99_900] as const;
/** Depths (line items before the page) of the line items depth pair. */
export const LINE_ITEM_DEPTHS = [0, 5_000] as const;

const started = Date.now();
function progress(message: string): void {
  console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)}s] ${message}`);
}

/** Time limits of the steps (minutes); a step past its limit fails, and the run goes on. */
const LIMIT_MINUTES = {
  startup: 5,
  costs: 10,
  /** Each arm's load in a round: its seconds, plus load.ts's grace; this is the round's margin. */
  round: 10,
  requestLog: 10,
  cpu: 30,
  /** The import arms' growth to 1,000,000 statements a table (about 12 minutes when quiet). */
  imports: 90,
  /** The line items import arm's growth to 1,000,000 line items (about 4 minutes at load 4–8). */
  lineItemImport: 30,
};

/**
 * Runs one step of the bench within `minutes`; answers its result, or undefined when it failed or
 * overran, recording why in `results.failures` under `name`. Either way the run's measurements so
 * far are saved and RESULTS.md written again.
 */
async function step<T>(
  results: RunResults,
  name: string,
  minutes: number,
  work: () => Promise<T>,
): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`did not finish within its ${minutes} minutes`)),
      minutes * 60_000,
    );
  });
  try {
    return await Promise.race([work(), limit]);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    results.failures = { ...results.failures, [name]: reason };
    progress(`✖ ${name} failed: ${reason}`);
    return undefined;
  } finally {
    clearTimeout(timer);
    await record(results);
  }
}

/** Saves the measurements so far and writes RESULTS.md and depth.svg from them. */
async function record(results: RunResults): Promise<void> {
  results.load.after = os.loadavg();
  results.durationSeconds = (Date.now() - started) / 1000;
  await saveResults(RAW_RESULTS, results);
  await writeResults(
    path.join(BENCH_DIR, "RESULTS.md"),
    path.join(BENCH_DIR, "depth.svg"),
    results,
  );
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  // The timed rounds run on a workerd without the inspector; the CPU profiles need it, so they
  // run on a second one started over the same data once the rounds are done.
  const inspector = { inspectorPort: INSPECTOR_PORT };
  const setup = await setUpBench(progress, SETTINGS.inspectorInRounds ? inspector : {});
  const { bundle, floor, dataset } = setup;
  const { keys } = dataset;
  let server = setup.server;
  // What every step fills in as it finishes; a failed step leaves its part empty.
  const results: RunResults = {
    date: new Date(),
    settings: SETTINGS,
    arms: [],
    rounds: [],
    cpu: [],
    costs: [],
    bundle,
    startup: null,
    tables: { large: LARGE_TOTAL, small: SMALL_TOTAL },
    imports: emptyImports(),
    load: { before: loadBefore, after: loadBefore },
    durationSeconds: 0,
    failures: {},
    finished: false,
    schema: migrationNames().at(-1) ?? "none",
  };
  try {
    progress("profiling start-up (wrangler check startup)");
    results.startup =
      (await step(results, "start-up profile", LIMIT_MINUTES.startup, () =>
        profileStartup(path.join(DATA_DIR, "startup.cpuprofile")),
      )) ?? null;

    progress("paging through the deep account for page tokens");
    const positions =
      (await step(results, "page tokens and cost per request", LIMIT_MINUTES.costs, async () => {
        const found = await positionsAt(server, DEEP_ACCOUNT, keys.large, DEPTHS);
        results.costs = await measureCosts(server, keys, found);
        return found;
      })) ?? [];

    progress("paging through the line items statement for page tokens");
    const lineItemPositions = await step(
      results,
      "line items page tokens and cost per request",
      LIMIT_MINUTES.costs,
      async () => {
        const found = await lineItemPositionsAt(
          server,
          DEEP_ACCOUNT,
          LINE_ITEMS_STATEMENT,
          keys.large,
          LINE_ITEM_DEPTHS,
        );
        results.lineItemCosts = await measureLineItemCosts(server, keys.large, found);
        return found;
      },
    );

    results.arms = defineArms((worker, route) => new URL(route, server.url(worker)).href, {
      keys,
      positions,
      ...(lineItemPositions ? { lineItemPositions } : {}),
      programme: dataset.programme,
    });
    progress("waiting for the request log to settle");
    const logBefore = await step(results, "request log", LIMIT_MINUTES.requestLog, () =>
      settledLogSize(server, "api"),
    );
    await runRounds(results);
    if (logBefore) {
      progress("request log: its growth over the rounds, and its delay");
      results.requestLog = await step(
        results,
        "request log growth and delay",
        LIMIT_MINUTES.requestLog,
        async () => {
          const logAfter = await settledLogSize(server, "api");
          return {
            logged: logAfter.logged - logBefore.logged,
            grewBytes: logAfter.bytes - logBefore.bytes,
            delaysMs: await logDelays(server, keys.large, LOG_DELAY_PROBES),
          };
        },
      );
    }
    await step(results, "CPU profiles", LIMIT_MINUTES.cpu, async () => {
      if (!SETTINGS.inspectorInRounds) {
        progress("restarting workerd with its inspector open, for the CPU profiles; warming up");
        await server.dispose();
        server = await serveBench(bundle, floor, inspector);
      }
      const profiled = cpuArms(server, keys.large);
      if (!SETTINGS.inspectorInRounds) {
        // Fresh isolates: each arm is warmed up as the rounds' arms were, so no profile compiles.
        const warmup = { connections: SETTINGS.connections, seconds: SETTINGS.warmupSeconds };
        for (const arm of profiled) await measure(arm.target, warmup);
      }
      results.cpu = await measureCpu(
        INSPECTOR_PORT,
        profiled,
        { rounds: SETTINGS.cpuRounds, seconds: SETTINGS.cpuSeconds, connections: 4 },
        progress,
      );
      // An arm that failed in a round is reported as failed there; the rounds' others stand.
      const failed = results.cpu.flatMap((round, r) =>
        [...round].flatMap(([id, sample]) =>
          sample.error ? [`${id} in round ${r + 1}: ${sample.error}`] : [],
        ),
      );
      if (failed.length > 0) {
        results.failures = { ...results.failures, "CPU profiles (arms)": failed.join("; ") };
      }
    });
  } finally {
    await server.dispose().catch(() => {});
  }
  await step(results, "import arms", LIMIT_MINUTES.imports, () =>
    runImportArms(
      {
        dataDir: DATA_DIR,
        apiScript: bundle.main,
        floorScript: floor.main,
        total: SETTINGS.importStatements,
        progress,
      },
      results.imports,
      async (part, reason) => {
        if (reason !== undefined) results.failures = { ...results.failures, [part]: reason };
        await record(results);
      },
    ),
  );
  await step(results, "line items import arm", LIMIT_MINUTES.lineItemImport, async () => {
    results.imports.lineItems = await runLineItemImport({
      dataDir: DATA_DIR,
      apiScript: bundle.main,
      floorScript: floor.main,
      totalLineItems: SETTINGS.importLineItems,
      progress,
      onRequest: async (partial) => {
        results.imports.lineItems = partial;
      },
    });
  });
  results.finished = true;
  await record(results);
  const failed = Object.keys(results.failures ?? {});
  progress(
    failed.length === 0
      ? "wrote bench/RESULTS.md and bench/depth.svg"
      : `wrote bench/RESULTS.md and bench/depth.svg; failed: ${failed.join(", ")}`,
  );
  if (failed.length > 0) process.exitCode = 1;
  failOnSuspectFloors(results);
}

/**
 * Fails the run when a "service ÷ floor" figure says the floor is slower than the service: the
 * goal is then not met, and the floor needs mending before the figure means anything.
 */
function failOnSuspectFloors(results: RunResults): void {
  const suspect = suspectGoals(results);
  for (const goal of suspect) progress(`✖ floor suspect: ${goal.name}: ${goal.measured}`);
  if (suspect.length > 0) process.exitCode = 1;
}

/** `npm run bench -- --report`: RESULTS.md again from the last run's measurements. */
async function reportOnly(): Promise<void> {
  const results = await loadResults(RAW_RESULTS);
  await writeResults(
    path.join(BENCH_DIR, "RESULTS.md"),
    path.join(BENCH_DIR, "depth.svg"),
    results,
  );
  console.log(`wrote bench/RESULTS.md from ${path.relative(process.cwd(), RAW_RESULTS)}`);
}

/**
 * The arms profiled for CPU per request: the service, the service with its request log off, and
 * the floor, at limit 10 and 100, and the floor without its rate-limit checks (a diagnostic).
 */
function cpuArms(server: BenchServer, key: string): CpuArm[] {
  const statements = (id: string, worker: "api" | "api-unlogged", limit: number) => ({
    id: `${id}-${limit}`,
    label: `${id}, limit=${limit}`,
    worker,
    target: {
      url: new URL(statementsPath(MAIN_ACCOUNT, `limit=${limit}`), server.url(worker)).href,
      headers: { authorization: `Bearer ${key}` },
    },
  });
  return [10, 100].flatMap((limit) => [
    statements("statements", "api", limit),
    statements("unlogged", "api-unlogged", limit),
    ...(["floor", "bare-floor"] as const).map((worker) => ({
      id: `${worker}-${limit}`,
      label:
        worker === "floor"
          ? `floor, limit=${limit}`
          : `floor, limit=${limit}, rate limiters not bound (diagnostic)`,
      worker,
      target: { url: new URL(floorPath(MAIN_ACCOUNT, limit), server.url(worker)).href },
    })),
  ]);
}

/** Date filters that keep most of the deep account's statements (one a day back from 2026). */
const FILTER = "period_end_date_gte=1800-01-01T00:00:00Z&period_end_date_lt=2026-01-01T00:00:00Z";
/** How deep the filtered listing's cost is taken. */
const FILTERED_DEPTH = 50_000;

/**
 * The D1 cost of every statements request the arms send, of both limits at every depth, of a
 * date-filtered listing on its first page and deep, and of a well-formed key that does not exist.
 */
async function measureCosts(
  server: BenchServer,
  keys: Dataset["keys"],
  positions: PagePosition[],
): Promise<RequestCost[]> {
  const costs: RequestCost[] = [];
  const filtered = await positionsAt(server, DEEP_ACCOUNT, keys.large, [0, FILTERED_DEPTH], FILTER);
  for (const limit of [10, 100]) {
    for (const p of positions) {
      const query = `limit=${limit}${p.token ? `&starting_after=${p.token}` : ""}`;
      costs.push(
        await costOf(server, {
          label: `deep account, ${p.depth.toLocaleString("en")} deep`,
          worker: "api",
          path: statementsPath(DEEP_ACCOUNT, query),
          key: keys.large,
          limit,
          depth: p.depth,
          floorPath: floorPath(DEEP_ACCOUNT, limit, p.floorCursor),
        }),
      );
    }
    for (const [worker, table] of [
      ["api", "1,000,000-row table"],
      ["api-unlogged", "1,000,000-row table, request log off"],
      ["api-small", "1,000-row table"],
    ] as const) {
      costs.push(
        await costOf(server, {
          label: `main account, first page, ${table}`,
          worker,
          path: statementsPath(MAIN_ACCOUNT, `limit=${limit}`),
          key: worker === "api-small" ? keys.small : keys.large,
          limit,
          depth: 0,
          ...(worker === "api" ? { floorPath: floorPath(MAIN_ACCOUNT, limit) } : {}),
        }),
      );
    }
    costs.push(
      await costOf(server, {
        label: "a partner alike on shard 01, first page",
        worker: "api",
        path: statementsPath(ON_SHARD_01.account, `limit=${limit}`, ON_SHARD_01.customer),
        key: keys.shard01,
        limit,
        depth: 0,
      }),
    );
    for (const p of filtered) {
      costs.push(
        await costOf(server, {
          label: `filtered deep account, ${p.depth.toLocaleString("en")} deep`,
          worker: "api",
          path: statementsPath(
            DEEP_ACCOUNT,
            `limit=${limit}&${FILTER}${p.token ? `&starting_after=${p.token}` : ""}`,
          ),
          key: keys.large,
          limit,
          depth: p.depth,
        }),
      );
    }
  }
  costs.push(
    await costOf(server, {
      label: "a key that does not exist (401)",
      worker: "api",
      path: statementsPath(MAIN_ACCOUNT, "limit=10"),
      key: unknownKey(),
      limit: 10,
      depth: 0,
      status: 401,
    }),
  );
  return costs;
}

/**
 * Warms every arm up, then runs `rounds` rounds; each round loads every arm once. Arms compared
 * with each other are listed next to each other, and every other round runs the list backwards,
 * so each pair runs back to back, each arm of a pair first as often as second. An arm that fails
 * (an error, a non-2xx answer, a load that overran) is left out of that round and reported as
 * failed; each round is saved as it finishes.
 */
async function runRounds(results: RunResults): Promise<void> {
  const arms: Arm[] = results.arms;
  const options = { connections: SETTINGS.connections, seconds: SETTINGS.seconds };
  const failedArms: string[] = [];
  const load = (arm: Arm, seconds: number) =>
    measure(arm, { ...options, seconds }).catch((err: Error) => {
      failedArms.push(`${arm.id}: ${err.message}`);
      progress(`✖ ${arm.id} failed: ${err.message}`);
      return undefined;
    });
  progress(`warming up ${arms.length} arms`);
  await step(results, "warm-up", LIMIT_MINUTES.round, async () => {
    for (const arm of arms) await load(arm, SETTINGS.warmupSeconds);
  });
  for (let r = 0; r < SETTINGS.rounds; r++) {
    progress(`round ${r + 1} of ${SETTINGS.rounds}: ${arms.length} arms × ${options.seconds} s`);
    const round = new Map<string, Measurement>();
    results.rounds.push(round);
    const order = r % 2 === 0 ? arms : [...arms].reverse();
    await step(results, `round ${r + 1}`, LIMIT_MINUTES.round, async () => {
      for (const arm of order) {
        const measured = await load(arm, options.seconds);
        if (measured) round.set(arm.id, measured);
      }
    });
    if (failedArms.length > 0) {
      results.failures = { ...results.failures, "timed arms": failedArms.join("; ") };
    }
  }
}

(process.argv.includes("--report") ? reportOnly() : main()).catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
