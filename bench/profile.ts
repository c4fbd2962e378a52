// `node bench/profile.ts [arm…]`: CPU profiles of every isolate a statements request runs in, under
// the bench's load, summarised as CPU milliseconds per request by module (package or source file).
// Arms: statements-10, statements-100 (default both), floor-10, floor-100; `--functions` splits
// each module by function.
import { MAIN_ACCOUNT } from "./data.ts";
import {
  bundleModules,
  type CpuProfile,
  cpuByName,
  D1_ISOLATES,
  profileDuring,
  workerIsolate,
} from "./inspector.ts";
import { measure, type Target } from "./load.ts";
import { floorPath, statementsPath } from "./probe.ts";
import { setUpBench } from "./setup.ts";

const INSPECTOR_PORT = 9339;
const ISOLATES = [workerIsolate("api"), workerIsolate("floor"), ...D1_ISOLATES];

function summarise(
  profile: CpuProfile,
  requests: number,
  moduleAt: (line: number) => string,
  byFunction: boolean,
) {
  const { busyMicros, byName } = cpuByName(profile, (frame) => {
    let name: string;
    if (frame.url.endsWith("index.js") && frame.url.includes("/build/api/")) {
      name = moduleAt(frame.lineNumber);
    } else if (frame.url) {
      name = frame.url.split("/").at(-1) as string;
    } else {
      name = frame.functionName ? `${frame.functionName} (native)` : "(native)";
    }
    return byFunction && frame.url ? `${name}: ${frame.functionName || "(anonymous)"}` : name;
  });
  const perRequest = (micros: number) => (micros / 1000 / requests).toFixed(3);
  console.log(`  busy ${perRequest(busyMicros)} ms per request`);
  const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, byFunction ? 30 : 14);
  for (const [name, micros] of top)
    console.log(`    ${perRequest(micros).padStart(7)} ms  ${name}`);
}

async function main(): Promise<void> {
  const byFunction = process.argv.includes("--functions");
  const chosen = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  const { bundle, server, dataset } = await setUpBench(console.log, {
    inspectorPort: INSPECTOR_PORT,
  });
  try {
    const auth = { authorization: `Bearer ${dataset.keys.large}` };
    const arms: Record<string, Target> = {};
    for (const limit of [10, 100]) {
      arms[`statements-${limit}`] = {
        url: new URL(statementsPath(MAIN_ACCOUNT, `limit=${limit}`), server.url("api")).href,
        headers: auth,
      };
      arms[`floor-${limit}`] = {
        url: new URL(floorPath(MAIN_ACCOUNT, limit), server.url("floor")).href,
      };
    }
    const moduleAt = await bundleModules(bundle.main);
    for (const name of chosen.length > 0 ? chosen : ["statements-10", "statements-100"]) {
      const arm = arms[name];
      if (!arm) throw new Error(`unknown arm ${name}; one of ${Object.keys(arms).join(", ")}`);
      await measure(arm, { connections: 4, seconds: 2 });
      let rps = 0;
      const { requests, profiles } = await profileDuring(INSPECTOR_PORT, ISOLATES, async () => {
        const result = await measure(arm, { connections: 4, seconds: 5 });
        rps = result.rps;
        return result.requests;
      });
      console.log(`\n${name}: ${rps.toFixed(0)} req/s while profiled`);
      for (const [isolate, profile] of profiles) {
        console.log(` ${isolate}`);
        summarise(profile, requests, moduleAt, byFunction);
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
