// `node bench/profile.ts [arm…]`: CPU profiles of every isolate a statements request runs in, under
// the bench's load, summarised as CPU milliseconds per request by module (source file or package,
// through the bundle's source map). Arms: statements-10, statements-100 (default both), floor-10,
// floor-100, bare-floor-10, bare-floor-100, unlogged-10, unlogged-100 (the statements route with
// the request log off), one-trip-10, one-trip-100 (the floor making the service's other reads, key,
// partner and account, in its one round trip), card-masked and card-pci (one card read by a key
// without and with PCI_DETAILS_READ; with `--rounds`, the difference is what a PCI read adds),
// line-items-10, line-items-100, line-items-floor-10, line-items-floor-100 (a page of one
// statement's line items, and its floor). `--functions` splits each module by function;
// `--inclusive` counts a function's callees in its time (what a whole middleware costs); `--top N`
// lists the N costliest names (30, or 60 with `--inclusive`); `--save DIR` keeps the raw profiles
// (DevTools opens them); `--seconds N` loads each arm N seconds while profiled (5); `--rounds N`
// instead measures only the busy CPU per request of each arm in N rounds alternating the order, as
// `npm run bench` does, and prints each arm's median and, for the statements arms, their ratio to
// the floor (and to the one-trip and unlogged arms) within each round. `--against REF` also serves
// the service as it was at git revision REF, or as built from the checkout in directory REF (arms
// base-10, base-100), and reports the statements arms' ratio to it: what a change bought, measured
// side by side. `--paired` with `--rounds` loads each statements arm at the same time as its
// counterpart (the base with `--against`, else the floor) while both are profiled: the steadiest
// comparison on a busy machine.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildWorkerAt } from "../builds/worker.ts";
import { type CpuArm, measureCpu, measureCpuPaired } from "./cpu.ts";
import { CUSTOMER, DEEP_ACCOUNT, LINE_ITEMS_STATEMENT, MAIN_ACCOUNT } from "./data.ts";
import { fixed } from "./format.ts";
import {
  bundleOrigins,
  type CpuProfile,
  cpuByName,
  D1_ISOLATES,
  inclusiveCpuByName,
  LIMITER_ISOLATES,
  type ProfileNode,
  profileDuring,
  workerIsolate,
} from "./inspector.ts";
import { measure, median, type Target } from "./load.ts";

/** The median of the rounds that measured something (a round whose profile failed has NaN). */
const medianOf = (values: number[]) => median(values.filter(Number.isFinite));

import {
  floorLineItemsPath,
  floorPath,
  floorReadsPath,
  lineItemsPath,
  statementsPath,
} from "./probe.ts";
import { LARGE_DB, type WorkerSpec } from "./serve.ts";
import { DATA_DIR, setUpBench } from "./setup.ts";

const INSPECTOR_PORT = 9339;

type NameOf = (frame: ProfileNode["callFrame"]) => string;

function summarise(
  profile: CpuProfile,
  requests: number,
  nameOf: NameOf,
  inclusive: boolean,
  top: number,
) {
  const { busyMicros, byName } = cpuByName(profile, nameOf);
  const perRequest = (micros: number) => (micros / 1000 / requests).toFixed(3);
  console.log(`  busy ${perRequest(busyMicros)} ms per request`);
  const totals = inclusive ? inclusiveCpuByName(profile, nameOf) : byName;
  const listed = [...totals].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [name, micros] of listed)
    console.log(`    ${perRequest(micros).padStart(7)} ms  ${name}`);
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

