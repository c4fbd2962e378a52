// `node bench/local-bindings-memory.ts [seconds] [variant…]`: which part of a local run keeps
// memory, each local binding's share isolated, as the runtime's RSS growth per 1,000 requests.
//
// - `bare:*`: Miniflare's own bindings with none of this service's code: a ten-line Worker does
//   nothing, or calls a rate limiter, writes and reads a D1 row, puts and gets an R2 object, sends
//   to a queue whose consumer acks, or to one whose consumer writes D1 (the request log's pattern),
//   per request, under 8 connections.
// - `service:*`: the soak's traffic (scripts/soak.ts: mixed valid and hostile, 8 clients) against
//   this service under `wrangler dev` (a copy of the tree, fresh local state), once as it is and
//   once with each suspect taken out: the request log's queue unbound, every queue and consumer
//   unbound, the rate limiters unbound, no PDF downloads (R2 reads), only the static routes (no
//   binding at all); and once with the local cron fired every 10 s. The local cron is off in the
//   others, so each row's difference from `service:as-is` is that binding's share. D1 cannot be
//   taken out of the service: its share is what `service:static` does not explain (and `bare:d1`).
//
// The runtime's memory is read before the load, after its first quarter (the warm-up) and after
// 5 s of rest: the growth per 1,000 requests is given over the whole load and after the warm-up;
// wrangler's dev proxy is reported apart. `seconds` is the load of each variant (default 60); a
// variant named alone runs alone, `bare` or `service` runs its group, none runs all.
// The findings and the minimal reproduction: docs/testing.md, "Soak".
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { runScheduled } from "../scripts/local-cron.ts";
import { mix, partnerIps, pick, STATEMENTS_PATH, seed, workerdRss } from "../scripts/soak.ts";
import { startLocalService } from "../test/support/node/local-service.ts";
import { scratchCopy } from "../test/support/node/npm-start.ts";
import { OLDEST_VERSION } from "./arms.ts";

