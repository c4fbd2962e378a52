// `node bench/profile.ts [arm…]`: CPU profiles of every isolate a statements request runs in, under
// the bench's load, summarised as CPU milliseconds per request by module (package or source file).
// Arms: statements-10, statements-100 (default both), floor-10, floor-100; `--functions` splits
// each module by function.
import { readFile } from "node:fs/promises";
import { MAIN_ACCOUNT } from "./data.ts";
import { measure, type Target } from "./load.ts";
import { floorPath, statementsPath } from "./probe.ts";
import { setUpBench } from "./setup.ts";

const INSPECTOR_PORT = 9339;
/** The isolates a statements request crosses: the Worker, Miniflare's D1 proxy, the D1 object. */
const ISOLATES = ["core:user:api", "core:user:floor", "d1:db:entry", "d1:db"];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A DevTools protocol session over the inspector's WebSocket. */
async function openSession(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve);
    socket.addEventListener("error", reject);
  });
  let next = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  return {
    send<T>(method: string, params: object = {}): Promise<T> {
      next += 1;
      const id = next;
      return new Promise((resolve) => {
        pending.set(id, (result) => resolve(result as T));
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () => socket.close(),
  };
}

/** Maps a line of the bundle to the module esbuild placed there (its `// path` header). */
async function bundleModules(bundlePath: string): Promise<(line: number) => string> {
  const headers: [number, string][] = [];
  (await readFile(bundlePath, "utf8")).split("\n").forEach((text, index) => {
    const match = /^\/\/ ((?:node_modules|src|versions)\/\S+)$/.exec(text);
    if (match?.[1]) {
      const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(match[1])?.[1];
      headers.push([index, pkg ?? match[1]]);
    }
  });
  return (line) => {
    let name = "(bundle prelude)";
    for (const [start, module] of headers) {
      if (start > line) break;
      name = module;
    }
    return name;
  };
}

function summarise(
  profile: CpuProfile,
  requests: number,
  moduleAt: (line: number) => string,
  byFunction: boolean,
) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((sample, i) => {
    const frame = byId.get(sample)?.callFrame;
    if (!frame) return;
    let name: string;
    if (frame.url.endsWith("index.js") && frame.url.includes("/build/api/")) {
      name = moduleAt(frame.lineNumber);
    } else if (frame.url) {
      name = frame.url.split("/").at(-1) as string;
    } else {
      name = frame.functionName ? `${frame.functionName} (native)` : "(native)";
    }
    if (byFunction && frame.url) name = `${name}: ${frame.functionName || "(anonymous)"}`;
    if (frame.functionName === "(idle)") name = "(idle)";
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const idle = totals.get("(idle)") ?? 0;
  const all = [...totals.values()].reduce((a, b) => a + b, 0);
  const perRequest = (micros: number) => (micros / 1000 / requests).toFixed(3);
  console.log(`  busy ${perRequest(all - idle)} ms per request`);
  const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, byFunction ? 30 : 14);
  for (const [name, micros] of top) {
    if (name !== "(idle)") console.log(`    ${perRequest(micros).padStart(7)} ms  ${name}`);
  }
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
    const targets = (await (
      await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)
    ).json()) as { webSocketDebuggerUrl: string }[];
    for (const name of chosen.length > 0 ? chosen : ["statements-10", "statements-100"]) {
      const arm = arms[name];
      if (!arm) throw new Error(`unknown arm ${name}; one of ${Object.keys(arms).join(", ")}`);
      await measure(arm, { connections: 4, seconds: 2 });
      const sessions = await Promise.all(
        ISOLATES.map(async (isolate) => {
          const target = targets.find((t) => t.webSocketDebuggerUrl.endsWith(`/${isolate}`));
          if (!target) throw new Error(`no inspector target ${isolate}`);
          const session = await openSession(target.webSocketDebuggerUrl);
          await session.send("Profiler.enable");
          await session.send("Profiler.setSamplingInterval", { interval: 200 });
          await session.send("Profiler.start");
          return { isolate, session };
        }),
      );
      const result = await measure(arm, { connections: 4, seconds: 5 });
      console.log(`\n${name}: ${result.rps.toFixed(0)} req/s while profiled`);
      for (const { isolate, session } of sessions) {
        const { profile } = await session.send<{ profile: CpuProfile }>("Profiler.stop");
        session.close();
        console.log(` ${isolate}`);
        summarise(profile, result.requests, moduleAt, byFunction);
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
