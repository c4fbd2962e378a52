// `npm run bench:arms -- <arm…>`: the named arms of `npm run bench` alone, in its rounds (every arm
// once a round, every other round backwards), with the goals their figures give and the load
// average after each round. An arm is named by its id (`floor-10`, `orders-100`) or by a prefix
// ending in `*` (`payment-methods*`); `--list` prints every id. The measurements are saved to
// bench/.data/arms.json; `--results` also writes bench/RESULTS.md from them, headed as a partial
// run naming the arms it ran (every other goal shows as not measured). BENCH_ROUNDS, BENCH_SECONDS,
// BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS as for `npm run bench`.
import os from "node:os";
import path from "node:path";
import { migrationNames } from "../scripts/bench-freshness.ts";
import { type Arm, defineArms } from "./arms.ts";
import { DEEP_ACCOUNT, LINE_ITEMS_STATEMENT } from "./data.ts";
import { emptyImports } from "./import.ts";
import { type Measurement, measure } from "./load.ts";
import { lineItemPositionsAt, positionsAt } from "./probe.ts";
import {
  floorPairGoals,
  type Goal,
  lineItemGoals,
  statementGoals,
  writeResults,
} from "./report.ts";
import { type RunResults, saveResults } from "./results.ts";
import { BENCH_DIR, DATA_DIR, setUpBench } from "./setup.ts";

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SETTINGS = {
  rounds: setting("BENCH_ROUNDS", 7),
  seconds: setting("BENCH_SECONDS", 2),
  warmupSeconds: setting("BENCH_WARMUP_SECONDS", 1),
  connections: setting("BENCH_CONNECTIONS", 4),
  cpuRounds: 0,
  cpuSeconds: 0,
  inspectorInRounds: false,
};

const started = Date.now();
const progress = (message: string) =>
  console.log(`[arms ${((Date.now() - started) / 1000).toFixed(0).padStart(3)}s] ${message}`);

const patterns = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const chosen = (id: string) =>
  patterns.some((p) => (p.endsWith("*") ? id.startsWith(p.slice(0, -1)) : id === p));
const wants = (prefix: string) => patterns.some((p) => p.startsWith(prefix));

const loadBefore = os.loadavg();
const { server, dataset, bundle } = await setUpBench(progress);
try {
  await runArms();
} finally {
  await server.dispose();
}

async function runArms(): Promise<void> {
  const url = (worker: Parameters<Parameters<typeof defineArms>[0]>[0], route: string) =>
    new URL(route, server.url(worker)).href;
  // Page positions only for the arms that read deep pages: finding them pages through the data.
  const positions =
    wants("depth") || wants("floor-depth")
      ? await positionsAt(
          server,
          DEEP_ACCOUNT,
          dataset.keys.large,
          [0, 25_000, 50_000, 75_000, 99_900],
        )
      : [];
  const lineItemPositions = wants("line-items")
    ? await lineItemPositionsAt(
        server,
        DEEP_ACCOUNT,
        LINE_ITEMS_STATEMENT,
        dataset.keys.large,
        [0, 5_000],
      )
    : [{ depth: 0, token: "", floorCursor: "" }];
  const every = defineArms(url, {
    keys: dataset.keys,
    positions,
    lineItemPositions,
    programme: dataset.programme,
  });
  if (process.argv.includes("--list") || patterns.length === 0) {
    for (const arm of every) console.log(`  ${arm.id.padEnd(28)} ${arm.label}`);
    if (patterns.length === 0) console.log("name the arms to run (an id, or a prefix and *)");
    return;
  }
  const arms: Arm[] = every.filter((arm) => chosen(arm.id));
  if (arms.length === 0) throw new Error(`no arm matches ${patterns.join(" ")}`);
  const options = { connections: SETTINGS.connections, seconds: SETTINGS.seconds };
  progress(`warming up ${arms.length} arms: ${arms.map((a) => a.id).join(", ")}`);
  for (const arm of arms) await measure(arm, { ...options, seconds: SETTINGS.warmupSeconds });
  const rounds: Map<string, Measurement>[] = [];
  const loads: number[][] = [];
  for (let r = 0; r < SETTINGS.rounds; r++) {
    progress(`round ${r + 1} of ${SETTINGS.rounds}: ${arms.length} arms × ${options.seconds} s`);
    const round = new Map<string, Measurement>();
    for (const arm of r % 2 === 0 ? arms : [...arms].reverse()) {
      round.set(arm.id, await measure(arm, options));
    }
    rounds.push(round);
    loads.push(os.loadavg());
  }
  for (const arm of arms) {
    const each = rounds.map((round) => round.get(arm.id));
    console.log(
      `  ${arm.id}: req/s ${each.map((m) => m?.rps.toFixed(0)).join(", ")}; ` +
        `p50 ms ${each.map((m) => m?.p50.toFixed(2)).join(", ")}`,
    );
  }
  const measuredGoals: Goal[] = [
    ...statementGoals({ rounds }),
    ...lineItemGoals({ rounds }),
    ...floorPairGoals({ rounds }),
  ].filter((goal) => !goal.measured.includes("not measured"));
  for (const goal of measuredGoals) {
    console.log(
      `${goal.met ? "met    " : "NOT MET"} ${goal.name}: ${goal.measured} (${goal.target})`,
    );
  }
  const load = (l: number[] | undefined) => (l ?? []).map((x) => x.toFixed(2)).join(" / ");
  console.log(
    `load average (1/5/15 min): before ${load(loadBefore)}; after each round ` +
      loads.map((l) => l[0]?.toFixed(2)).join(", "),
  );
  const results: RunResults = {
    date: new Date(),
    settings: SETTINGS,
    arms,
    rounds,
    cpu: [],
    costs: [],
    bundle,
    startup: null,
    tables: { large: 0, small: 0 },
    imports: emptyImports(),
    load: { before: loadBefore, after: os.loadavg() },
    durationSeconds: (Date.now() - started) / 1000,
    finished: true,
    schema: migrationNames().at(-1) ?? "none",
    partial:
      `\`npm run bench:arms -- ${patterns.join(" ")}\`: only the arms listed under “Arms” ran ` +
      `(load average after each round: ${loads.map((l) => l[0]?.toFixed(2)).join(", ")}); ` +
      "every goal of the other steps is not measured.",
  };
  await saveResults(path.join(DATA_DIR, "arms.json"), results);
  progress(`saved ${path.relative(process.cwd(), path.join(DATA_DIR, "arms.json"))}`);
  if (process.argv.includes("--results")) {
    await writeResults(
      path.join(BENCH_DIR, "RESULTS.md"),
      path.join(BENCH_DIR, "depth.svg"),
      results,
    );
    progress("wrote bench/RESULTS.md (a partial run)");
  }
  if (measuredGoals.some((goal) => goal.suspect)) {
    progress("✖ floor suspect: a service ÷ floor figure above the bound (see above)");
    process.exitCode = 1;
  }
}