async function main(): Promise<void> {
  const byFunction = process.argv.includes("--functions");
  const inclusive = process.argv.includes("--inclusive");
  const saveDir = option("--save");
  const seconds = Number(option("--seconds") ?? 5);
  const rounds = option("--rounds");
  const top = Number(option("--top") ?? (inclusive ? 60 : 30));
  const against = option("--against");
  const valued = new Set([saveDir, option("--seconds"), rounds, against, option("--top")]);
  const chosen = process.argv.slice(2).filter((arg) => !arg.startsWith("--") && !valued.has(arg));
  const extraWorkers: WorkerSpec[] = [];
  let baseMain: string | undefined;
  if (against) {
    console.log(`building the production bundle as of ${against}`);
    const base = await buildWorkerAt(against, path.join(DATA_DIR, "against"));
    baseMain = base.main;
    extraWorkers.push({
      name: "api-base",
      script: "api",
      database: LARGE_DB,
      scriptPath: base.main,
    });
  }
  const { bundle, floor, server, dataset } = await setUpBench(console.log, {
    inspectorPort: INSPECTOR_PORT,
    extraWorkers,
  });
  try {
    const auth = { authorization: `Bearer ${dataset.keys.large}` };
    const arms: Record<string, Target & { worker: string }> = {};
    for (const limit of [10, 100]) {
      for (const [id, worker] of [
        ["statements", "api"],
        ["base", "api-base"],
        ["unlogged", "api-unlogged"],
      ] as const) {
        if (worker === "api-base" && !against) continue;
        arms[`${id}-${limit}`] = {
          worker,
          url: new URL(statementsPath(MAIN_ACCOUNT, `limit=${limit}`), server.url(worker)).href,
          headers: auth,
        };
      }
      for (const worker of ["floor", "bare-floor"]) {
        arms[`${worker}-${limit}`] = {
          worker,
          url: new URL(floorPath(MAIN_ACCOUNT, limit), server.url(worker)).href,
          headers: auth,
        };
      }
      arms[`one-trip-${limit}`] = {
        worker: "floor",
        url: new URL(floorReadsPath("one-trip", MAIN_ACCOUNT, CUSTOMER, limit), server.url("floor"))
          .href,
        headers: auth,
      };
      // A page of one statement's line items, and its floor (the same keyset query alone).
      arms[`line-items-${limit}`] = {
        worker: "api",
        url: new URL(
          lineItemsPath(DEEP_ACCOUNT, LINE_ITEMS_STATEMENT, `limit=${limit}`),
          server.url("api"),
        ).href,
        headers: auth,
      };
      arms[`line-items-floor-${limit}`] = {
        worker: "floor",
        url: new URL(floorLineItemsPath(LINE_ITEMS_STATEMENT, limit), server.url("floor")).href,
      };
    }
    // One card read by a key without PCI_DETAILS_READ (masked) and by one with it (`pci_details`:
    // the PAN and CVV decrypted, the read audited): what a PCI read adds.
    const cardPath = `/v2/payment_methods/${dataset.programme.card}`;
    for (const [id, key] of [
      ["card-masked", dataset.programme.key],
      ["card-pci", dataset.programme.pciKey],
    ] as const) {
      arms[id] = {
        worker: "api",
        url: new URL(cardPath, server.url("api")).href,
        headers: { authorization: `Bearer ${key}` },
      };
    }
    const origins = {
      api: await bundleOrigins(bundle.main),
      floor: await bundleOrigins(floor.main),
      base: baseMain ? await bundleOrigins(baseMain) : undefined,
    };
    const names = chosen.length > 0 ? chosen : ["statements-10", "statements-100"];
    const cpuArm = (id: string): CpuArm => {
      const arm = arms[id];
      if (!arm) throw new Error(`unknown arm ${id}; one of ${Object.keys(arms).join(", ")}`);
      return { id, label: id, worker: arm.worker, target: arm };
    };
    if (rounds && process.argv.includes("--paired")) {
      for (const id of names.filter((name) => name.startsWith("statements-"))) {
        const otherId = id.replace(/^statements-/, against ? "base-" : "floor-");
        const measured = await measureCpuPaired(
          INSPECTOR_PORT,
          [cpuArm(id), cpuArm(otherId)],
          { rounds: Number(rounds), seconds, connections: 4 },
          console.log,
        );
        const ms = (round: Map<string, { workerMs: number }>, arm: string) =>
          round.get(arm)?.workerMs ?? Number.NaN;
        const ratios = measured.map((round) => ms(round, id) / ms(round, otherId));
        const list = (values: number[]) => values.map((x) => fixed(x, 3)).join(", ");
        console.log(
          `${id}: ${fixed(medianOf(measured.map((r) => ms(r, id))), 3)} ms, ${otherId}: ` +
            `${fixed(medianOf(measured.map((r) => ms(r, otherId))), 3)} ms, ratio ` +
            `${fixed(medianOf(ratios), 3)} (${list(ratios)})`,
        );
      }
      return;
    }
    if (rounds) {
      const cpuArms = names.map(cpuArm);
      const measured = await measureCpu(
        INSPECTOR_PORT,
        cpuArms,
        { rounds: Number(rounds), seconds, connections: 4 },
        console.log,
      );
      const perRequest = (round: Map<string, { workerMs: number }>, id: string) =>
        round.get(id)?.workerMs ?? Number.NaN;
      for (const id of names) {
        const each = measured.map((round) => perRequest(round, id));
        let line = `${id.padEnd(16)} ${fixed(medianOf(each), 3)} ms (${each.map((x) => fixed(x, 3)).join(", ")})`;
        for (const other of ["floor", "one-trip", "base", "unlogged"]) {
          const otherId = id.replace(/^statements-/, `${other}-`);
          if (otherId === id || !names.includes(otherId)) continue;
          const ratios = measured.map(
            (round) => perRequest(round, id) / perRequest(round, otherId),
          );
          line += `  ÷ ${other} ${fixed(medianOf(ratios))} (${ratios.map((x) => fixed(x)).join(", ")})`;
        }
        console.log(line);
      }
      if (names.includes("card-pci") && names.includes("card-masked")) {
        const added = measured.map(
          (round) => perRequest(round, "card-pci") - perRequest(round, "card-masked"),
        );
        console.log(
          `card-pci − card-masked: ${fixed(medianOf(added), 3)} ms per read ` +
            `(${added.map((x) => fixed(x, 3)).join(", ")})`,
        );
      }
      return;
    }
    if (saveDir) await mkdir(saveDir, { recursive: true });
    for (const name of names) {
      const arm = arms[name];
      if (!arm) throw new Error(`unknown arm ${name}; one of ${Object.keys(arms).join(", ")}`);
      await measure(arm, { connections: 4, seconds: 2 });
      let rps = 0;
      const isolates = [workerIsolate(arm.worker), ...D1_ISOLATES, ...LIMITER_ISOLATES];
      const { requests, profiles } = await profileDuring(INSPECTOR_PORT, isolates, async () => {
        const result = await measure(arm, { connections: 4, seconds });
        rps = result.rps;
        return result.requests;
      });
      console.log(`\n${name}: ${rps.toFixed(0)} req/s while profiled`);
      const originOf = arm.worker.includes("floor")
        ? origins.floor
        : arm.worker === "api-base" && origins.base
          ? origins.base
          : origins.api;
      const nameOf: NameOf = (frame) => {
        let module: string;
        let fn = frame.functionName || "(anonymous)";
        if (frame.url.endsWith(".js") && frame.url.includes("/build/")) {
          const origin = originOf(frame);
          module = origin.module;
          fn = origin.name;
        } else if (frame.url) {
          module = frame.url.split("/").at(-1) as string;
        } else {
          return frame.functionName ? `${frame.functionName} (native)` : "(native)";
        }
        return byFunction || inclusive ? `${module}: ${fn}` : module;
      };
      for (const [isolate, profile] of profiles) {
        console.log(` ${isolate}`);
        summarise(profile, requests, nameOf, inclusive, top);
        if (saveDir) {
          const file = path.join(saveDir, `${name}.${isolate.replaceAll(":", "_")}.cpuprofile`);
          await writeFile(file, JSON.stringify(profile));
        }
      }
    }
  } finally {
    await server.dispose();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
