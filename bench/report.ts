// Turns the rounds into bench/RESULTS.md (goals, arms, cost, bundle) and bench/depth.svg.
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { BUNDLE_BUDGET_BYTES, kib, ROOT } from "../builds/worker.ts";
import { SCHEMA_LINE } from "../scripts/bench-freshness.ts";
import { OLDEST_VERSION } from "./arms.ts";
import { depthChart } from "./chart.ts";
import { EARLIER } from "./earlier.ts";
import { fixed } from "./format.ts";
import { type Measurement, median } from "./load.ts";
import { addedLogCpu, cpuSection, workerCpuRatio } from "./report-cpu.ts";
import {
  importRatio,
  importSection,
  largestPeaks,
  lineItemImportRatio,
  lineItemImportSection,
} from "./report-import.ts";
import { closingNote } from "./report-summary.ts";
import type { RunResults } from "./results.ts";

export interface Goal {
  name: string;
  measured: string;
  target: string;
  met: boolean;
  earlier: string;
  /** A "service ÷ floor" figure the floor cannot honestly give: the goal is not met. */
  suspect?: boolean;
}

/**
 * The most a service may beat its floor by. A floor runs the service's own statements with nothing
 * around them, so a service faster than it by more than the noise of a round means the floor does
 * work the service does not (a query that lost its index): the figure measures nothing.
 */
export const FLOOR_SUSPECT_ABOVE = 1.2;

/** Marks `goal` suspect (not met) when its "service ÷ floor" ratio is above the bound. */
function unlessSuspect(goal: Goal, serviceOverFloor: number): Goal {
  if (!(serviceOverFloor > FLOOR_SUSPECT_ABOVE)) return goal;
  return {
    ...goal,
    measured: `${goal.measured}: **floor suspect** (above ${fixed(FLOOR_SUSPECT_ABOVE)})`,
    met: false,
    suspect: true,
  };
}

/** The goals a run must not call met: a "service ÷ floor" figure above FLOOR_SUSPECT_ABOVE. */
export function suspectGoals(results: RunResults): Goal[] {
  return goals(results).filter((g) => g.suspect);
}

/**
 * The "service ÷ floor" req/s goals of the routes with a floor of their own, beside the
 * statements list: the service's arm, its floor's, and the least the ratio should be.
 */
export const FLOOR_PAIRS: { name: string; service: string; floor: string; target: number }[] = [
  ...[10, 100].flatMap((limit) =>
    (
      [
        ["Payment methods", "payment-methods"],
        ["Orders", "orders"],
        ["Transaction intents", "intents"],
      ] as const
    ).map(([label, id]) => ({
      name: `${label} ÷ floor, req/s, limit=${limit}`,
      service: `${id}-${limit}`,
      floor: `${id}-floor-${limit}`,
      target: limit === 10 ? 0.85 : 0.8,
    })),
  ),
  {
    name: "Order event create ÷ floor (its writes in one batch), req/s",
    service: "order-events",
    floor: "order-events-floor",
    target: 0.8,
  },
  // One page of its whole list: the goal of a statements page at limit 10.
  {
    name: "Rewards categories ÷ floor, req/s",
    service: "rewards-categories",
    floor: "rewards-categories-floor",
    target: 0.85,
  },
];

/** The goals of FLOOR_PAIRS, each not measured when its arms did not run. */
export function floorPairGoals(results: Pick<RunResults, "rounds">): Goal[] {
  return FLOOR_PAIRS.map((pair) => {
    const r = ratio(results as RunResults, pair.service, pair.floor, "rps");
    if (!Number.isFinite(r.median)) return notMeasured(pair.name, `≥ ${fixed(pair.target)}`);
    const each = r.rounds.map((x) => fixed(x)).join(", ");
    const goal: Goal = {
      name: pair.name,
      measured: `**${fixed(r.median)}** (rounds: ${each})`,
      target: `≥ ${fixed(pair.target)}`,
      met: r.median >= pair.target,
      earlier: "",
    };
    return unlessSuspect(goal, r.median);
  });
}