const args = process.argv.slice(2);
const SECONDS = Number(args.find((a) => /^\d+$/.test(a)) ?? 60);
const CONCURRENCY = 8;
const MIB = 1024 * 1024;

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
    if (what === "/r2") {
      const key = String(Math.floor(Math.random() * 100));
      await env.BUCKET.put(key, "x".repeat(4096));
      await (await env.BUCKET.get(key))?.arrayBuffer();
    }
    if (what === "/queue") await env.ACKED.send({ at: Date.now() });
    if (what === "/queue-d1") await env.WRITTEN.send({ k: String(Math.random()) });
    return new Response("ok");
  },
  async queue(batch, env) {
    if (batch.queue === "written") {
      await env.DB.batch(batch.messages.map((m) =>
        env.DB.prepare("INSERT INTO log (k) VALUES (?1)").bind(m.body.k)));
    }
    batch.ackAll();
  },
};`;

/** Resident memory (bytes) of the workerd processes this one started (Miniflare's runtime). */
function bareRuntimeMemory(): number {
  return workerdRss(process.pid, -1).runtime;
}

/** The memory (bytes) and the count of requests when the warm-up ended. */
interface Warm {
  requests: number;
  bytes: number;
}

interface Row {
  variant: string;
  requests: number;
  warm: Warm;
  statuses: Map<number, number>;
  runtime: [number, number];
  devProxy?: [number, number];
}

function print(row: Row): void {
  const per = ([before, after]: [number, number]) =>
    (((after - before) / MIB / row.requests) * 1000).toFixed(1);
  const afterWarmUp = (
    ((row.runtime[1] - row.warm.bytes) / MIB / (row.requests - row.warm.requests)) *
    1000
  ).toFixed(1);
  const fives = [...row.statuses].filter(([s]) => s >= 500 || s === 0);
  console.log(
    `${row.variant.padEnd(26)} ${String(row.requests).padStart(6)} requests: runtime ` +
      `${(row.runtime[0] / MIB).toFixed(0)} → ${(row.runtime[1] / MIB).toFixed(0)} MB, ` +
      `${per(row.runtime)} MB per 1,000, ${afterWarmUp} after its warm-up` +
      (row.devProxy
        ? `; dev proxy ${(row.devProxy[0] / MIB).toFixed(0)} → ` +
          `${(row.devProxy[1] / MIB).toFixed(0)} MB, ${per(row.devProxy)} per 1,000`
        : "") +
      (fives.length > 0 ? `; failures ${fives.map(([s, n]) => `${s}×${n}`).join(" ")}` : ""),
  );
}

/** `CONCURRENCY` clients calling `next()`'s request until `seconds` pass. */
async function load(
  seconds: number,
  next: () => { url: string; init?: RequestInit },
  memory: () => number,
): Promise<{ requests: number; statuses: Map<number, number>; warm: Warm }> {
  const statuses = new Map<number, number>();
  let requests = 0;
  const until = Date.now() + seconds * 1000;
  const warm = { requests: 0, bytes: 0 };
  // The first quarter of the load is the runtime's warm-up (compiled code, caches, pools).
  const warmedUp = setTimeout(
    () => {
      warm.requests = requests;
      warm.bytes = memory();
    },
    (seconds * 1000) / 4,
  );
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const { url, init } = next();
        let status = 0;
        try {
          const res = await fetch(url, init);
          await res.arrayBuffer();
          status = res.status;
        } catch {
          // Counted as status 0.
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        requests += 1;
      }
    }),
  );
  clearTimeout(warmedUp);
  return { requests, statuses, warm };
}

// ---- bare: Miniflare's bindings, no service code ----------------------------------------------

const BARE = ["nothing", "limit", "d1", "r2", "queue", "queue-d1"];

async function bare(route: string): Promise<Row> {
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
          r2Buckets: ["BUCKET"],
          queueProducers: { ACKED: { queueName: "acked" }, WRITTEN: { queueName: "written" } },
          queueConsumers: {
            acked: { maxBatchSize: 100, maxBatchTimeout: 1 },
            written: { maxBatchSize: 100, maxBatchTimeout: 1 },
          },
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
    await db.prepare("CREATE TABLE log (k TEXT)").run();
    await sleep(2000);
    const before = bareRuntimeMemory();
    const target = new URL(`/${route}`, url).href;
    const { requests, statuses, warm } = await load(
      SECONDS,
      () => ({ url: target }),
      bareRuntimeMemory,
    );
    await sleep(5000);
    const after = bareRuntimeMemory();
    return { variant: `bare:${route}`, requests, statuses, warm, runtime: [before, after] };
  } finally {
    await mf.dispose();
    await rm(state, { recursive: true, force: true });
  }
}

// ---- service: the soak's traffic, each binding taken out in turn ------------------------------

/** wrangler.toml without the `[[header]]` tables `drop` picks (all of them by default). */
export function withoutTables(toml: string, header: string, drop = (_body: string) => true) {
  const sections = toml.split(/^(?=\[)/m);
  return sections.filter((s) => !(s.startsWith(`[[${header}]]`) && drop(s))).join("");
}

interface ServiceVariant {
  toml?: (toml: string) => string;
  /** Soak traffic without its PDF downloads, or only the routes that touch no binding. */
  traffic?: "no-pdf" | "static";
  cron?: boolean;
}

const SERVICE: Record<string, ServiceVariant> = {
  "service:as-is": {},
  "service:no-request-log": {
    toml: (t) => withoutTables(t, "queues.producers", (s) => /binding = "REQUEST_LOGS/.test(s)),
  },
  "service:no-queues": {
    toml: (t) => withoutTables(withoutTables(t, "queues.producers"), "queues.consumers"),
  },
  "service:no-rate-limiters": { toml: (t) => withoutTables(t, "ratelimits") },
  "service:no-r2-reads": { traffic: "no-pdf" },
  "service:cron-every-10s": { cron: true },
  "service:static": { traffic: "static" },
};

async function service(
  name: string,
  variant: ServiceVariant,
  copy: { root: string },
  toml: string,
): Promise<Row> {
  writeFileSync(path.join(copy.root, "wrangler.toml"), variant.toml ? variant.toml(toml) : toml);
  const run = await startLocalService({ root: copy.root, cron: false });
  try {
    const { base, pid, port } = run;
    if (!pid) throw new Error("the local run has no process id");
    const { keys, revoked } = await seed(base, run.operatorToken);
    const first = (await (
      await fetch(`${base}${STATEMENTS_PATH}?limit=20`, {
        headers: { authorization: `Bearer ${keys[0]}`, "cf-connecting-ip": "192.0.2.1" },
      })
    ).json()) as { data: { pdf_url?: string }[]; next_page_token: string };
    const links =
      variant.traffic === "no-pdf"
        ? []
        : first.data.flatMap((s) => (s.pdf_url ? [s.pdf_url.replace(base, "")] : []));
    const tokens = [first.next_page_token];
    await sleep(2000);
    const before = workerdRss(pid, port);
    let cronTimer: NodeJS.Timeout | undefined;
    if (variant.cron) {
      cronTimer = setInterval(() => {
        runScheduled(`http://127.0.0.1:${port}`).catch((error: unknown) =>
          console.error(`  cron: ${(error as Error).message}`),
        );
      }, 10_000);
    }
    const { requests, statuses, warm } = await load(
      SECONDS,
      () => {
        if (variant.traffic === "static") {
          return {
            url: `${base}${pick(["/changelog", `/openapi/${OLDEST_VERSION}.json`, "/nope"])}`,
          };
        }
        const target = mix(keys, revoked, tokens, links);
        return {
          url: `${base}${target.path}`,
          init: {
            method: target.method ?? "GET",
            headers: { "cf-connecting-ip": pick(partnerIps), ...target.headers },
            body: target.body,
          },
        };
      },
      () => workerdRss(pid, port).runtime,
    );
    clearInterval(cronTimer);
    await sleep(5000);
    const after = workerdRss(pid, port);
    return {
      variant: name,
      requests,
      statuses,
      warm,
      runtime: [before.runtime, after.runtime],
      devProxy: [before.devProxy, after.devProxy],
    };
  } finally {
    await run.stop();
  }
}

async function main(): Promise<void> {
  const asked = args.filter((a) => !/^\d+$/.test(a));
  const chosen = (name: string) =>
    asked.length === 0 || asked.some((a) => name === a || name.startsWith(`${a}:`));
  console.log(`${SECONDS} s of load per variant, ${CONCURRENCY} connections`);
  for (const route of BARE) if (chosen(`bare:${route}`)) print(await bare(route));
  const services = Object.entries(SERVICE).filter(([name]) => chosen(name));
  if (services.length === 0) return;
  // A copy of the tree: its wrangler.toml is rewritten per variant, and an edit of the checkout
  // cannot reload the Worker mid-run.
  const copy = scratchCopy({ modules: "hardlinks" });
  try {
    const toml = readFileSync(path.join(copy.root, "wrangler.toml"), "utf8");
    for (const [name, variant] of services) print(await service(name, variant, copy, toml));
  } finally {
    copy.remove();
  }
}

await main();
