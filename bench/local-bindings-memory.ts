// `node bench/local-bindings-memory.ts [seconds]`: the memory a local runtime keeps per call of
// Miniflare's own bindings, with none of this service's code: a ten-line Worker calls a rate
// limiter, or reads and writes a D1 row, or does nothing, per request, under 8 connections, and
// the runtime's resident anonymous memory is read before and after (after 5 s of rest). The soak
// (scripts/soak.ts) found the local runtime growing while the Worker's heap stayed flat: this
// tells what of that growth is the local bindings' own (bench/README.md, "The soak").
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const SECONDS = Number(process.argv[2] ?? 60);

const WORKER = `
export default {
  async fetch(request, env) {
    const what = new URL(request.url).pathname;
    if (what === "/limit") await env.LIMITER.limit({ key: String(Math.random()) });
    if (what === "/d1") {
      await env.DB.prepare("INSERT INTO t (k, n) VALUES (?1, 1) ON CONFLICT (k) DO UPDATE SET n = n + 1")
        .bind(String(Math.floor(Math.random() * 100))).run();
      await env.DB.prepare("SELECT k, n FROM t ORDER BY n DESC LIMIT 10").all();
    }
    return new Response("ok");
  },
};`;

/** Resident anonymous memory (MiB) of the workerd processes this one started. */
function runtimeMemory(): number {
  let total = 0;
  const children = (pid: number) => {
    try {
      const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
      return text ? text.split(/\s+/).map(Number) : [];
    } catch {
      return [];
    }
  };
  const queue = [process.pid];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    queue.push(...children(pid));
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd")) continue;
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      total += Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {
      // Gone.
    }
  }
  return total;
}

for (const route of ["/nothing", "/limit", "/d1"]) {
  const state = await mkdtemp(path.join(os.tmpdir(), "bindings-memory-"));
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: state,
      enableDevRegistry: false,
      workers: [
        {
          name: "bindings",
          modules: true,
          script: WORKER,
          compatibilityDate: "2026-11-01",
          d1Databases: { DB: "bindings-memory" },
          ratelimits: {
            LIMITER: { namespace_id: "1", simple: { limit: 1_000_000_000, period: 60 } },
          },
        },
      ],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  try {
    const url = await mf.ready;
    const db = await mf.getD1Database("DB", "bindings");
    await db.prepare("CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER)").run();
    await sleep(2000);
    const before = runtimeMemory();
    let requests = 0;
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (Date.now() < until) {
          await (await fetch(new URL(route, url))).arrayBuffer();
          requests += 1;
        }
      }),
    );
    await sleep(5000);
    const after = runtimeMemory();
    const perThousand = ((after - before) / requests) * 1000;
    console.log(
      `${route.padEnd(9)} ${requests} requests: runtime ${before.toFixed(0)} → ` +
        `${after.toFixed(0)} MiB, ${perThousand.toFixed(1)} MiB per 1,000 requests`,
    );
  } finally {
    await mf.dispose();
    await rm(state, { recursive: true, force: true });
  }
}