/** The longest D1 call the goals allow: a third of D1's 30 s per query. */
const D1_CALL_BUDGET_MS = 10_000;
const ISOLATE_BYTES = 128 * 2 ** 20;

function versionOf(pkg: string): string {
  try {
    const file = path.join(ROOT, "node_modules", pkg, "package.json");
    return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

/** Per round, `numerator ÷ denominator` of one metric; the median over rounds. */
function ratio(
  results: RunResults,
  numerator: string,
  denominator: string,
  metric: "rps" | "p50",
): { median: number; rounds: number[] } {
  const rounds = results.rounds.map((round) => {
    const a = round.get(numerator);
    const b = round.get(denominator);
    return a && b ? a[metric] / b[metric] : Number.NaN;
  });
  return { median: median(rounds), rounds };
}

function armMedian(results: RunResults, id: string, metric: keyof Measurement): number {
  return median(results.rounds.map((round) => round.get(id)?.[metric] ?? Number.NaN));
}

/** A goal whose figures this run lacks (its step failed): reported as not met. */
const notMeasured = (name: string, target = ""): Goal => ({
  name,
  measured: "**not measured** (its step failed: see “Failed steps”)",
  target,
  met: false,
  earlier: "",
});

/**
 * `lines()` without the lines whose figures this run lacks (made of an empty list: NaN, an
 * infinity), then a note that they were not measured; or only that note when the part cannot be
 * written at all.
 */
function guarded(title: string, lines: () => string[]): string[] {
  const note = `${title}: not measured in this run (see “Failed steps”).`;
  try {
    const written = lines();
    const kept = written.filter((line) => !/NaN|Infinity/.test(line));
    if (kept.length === written.length) return kept;
    return [
      ...kept,
      `Some figures of “${title}” were not measured in this run (see “Failed steps”).`,
      "",
    ];
  } catch {
    return [note, ""];
  }
}

function goals(results: RunResults): Goal[] {
  const out: Goal[] = [];
  /** Pushes what `build` pushes, or one goal `name` not measured when its figures are missing. */
  const goal = (name: string, build: () => void) => {
    const before = out.length;
    try {
      build();
      // A figure made of nothing: an empty list's maximum, or no rounds.
      const missing = /n\/a|NaN|Infinity/;
      if (out.slice(before).some((g) => missing.test(g.measured))) throw new Error("missing");
    } catch {
      out.splice(before);
      out.push(notMeasured(name));
    }
  };
  const add = (
    name: string,
    r: { median: number; rounds: number[] },
    target: string,
    met: boolean,
    earlier: string,
    /** The "service ÷ floor" figure of this goal, when it has one. */
    serviceOverFloor?: number,
  ) => {
    const each = r.rounds.map((x) => fixed(x)).join(", ");
    const goal = {
      name,
      measured: `**${fixed(r.median)}** (rounds: ${each})`,
      target,
      met,
      earlier,
    };
    out.push(serviceOverFloor === undefined ? goal : unlessSuspect(goal, serviceOverFloor));
  };
  const pushSuspect = (serviceOverFloor: number, goal: Goal) =>
    out.push(unlessSuspect(goal, serviceOverFloor));
  out.push(...statementGoals(results));
  for (const limit of [10, 100] as const) {
    const name = `Worker CPU per request, statements ÷ floor, limit=${limit} (profiled, see below)`;
    goal(name, () => {
      const cpu = workerCpuRatio(results.cpu, limit);
      // Less CPU than the floor's is the service beating it: the inverse of the req/s ratio.
      add(name, cpu, "≤ 1.50", cpu.median <= 1.5, EARLIER.workerCpu[limit], 1 / cpu.median);
    });
  }
  goal("Import ÷ floor, statements/s (per 100,000)", () => {
    const imported = importRatio(results.imports);
    pushSuspect(imported.median, {
      name:
        "Import ÷ floor, statements/s, each table growing to " +
        `${results.imports.total.toLocaleString("en")} (per 100,000)`,
      measured:
        `**${fixed(imported.median)}** median, lowest ${fixed(imported.lowest)} ` +
        `(segments: ${imported.rounds.map((x) => fixed(x)).join(", ")})`,
      target: "≥ 0.70 in every segment",
      met: imported.lowest >= 0.7,
      earlier: EARLIER.import,
    });
  });
  goal("Import with line items ÷ floor, line items/s (per 100,000)", () => {
    const imported = lineItemImportRatio(results.imports);
    const li = results.imports.lineItems;
    if (!li) throw new Error("not measured");
    pushSuspect(imported.median, {
      name:
        `Import with line items (${li.lineItemsPerStatement} a statement) ÷ floor, line items/s, ` +
        `each table growing to ${li.total.toLocaleString("en")} (per 100,000)`,
      measured:
        `**${fixed(imported.median)}** median, lowest ${fixed(imported.lowest)} ` +
        `(segments: ${imported.rounds.map((x) => fixed(x)).join(", ")})`,
      target: "≥ 0.70 in every segment",
      met: imported.lowest >= 0.7,
      earlier: "",
    });
  });
  goal("Largest accepted import (20 MiB): most memory in use", () => {
    const peaks = largestPeaks(results.imports);
    const headroom = results.imports.headroom;
    out.push({
      name: "Largest accepted import (20 MiB): most memory in use, of 3 runs",
      measured:
        `**${(peaks.memory / 2 ** 20).toFixed(1)} MB**; answers ${headroom.status} with V8's heap ` +
        `capped at ${headroom.capMb} MB`,
      target: "≤ 128 MB, and passes at 64 MB",
      met: peaks.memory <= ISOLATE_BYTES && headroom.status === 200,
      earlier: EARLIER.largestImport,
    });
  });
  goal("Longest single D1 call: largest import; 5,000-statement import", () => {
    const peaks = largestPeaks(results.imports);
    const monthlyLongest = Math.max(...results.imports.service.map((s) => s.longestD1Ms));
    out.push({
      name: "Longest single D1 call: largest import; 5,000-statement import",
      measured: `**${(peaks.longestD1Ms / 1000).toFixed(2)} s**; ${(monthlyLongest / 1000).toFixed(2)} s`,
      target: "≤ 10 s (a third of D1's 30 s)",
      met: Math.max(peaks.longestD1Ms, monthlyLongest) <= D1_CALL_BUDGET_MS,
      earlier: EARLIER.longestD1,
    });
  });

  out.push(...lineItemGoals(results));
  out.push(...floorPairGoals(results));

  goal("Depth: p50 deepest ÷ p50 first page", () => {
    const deepest = Math.max(...results.arms.map((a) => a.depth ?? 0));
    const depth = ratio(results, `depth-${deepest}`, "depth-0", "p50");
    const rowsAt = (d: number) =>
      results.costs.find((c) => c.limit === 10 && c.depth === d && c.label.startsWith("deep"))
        ?.rowsRead;
    const equalRows = rowsAt(deepest) === rowsAt(0);
    add(
      `Depth: p50 ${deepest.toLocaleString("en")} deep ÷ p50 first page ` +
        `(rows read ${rowsAt(deepest)} vs ${rowsAt(0)})`,
      depth,
      "≤ 1.10, equal rows read",
      depth.median <= 1.1 && equalRows,
      EARLIER.depth,
    );
  });
  goal("Table size: p50 ratio", () => {
    const table = ratio(results, "large-table-10", "small-table-10", "p50");
    const [large, small] = [results.tables.large, results.tables.small].map((n) =>
      n.toLocaleString("en"),
    );
    const sizes = `${large} ÷ ${small}`;
    const tableMet = table.median <= 1.2;
    add(`Table size: p50 with ${sizes} statements`, table, "≤ 1.20", tableMet, EARLIER.tableSize);
  });
  goal("Version chain: req/s oldest ÷ latest", () => {
    const version = ratio(results, `version-${OLDEST_VERSION}`, "version-latest", "rps");
    const versionMet = version.median >= 0.95;
    const versionName = `Version chain: req/s ${OLDEST_VERSION} ÷ latest`;
    add(versionName, version, "≥ 0.95", versionMet, EARLIER.versionChain);
  });

  goal("Request log", () => {
    out.push(...requestLogGoals(results));
  });

  goal("Cost per request (log line), every depth and limit", () => {
    const maxTrips = Math.max(...results.costs.map((c) => c.roundTrips));
    const worst = results.costs.reduce((a, c) =>
      c.rowsRead - c.limit > a.rowsRead - a.limit ? c : a,
    );
    out.push({
      name: "Cost per request (log line), every depth and limit",
      measured:
        `max ${maxTrips} round trips; max rows read = limit + ${worst.rowsRead - worst.limit} ` +
        `(${worst.label}, limit=${worst.limit})`,
      target: "≤ 2 round trips, ≤ limit + 4 rows",
      met: maxTrips <= 2 && results.costs.every((c) => c.rowsRead <= c.limit + 4),
      earlier: EARLIER.cost,
    });
  });
  out.push({
    name: "Bundle gzip (wrangler deploy --dry-run --outdir)",
    measured: `${kib(results.bundle.gzipBytes)} (raw ${kib(results.bundle.bytes)})`,
    target: `≤ ${kib(BUNDLE_BUDGET_BYTES)}`,
    met: results.bundle.gzipBytes <= BUNDLE_BUDGET_BYTES,
    earlier: EARLIER.bundle,
  });
  return out;
}

/** The statements list's goals: the service ÷ its floor in req/s at limit 10 and 100. */
export function statementGoals(results: Pick<RunResults, "rounds">): Goal[] {
  return (
    [
      [10, 0.85],
      [100, 0.8],
    ] as const
  ).map(([limit, target]) => {
    const name = `Statements ÷ floor, req/s, limit=${limit}`;
    const r = ratio(results as RunResults, `statements-${limit}`, `floor-${limit}`, "rps");
    if (!Number.isFinite(r.median)) return notMeasured(name, `≥ ${fixed(target)}`);
    const each = r.rounds.map((x) => fixed(x)).join(", ");
    const goal: Goal = {
      name,
      measured: `**${fixed(r.median)}** (rounds: ${each})`,
      target: `≥ ${fixed(target)}`,
      met: r.median >= target,
      earlier: EARLIER.statementsVsFloor[limit],
    };
    return unlessSuspect(goal, r.median);
  });
}

/**
 * The line items page's goals, as the statements list's: the service ÷ its floor (the same keyset
 * query) in req/s at limit 10 and 100, and p50 of a page deep into the statement ÷ the first
 * page with equal rows read (from the log line); each not measured when its arms did not run.
 */
export function lineItemGoals(results: Pick<RunResults, "rounds" | "lineItemCosts">): Goal[] {
  const out: Goal[] = [];
  const each = (r: { rounds: number[] }) => r.rounds.map((x) => fixed(x)).join(", ");
  const measuredOrNot = (name: string, target: string, build: () => Goal) => {
    try {
      const goal = build();
      if (/n\/a|NaN|Infinity|∞|undefined/.test(`${goal.name} ${goal.measured}`))
        throw new Error("missing");
      out.push(goal);
    } catch {
      out.push(notMeasured(name, target));
    }
  };
  for (const [limit, target] of [
    [10, 0.85],
    [100, 0.8],
  ] as const) {
    const name = `Line items ÷ floor, req/s, limit=${limit}`;
    measuredOrNot(name, `≥ ${fixed(target)}`, () => {
      const r = ratio(
        results as RunResults,
        `line-items-${limit}`,
        `line-items-floor-${limit}`,
        "rps",
      );
      const goal = {
        name,
        measured: `**${fixed(r.median)}** (rounds: ${each(r)})`,
        target: `≥ ${fixed(target)}`,
        met: r.median >= target,
        earlier: "",
      };
      return unlessSuspect(goal, r.median);
    });
  }
  const name = "Line items depth: p50 deepest ÷ p50 first page";
  measuredOrNot(name, "≤ 1.10, equal rows read", () => {
    const costs = (results.lineItemCosts ?? []).filter((c) => c.limit === 10);
    const deepest = Math.max(...costs.map((c) => c.depth));
    const rowsAt = (d: number) => costs.find((c) => c.depth === d)?.rowsRead;
    const r = ratio(
      results as RunResults,
      `line-items-depth-${deepest}`,
      "line-items-depth-0",
      "p50",
    );
    return {
      name:
        `Line items depth: p50 ${deepest.toLocaleString("en")} items deep ÷ p50 first page ` +
        `(rows read ${rowsAt(deepest)} vs ${rowsAt(0)})`,
      measured: `**${fixed(r.median)}** (rounds: ${each(r)})`,
      target: "≤ 1.10, equal rows read",
      met: r.median <= 1.1 && rowsAt(deepest) === rowsAt(0),
      earlier: "",
    };
  });
  return out;
}

/** The request log's goals: its cost to the request (on against off), its delay and storage. */
function requestLogGoals(results: RunResults): Goal[] {
  const out: Goal[] = [];
  const earlier = EARLIER.requestLog;
  for (const limit of [10, 100] as const) {
    const r = ratio(results, `statements-${limit}`, `unlogged-${limit}`, "rps");
    out.push({
      name: `Request log on ÷ off, req/s, limit=${limit}`,
      measured: `**${fixed(r.median)}** (rounds: ${r.rounds.map((x) => fixed(x)).join(", ")})`,
      target: "≥ 0.97",
      met: r.median >= 0.97,
      earlier,
    });
  }
  const cpu = { 10: addedLogCpu(results.cpu, 10), 100: addedLogCpu(results.cpu, 100) };
  const each = (r: { rounds: number[] }) => r.rounds.map((x) => fixed(x, 3)).join(", ");
  out.push({
    name: "Request log: Worker CPU added per request, on − off (profiled, the consumer included)",
    measured:
      `**${fixed(cpu[10].median, 3)} ms** at limit=10 (rounds: ${each(cpu[10])}); ` +
      `${fixed(cpu[100].median, 3)} ms at limit=100 (rounds: ${each(cpu[100])})`,
    target: "reported",
    met: true,
    earlier,
  });
  const trips = (label: string, limit: number) =>
    results.costs.find((c) => c.label === label && c.limit === limit)?.roundTrips ?? Number.NaN;
  const added = [10, 100].map(
    (limit) =>
      trips("main account, first page, 1,000,000-row table", limit) -
      trips("main account, first page, 1,000,000-row table, request log off", limit),
  );
  out.push({
    name: "Request log: D1 round trips added in the request (log line, on − off)",
    measured: `**${added.join("** and **")}** (limit=10 and 100)`,
    target: "0",
    met: added.every((n) => n === 0),
    earlier,
  });
  const log = results.requestLog;
  if (log) {
    const delays = log.delaysMs;
    out.push({
      name: "Request log: a request in the log after its response (local queue and consumer)",
      measured:
        `median **${fixed(median(delays) / 1000)} s**, at most ${fixed(Math.max(...delays) / 1000)} s ` +
        `(${delays.length} requests)`,
      target: "≤ 60 s",
      met: Math.max(...delays) <= 60_000,
      earlier,
    });
    out.push({
      name: "Request log: storage per logged request (row, indexes and daily counts)",
      measured:
        `**${fixed(log.grewBytes / log.logged, 0)} bytes** (the database grew ` +
        `${kib(log.grewBytes)} for ${log.logged.toLocaleString("en")} requests logged in the rounds)`,
      target: "reported",
      met: true,
      earlier,
    });
  }
  return out;
}

function machine(results: RunResults): string[] {
  const cpus = os.cpus();
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");
  const { settings } = results;
  return [
    `- Date: ${results.date.toISOString()} ` +
      `(the whole run took ${results.durationSeconds.toFixed(0)} s)`,
    `- Machine: ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ` +
      `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ` +
      `${os.type()} ${os.release()} (${os.arch()})`,
    `- Load average (1/5/15 min) before: ${load(results.load.before)}; ` +
      `after: ${load(results.load.after)}`,
    `${SCHEMA_LINE}${results.schema ?? "(not recorded by this run)"}`,
    `- Runtime: workerd through Miniflare ${versionOf("miniflare")} ` +
      "(each Worker on its own socket, no dev proxy); " +
      `Node ${process.versions.node}; wrangler ${versionOf("wrangler")}; ` +
      `autocannon ${versionOf("autocannon")}`,
    `- Load: autocannon, ${settings.connections} connections; ` +
      `${settings.warmupSeconds} s warm-up per arm, then ${settings.rounds} rounds ` +
      `of ${settings.seconds} s per arm. Arms that are compared run back to back, and ` +
      "every other round runs the list backwards. Each ratio is computed within a round; " +
      "the median over rounds is reported. Latencies come from every response, not " +
      "autocannon's whole-millisecond histogram. " +
      (settings.inspectorInRounds === false
        ? "The rounds run on a workerd without its DevTools inspector. "
        : "The rounds run with workerd's DevTools inspector open. ") +
      "Then " +
      `${settings.cpuRounds} rounds of CPU profiles (${settings.cpuSeconds} s per arm, ` +
      "the inspector open), then the " +
      "import arms on a second workerd.",
  ];
}

/** What failed or overran in this run, and whether it is still going. */
function failedSteps(results: RunResults): string[] {
  const failures = Object.entries(results.failures ?? {});
  const lines = ["## Failed steps", ""];
  if (results.finished === false) {
    lines.push(
      "**This run has not finished** (or stopped): the figures below are those measured so far.",
      "",
    );
  }
  if (results.partial) {
    lines.push(`**A partial run**: ${results.partial}`, "");
  } else if (failures.length === 0) {
    lines.push("None: every step finished within its time limit.");
  }
  for (const [name, reason] of failures) lines.push(`- **${name}**: ${reason}`);
  lines.push("");
  return lines;
}

export async function writeResults(file: string, chartFile: string, results: RunResults) {
  const lines: string[] = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (see bench/README.md for the method and the arms).",
    "",
    ...machine(results),
    "",
    ...failedSteps(results),
    "## Goals",
    "",
    `| goal | measured (median of rounds) | target | met | earlier run (${EARLIER.date}) |`,
    "| --- | --- | --- | --- | --- |",
    ...goals(results).map(
      (g) =>
        `| ${g.name} | ${g.measured} | ${g.target} | ${g.met ? "yes" : "**no**"} | ${g.earlier} |`,
    ),
    "",
    ...guarded("CPU per request", () => cpuSection(results.cpu)),
    ...guarded("Import", () => importSection(results.imports)),
    ...guarded("Import with line items", () => lineItemImportSection(results.imports)),
    "## Arms",
    "",
    "| arm | req/s | p50 ms | p99 ms |",
    "| --- | ---: | ---: | ---: |",
    ...results.arms.map(
      (a) =>
        `| ${a.label} | ${fixed(armMedian(results, a.id, "rps"), 0)} | ` +
        `${fixed(armMedian(results, a.id, "p50"))} | ${fixed(armMedian(results, a.id, "p99"))} |`,
    ),
    "",
    "Where the time goes (req/s ratios, median of rounds):",
    "",
    `- floor ÷ hello, limit=10: ${fixed(ratio(results, "floor-10", "hello", "rps").median)} ` +
      "(what one D1 query leaves of a bare Worker's throughput)",
    `- a partner on shard 01 ÷ a partner alike on shard 00, limit=10: ` +
      `${fixed(ratio(results, "shard-01-10", "shard-00-10", "rps").median)} ` +
      "(the same page, the same cost per request, on another D1 database)",
    `- two partners in turn on two shards ÷ on one shard, limit=10: ` +
      `${fixed(ratio(results, "two-shards-10", "one-shard-10", "rps").median)} ` +
      "(here every database is a SQLite file in the same workerd on the same 2 cores: this " +
      "shows that spreading costs nothing, not the throughput each further shard adds in " +
      "production, where each D1 database has a primary of its own)",
    ...[10, 100].flatMap((limit) => [
      `- floor ÷ the floor with the rate limiters not bound, limit=${limit}: ` +
        `${fixed(ratio(results, `floor-${limit}`, `bare-floor-${limit}`, "rps").median)} ` +
        "(what the two rate-limit checks cost here: Miniflare's binding is a call into another " +
        "isolate per check)",
      `- statements ÷ the same with the rate limiters not bound, limit=${limit}: ` +
        `${fixed(ratio(results, `statements-${limit}`, `unlimited-${limit}`, "rps").median)} ` +
        "(the same checks in the service)",
      `- statements ÷ floor, both with the rate limiters not bound, limit=${limit}: ` +
        `${fixed(ratio(results, `unlimited-${limit}`, `bare-floor-${limit}`, "rps").median)} ` +
        "(the goal's ratio without the checks on either side)",
      `- floor with the service's reads in 1 round trip ÷ floor, limit=${limit}: ` +
        `${fixed(ratio(results, `one-trip-${limit}`, `floor-${limit}`, "rps").median)} ` +
        "(the cost of reading the key, partner and account rows with the page)",
      `- statements ÷ floor with the service's reads in 1 round trip, limit=${limit}: ` +
        `${fixed(ratio(results, `statements-${limit}`, `one-trip-${limit}`, "rps").median)} ` +
        "(the cost of the Worker's own code: framework, auth, versions, link signing, JSON)",
      `- the same reads in 2 round trips ÷ in 1, limit=${limit}: ` +
        `${fixed(ratio(results, `two-trips-${limit}`, `one-trip-${limit}`, "rps").median)} ` +
        "(what the second round trip of the earlier design cost)",
    ]),
    "",
    "## Cost per request",
    "",
    "From the Worker's per-request log line (`d1_queries`, `d1_rows_read`). The page query's own " +
      "figure is the floor's `meta.rows_read` for the same keyset query; the rest is the key " +
      "lookup (key and partner rows) and, on a first page, the ownership check (the account row). " +
      "The filtered rows bound `period_end_date` on both sides; a key that does not exist " +
      "matches no row, so its one statement reads nothing else.",
    "",
    "| request | limit | rows returned | D1 round trips | rows read " +
      "| of which the page query | rows read − limit |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.costs.map(
      (c) =>
        `| ${c.label} | ${c.limit} | ${c.rowsReturned} | ${c.roundTrips} | ${c.rowsRead} | ` +
        `${c.pageQueryRows ?? "n/a"} | ${c.status === 200 ? c.rowsRead - c.limit : "n/a"} |`,
    ),
    "",
    "## Latency against page depth",
    "",
    "![p50 latency against page depth](depth.svg)",
    "",
    "## Bundle and start-up",
    "",
    `- Production bundle: ${kib(results.bundle.bytes)}, gzip ${kib(results.bundle.gzipBytes)} ` +
      `(budget ${kib(BUNDLE_BUDGET_BYTES)}).`,
    results.startup
      ? "- Start-up (`wrangler check startup`, local CPU profile): " +
        `${results.startup.activeMs} ms active CPU in a ${results.startup.sampledMs} ms ` +
        "sampled window."
      : "- Start-up: `wrangler check startup` is not available with this wrangler.",
    "",
    ...guarded("Closing note", () =>
      closingNote(
        results,
        {
          10: ratio(results, "statements-10", "floor-10", "rps"),
          100: ratio(results, "statements-100", "floor-100", "rps"),
        },
        {
          10: ratio(results, "statements-10", "unlimited-10", "rps"),
          100: ratio(results, "statements-100", "unlimited-100", "rps"),
        },
        {
          10: ratio(results, "statements-10", "unlogged-10", "rps"),
          100: ratio(results, "statements-100", "unlogged-100", "rps"),
        },
      ),
    ),
  ];
  await writeFile(file, `${lines.join("\n")}\n`);

  const depthArms = results.arms.filter((a) => a.depth !== undefined);
  const series = (prefix: string) =>
    depthArms
      .filter((a) => a.id.startsWith(prefix))
      .map((a) => ({
        depth: a.depth as number,
        p50: armMedian(results, a.id, "p50"),
        p99: armMedian(results, a.id, "p99"),
      }))
      // A depth whose arm failed in every round has no point.
      .filter((point) => Number.isFinite(point.p50));
  await writeFile(
    chartFile,
    depthChart([
      { name: "statements (full pipeline)", color: "#d9480f", points: series("depth-") },
      { name: "floor", color: "#1c7ed6", points: series("floor-depth-") },
    ]),
  );
}
