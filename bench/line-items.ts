// `npm run bench:line-items`: the line items arms alone, in the rounds `npm run bench` runs them
// in (every arm once a round, every other round backwards): a statement's line items page at
// limit 10 and 100 beside the floor running the same keyset query, and the page 5,000 items deep
// beside the first; with each page's D1 cost from its log line. Prints the goals as RESULTS.md
// words them and saves the measurements to bench/.data/line-items.json; RESULTS.md is left as the
// last full run wrote it. BENCH_ROUNDS, BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS as
// for `npm run bench`.
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Arm, lineItemArms } from "./arms.ts";
import { DEEP_ACCOUNT, LINE_ITEMS_STATEMENT } from "./data.ts";
import { type Measurement, measure } from "./load.ts";
import { lineItemPositionsAt, measureLineItemCosts } from "./probe.ts";
import { lineItemGoals } from "./report.ts";
import { DATA_DIR, setUpBench } from "./setup.ts";

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = setting("BENCH_ROUNDS", 7);
const options = {
  connections: setting("BENCH_CONNECTIONS", 4),
  seconds: setting("BENCH_SECONDS", 2),
};
const WARMUP_SECONDS = setting("BENCH_WARMUP_SECONDS", 1);

const started = Date.now();
const progress = (message: string) =>
  console.log(`[line items ${((Date.now() - started) / 1000).toFixed(0).padStart(3)}s] ${message}`);

const loadBefore = os.loadavg();
const { server, dataset } = await setUpBench(progress);
try {
  progress("paging through the line items statement for page tokens");
  const positions = await lineItemPositionsAt(
    server,
    DEEP_ACCOUNT,
    LINE_ITEMS_STATEMENT,
    dataset.keys.large,
    [0, 5_000],
  );
  const lineItemCosts = await measureLineItemCosts(server, dataset.keys.large, positions);
  for (const c of lineItemCosts) {
    console.log(
      `  ${c.label}, limit=${c.limit}: ${c.roundTrips} round trip(s), ${c.rowsRead} rows read ` +
        `(the floor's query alone ${c.pageQueryRows}), ${c.rowsReturned} returned`,
    );
  }
  const arms: Arm[] = lineItemArms(
    (worker, route) => new URL(route, server.url(worker)).href,
    dataset.keys.large,
    positions,
  );
  progress(`warming up ${arms.length} arms`);
  for (const arm of arms) await measure(arm, { ...options, seconds: WARMUP_SECONDS });
  const rounds: Map<string, Measurement>[] = [];
  const loads: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    progress(`round ${r + 1} of ${ROUNDS}: ${arms.length} arms × ${options.seconds} s`);
    const round = new Map<string, Measurement>();
    for (const arm of r % 2 === 0 ? arms : [...arms].reverse()) {
      round.set(arm.id, await measure(arm, options));
    }
    rounds.push(round);
    loads.push(os.loadavg()[0] as number);
  }
  const loadAfter = os.loadavg();
  for (const arm of arms) {
    const each = rounds.map((round) => round.get(arm.id));
    console.log(
      `  ${arm.id}: req/s ${each.map((m) => m?.rps.toFixed(0)).join(", ")}; ` +
        `p50 ms ${each.map((m) => m?.p50.toFixed(2)).join(", ")}`,
    );
  }
  for (const goal of lineItemGoals({ rounds, lineItemCosts })) {
    console.log(
      `${goal.met ? "met    " : "NOT MET"} ${goal.name}: ${goal.measured} (${goal.target})`,
    );
  }
  console.log(
    `load average: before ${loadBefore.map((x) => x.toFixed(2)).join(" ")}, after each round ` +
      `${loads.map((x) => x.toFixed(2)).join(", ")}`,
  );
  const file = path.join(DATA_DIR, "line-items.json");
  const replacer = (_key: string, value: unknown) =>
    value instanceof Map ? { $map: [...value] } : value;
  await writeFile(
    file,
    JSON.stringify(
      { date: new Date(), options, loadBefore, loadAfter, loads, lineItemCosts, rounds },
      replacer,
    ),
  );
  progress(`saved ${path.relative(process.cwd(), file)}`);
} finally {
  await server.dispose();
}
