// `npm run soak`: mixed valid and hostile traffic against a throwaway local run for twenty
// minutes, sampling the memory of the workerd runtime and the V8 heap of the Worker's own isolate,
// and every minute the runtime in parts (each isolate's V8 heap, by what it runs, and the native
// rest). Reports requests, the rate it held, status counts, p50/p99 latency and memory at start,
// peak and end; fails on any 5xx, on runtime memory that keeps rising unless its parts name where
// it grew outside the API Worker's heap, on a Worker heap that keeps rising, and on a Worker heap
// series that does not move under traffic (scripts/soak-verdict.ts). Twenty minutes, because the
// local runtime keeps memory for every request and every call of its local bindings, a bare
// Worker's too (bench/local-bindings-memory.ts): fast for its first minutes, then slowly
// (bench/README.md, "The soak"); a shorter soak sees only the fast climb. wrangler's dev proxy is
// reported apart, with the growth per 1,000 requests of both.
//   SOAK_SECONDS (1200), SOAK_CONCURRENCY (8), SOAK_SAMPLE_SECONDS (5) tune it; SOAK_INSPECTOR=0
//   leaves the Worker's inspector closed (its heap is then not sampled).
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { OLDEST_VERSION } from "../bench/arms.ts";
import { mb } from "../bench/format.ts";
import {
  isolateHeaps,
  type WorkerHeapSample,
  workerHeapSampler,
  workerIsolate,
} from "../bench/inspector.ts";
import { percentile } from "../bench/load.ts";
import { freePort, startLocalService } from "../test/support/node/local-service.ts";
import { scratchCopy } from "../test/support/node/npm-start.ts";
import { partTotals, type RuntimeParts, type SoakSample, soakVerdict } from "./soak-verdict.ts";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 1200);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 8);
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 5) * 1000;
/** How often the runtime is read in parts (every isolate's heap): a minute, as progress is told. */
const PARTS_MS = 60_000;
/** 0 leaves the Worker's inspector closed (its heap is then not sampled). */
const INSPECT = process.env.SOAK_INSPECTOR !== "0";
/** The API Worker's name in wrangler.toml: its isolate is `core:user:<name>`. */
const WORKER = "card-account-statements-api";
const KEYS = 8;
const STATEMENTS = 60;

interface Target {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  hostile: boolean;
}

// ---- memory of the runtime ------------------------------------------------------------------

/**
 * Resident memory (bytes) of the workerd processes under `root`: the runtime that serves the
 * Worker, and wrangler's dev proxy (the one listening on the service's own port), told apart.
 */
export function workerdRss(root: number, port: number): { runtime: number; devProxy: number } {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const name = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      names.set(Number(entry), name);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while being read.
    }
  }
  const rss = { runtime: 0, devProxy: 0 };
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    queue.push(...(children.get(pid) ?? []));
    if (!names.get(pid)?.startsWith("workerd")) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const bytes = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmdline.includes(`entry=127.0.0.1:${port}`)) rss.devProxy += bytes;
      else rss.runtime += bytes;
    } catch {
      // Gone.
    }
  }
  return rss;
}

// ---- data -------------------------------------------------------------------------------------

async function json(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function minimalPdf(label: string): Uint8Array {
  return new TextEncoder().encode(`%PDF-1.4\n% ${label}\n${"x".repeat(4096)}\n%%EOF\n`);
}

/** A partner with one account of monthly statements, some with PDFs, and several keys. */
export async function seed(base: string, operatorToken: string) {
  const op = (path: string, init: RequestInit & { type?: string } = {}) =>
    fetch(`${base}/operator/v1${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${operatorToken}`,
        "content-type": init.type ?? "application/json",
      },
    });
  const statements = Array.from({ length: STATEMENTS }, (_, i) => {
    const end = new Date(Date.UTC(2020, i + 1, 0, 23, 59, 59));
    return {
      statement_id: `st_soak_${String(i).padStart(3, "0")}`,
      account_id: "acc_soak",
      period_end_date: end.toISOString(),
      currency: "USD",
      statement_balance: 1000 + i,
      purchases: 1000 + i,
    };
  });
  await json(
    await op("/import", {
      method: "POST",
      body: JSON.stringify({
        partners: [
          {
            partner_id: "soak_bank",
            name: "Soak Bank",
            products: [{ merchant_key: "mk_soak", name: "Soak Card" }],
          },
        ],
        customers: [
          {
            customer_id: "cus_soak",
            partner_id: "soak_bank",
            environment: "sandbox",
            merchant_key: "mk_soak",
          },
        ],
        accounts: [{ account_id: "acc_soak", customer_id: "cus_soak", currency: "USD" }],
        statements,
      }),
    }),
  );
  for (const s of statements.slice(-12)) {
    await json(
      await op(`/statements/${s.statement_id}/pdf`, {
        method: "PUT",
        body: minimalPdf(s.statement_id),
        type: "application/pdf",
      }),
    );
  }
  const keys: string[] = [];
  for (let i = 0; i < KEYS + 1; i++) {
    const created = await json(
      await op("/partners/soak_bank/keys", {
        method: "POST",
        body: JSON.stringify({ environment: "sandbox", scopes: ["ACCOUNT_READ"] }),
      }),
    );
    keys.push(created.api_key as string);
    if (i === KEYS) await json(await op(`/keys/${created.key_id}`, { method: "DELETE" }));
  }
  return { keys: keys.slice(0, KEYS), revoked: keys[KEYS] as string };
}

// ---- traffic ----------------------------------------------------------------------------------

export const pick = <T>(items: readonly T[]): T =>
  items[Math.floor(Math.random() * items.length)] as T;
/** Partners call from a few addresses; attackers from many, and a few of them persistently. */
export const partnerIps = Array.from({ length: 4 }, (_, i) => `192.0.2.${i + 1}`);
const randomIp = () =>
  Math.random() < 0.5
    ? `203.0.113.${Math.floor(Math.random() * 8)}`
    : `198.51.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;

export const STATEMENTS_PATH = "/v2/customers/cus_soak/accounts/acc_soak/statements";

export function mix(keys: string[], revoked: string, tokens: string[], links: string[]): Target {
  const key = pick(keys);
  const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
  const r = Math.random();
  // About two thirds valid traffic, one third hostile.
  if (r < 0.25) {
    const limit = pick(["", "?limit=1", "?limit=10", "?limit=100"]);
    return { path: `${STATEMENTS_PATH}${limit}`, headers: bearer(key), hostile: false };
  }
  if (r < 0.35 && tokens.length > 0) {
    const token = encodeURIComponent(pick(tokens));
    return {
      path: `${STATEMENTS_PATH}?limit=5&starting_after=${token}`,
      headers: bearer(key),
      hostile: false,
    };
  }
  if (r < 0.42) {
    const path = pick([
      "/v2/customers",
      "/v2/customers/cus_soak",
      "/v2/customers/cus_soak/accounts",
    ]);
    return { path, headers: { ...bearer(key), "x-service-version": "latest" }, hostile: false };
  }
  if (r < 0.55 && links.length > 0) {
    const headers = pick<Record<string, string>>([
      {},
      { range: "bytes=0-99" },
      { "if-none-match": '"nope"' },
      { "if-modified-since": new Date().toUTCString() },
    ]);
    return { path: pick(links), headers, hostile: false };
  }
  if (r < 0.6)
    return { path: pick(["/changelog", `/openapi/${OLDEST_VERSION}.json`]), hostile: false };
  if (r < 0.65) {
    return {
      method: "POST",
      path: "/v2/customers/cus_soak/link",
      headers: { ...bearer(key), "content-type": "application/json" },
      body: JSON.stringify({ partner_customer_id: `p-${Math.floor(Math.random() * 1000)}` }),
      hostile: false,
    };
  }
  // Hostile: unknown, revoked and malformed credentials from many addresses, and bad input.
  const ip = randomIp();
  type Attack = Omit<Target, "hostile">;
  const onLinks: Attack[] =
    links.length > 0
      ? [
          { path: pick(links), headers: { "if-none-match": "garbage" } },
          { path: pick(links), headers: { range: "bytes=999999-" } },
          { path: pick(links), headers: { "if-match": '"x"', range: "bytes=-5" } },
        ]
      : [];
  const hostile: Attack[] = [
    { path: STATEMENTS_PATH, headers: { authorization: `Bearer sk_sandbox_${"0".repeat(34)}` } },
    { path: STATEMENTS_PATH, headers: bearer(revoked) },
    { path: STATEMENTS_PATH, headers: { authorization: "Basic !!!" } },
    { path: "/operator/v1/import", method: "POST", headers: { authorization: "Bearer guess" } },
    { path: `${STATEMENTS_PATH}?limit=1000`, headers: bearer(key) },
    { path: `${STATEMENTS_PATH}?starting_after=forged.token.AAAAAAAA`, headers: bearer(key) },
    { path: STATEMENTS_PATH, headers: { ...bearer(key), "x-service-version": "1999-01-01" } },
    { path: "/v2/customers/..%2F..%2Fetc/accounts", headers: bearer(key) },
    { path: `/v2/customers/${"x".repeat(2000)}`, headers: bearer(key) },
    {
      path: "/v2/customers/cus_soak/link",
      method: "POST",
      headers: { ...bearer(key), "content-type": "application/json" },
      body: "{not json",
    },
    { path: "/files/statements/st_soak_059/pdf?expires=1&signature=forged" },
    ...onLinks,
  ];
  const target = pick(hostile);
  return { ...target, headers: { "cf-connecting-ip": ip, ...target.headers }, hostile: true };
}

/** Each part's MB before the traffic, at mid-run and at the end, largest at the end first. */
function runtimeParts(parts: RuntimeParts[], durationMs: number): Record<string, string> {
  const first = parts[0];
  const mid = parts.filter((p) => p.at <= durationMs / 2).at(-1);
  const last = parts.at(-1);
  if (!first || !mid || !last) return {};
  const at = (reading: RuntimeParts) =>
    new Map(partTotals(reading, WORKER).map((t) => [t.part, t.bytes]));
  const [start, middle] = [at(first), at(mid)];
  return Object.fromEntries(
    partTotals(last, WORKER).map(({ part, bytes }) => [
      part,
      [start.get(part), middle.get(part), bytes]
        .map((b) => (b === undefined ? "–" : (b / 2 ** 20).toFixed(1)))
        .join(" → "),
    ]),
  );
}

// ---- run --------------------------------------------------------------------------------------

async function main(): Promise<void> {
  console.log(`soak: ${SECONDS} s, ${CONCURRENCY} concurrent clients, starting a local run…`);
  const inspectorPort = await freePort();
  // A copy of the tree (node_modules as hard links): an edit of the working tree during the soak
  // would reload its Worker and start the runtime's memory over.
  const copy = scratchCopy({ modules: "hardlinks" });
  const service = await startLocalService({ root: copy.root, inspectorPort });
  let failed = false;
  try {
    const { base, pid, port } = service;
    if (!pid) throw new Error("the local run has no process id");
    const sample = () => workerdRss(pid, port);
    // The Worker's own isolate on the runtime's inspector, not wrangler's proxy of it: the proxy
    // follows whichever of the two Workers (this one, the renderer) finished bundling last.
    const heapSampler = INSPECT ? await workerHeapSampler(pid, WORKER) : null;
    const heapOf = async (options?: { collectGarbage?: boolean }): Promise<WorkerHeapSample> =>
      heapSampler
        ? heapSampler.sample(options)
        : { usedBytes: undefined, isolateId: undefined, stale: "not sampled" };
    /**
     * The runtime in parts: every isolate's heap, the API Worker's from its sampler's reading
     * (a second session on its isolate would boot the sampler's), and the resident memory `rss`.
     */
    const partsOf = async (
      at: number,
      rss: number,
      worker: WorkerHeapSample,
    ): Promise<RuntimeParts> => {
      const own = workerIsolate(WORKER);
      const heaps = await isolateHeaps(pid, heapSampler ? [own] : []);
      if (heapSampler && worker.totalBytes !== undefined && !worker.stale)
        heaps[own] = worker.totalBytes;
      return { at, rss, heaps };
    };
    const { keys, revoked } = await seed(base, service.operatorToken);

    // Page tokens and links to reuse, fetched once (links live an hour: longer than the soak).
    const first = await json(
      await fetch(`${base}${STATEMENTS_PATH}?limit=20`, {
        headers: {
          authorization: `Bearer ${keys[0]}`,
          "cf-connecting-ip": partnerIps[0] as string,
        },
      }),
    );
    const data = first.data as { pdf_url?: string }[];
    const links = data.flatMap((s) => (s.pdf_url ? [s.pdf_url.replace(base, "")] : []));
    const tokens = [first.next_page_token as string];

    await sleep(2000);
    const start = sample();
    const startRss = start.runtime;
    // The live heap (after a full collection) before the traffic: what the end is held to.
    const startHeap = await heapOf({ collectGarbage: true });
    const samples: (SoakSample & { devProxy: number })[] = [
      {
        at: 0,
        rss: startRss,
        devProxy: start.devProxy,
        heap: startHeap.usedBytes,
        ...(startHeap.stale ? { heapStale: startHeap.stale } : {}),
        requests: 0,
      },
    ];
    const parts: RuntimeParts[] = [await partsOf(0, startRss, startHeap)];
    const statuses = new Map<number, number>();
    const latencies: number[] = [];
    const serverErrors: string[] = [];
    let requests = 0;
    const started = Date.now();
    const deadline = started + SECONDS * 1000;

    // One reading at a time: a slow reading delays the next one rather than overlapping it.
    const sampling = (async () => {
      while (Date.now() + SAMPLE_MS < deadline) {
        await sleep(SAMPLE_MS);
        const at = Date.now() - started;
        const answered = requests;
        const { runtime, devProxy } = sample();
        const heap = await heapOf();
        if (heap.stale && heapSampler) console.log(`  ${Math.round(at / 1000)} s: ${heap.stale}`);
        const stale = heap.stale ? { heapStale: heap.stale } : {};
        if (at - (parts.at(-1)?.at ?? 0) >= PARTS_MS) parts.push(await partsOf(at, runtime, heap));
        samples.push({
          at,
          rss: runtime,
          devProxy,
          heap: heap.usedBytes,
          ...stale,
          requests: answered,
        });
      }
    })();

    const client = async () => {
      while (Date.now() < deadline) {
        const target = mix(keys, revoked, tokens, links);
        const headers = { "cf-connecting-ip": pick(partnerIps), ...target.headers };
        const t0 = performance.now();
        let status = 0;
        try {
          const res = await fetch(`${base}${target.path}`, {
            method: target.method ?? "GET",
            headers,
            body: target.body,
          });
          status = res.status;
          const text = await res.text();
          if (status >= 500)
            serverErrors.push(
              `${target.method ?? "GET"} ${target.path} → ${status} ${text.slice(0, 200)}`,
            );
          if (status === 200 && target.path.includes("limit=5&") && tokens.length < 50) {
            const next = (JSON.parse(text) as { next_page_token?: string }).next_page_token;
            if (next) tokens.push(next);
          }
        } catch (err) {
          serverErrors.push(`${target.path} → ${String(err)}`);
        }
        latencies.push(performance.now() - t0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        requests += 1;
      }
    };
    const progress = setInterval(() => {
      const last = samples.at(-1);
      const elapsed = Math.round((Date.now() - started) / 1000);
      console.log(
        `  ${elapsed} s: ${requests} requests, runtime ${mb(last?.rss ?? 0)}, ` +
          `Worker heap ${mb(last?.heap ?? 0)}, dev proxy ${mb(last?.devProxy ?? 0)}`,
      );
    }, 60_000);
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    clearInterval(progress);
    await sampling;
    const elapsed = (Date.now() - started) / 1000;

    // Let the runtime settle, then read what memory came back.
    await sleep(10_000);
    const end = sample();
    const endRss = end.runtime;
    const peakRss = Math.max(...samples.map((s) => s.rss), endRss);
    const endHeap = await heapOf();
    parts.push(await partsOf(Date.now() - started, endRss, endHeap));
    const endLiveHeap = await heapOf({ collectGarbage: true });
    heapSampler?.close();
    const liveHeap =
      startHeap.usedBytes !== undefined && endLiveHeap.usedBytes !== undefined
        ? { start: startHeap.usedBytes, end: endLiveHeap.usedBytes }
        : undefined;
    const verdict = soakVerdict({
      seconds: elapsed,
      concurrency: CONCURRENCY,
      requests,
      serverErrors: serverErrors.length,
      samples,
      heapSampled: INSPECT,
      ...(liveHeap ? { liveHeap } : {}),
      parts,
      worker: WORKER,
    });
    const heaps = samples.flatMap((s) => (s.heap === undefined ? [] : [s.heap]));

    const sorted = [...latencies].sort((a, b) => a - b);
    const report = {
      seconds: Math.round(elapsed),
      concurrency: CONCURRENCY,
      requests,
      requests_per_second: Math.round(verdict.requestsPerSecond),
      statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      server_errors: serverErrors.length,
      latency_ms: {
        p50: +percentile(sorted, 50).toFixed(1),
        p99: +percentile(sorted, 99).toFixed(1),
      },
      memory: {
        start: mb(startRss),
        peak: mb(peakRss),
        end: mb(endRss),
        last_tenth_above_first_half_peak: mb(verdict.runtimeGrowth),
        mb_per_1000_requests: +((endRss - startRss) / 2 ** 20 / (requests / 1000)).toFixed(1),
        samples_mb: samples.map((s) => Math.round(s.rss / 1024 / 1024)),
      },
      // The V8 heap in use of the Worker's own isolate: what the service's code holds. Start and
      // live_end follow a full collection; the samples and end count garbage not yet collected.
      worker_heap: INSPECT
        ? {
            start: mb(startHeap.usedBytes ?? 0),
            peak: mb(Math.max(...heaps, endHeap.usedBytes ?? 0)),
            end: mb(endHeap.usedBytes ?? 0),
            live_end: mb(endLiveHeap.usedBytes ?? 0),
            last_tenth_above_first_half_peak: mb(verdict.heapGrowth),
            stale_samples: samples.filter((s) => s.heapStale).length,
            samples_mb: samples.map((s) =>
              s.heap === undefined ? null : +(s.heap / 1024 / 1024).toFixed(1),
            ),
          }
        : "not sampled (SOAK_INSPECTOR=0)",
      // The runtime in parts (MB): each isolate's V8 heap grouped by what it runs (the API
      // Worker, the renderer, the Workers Miniflare runs each binding in) and the native rest,
      // before the traffic, at mid-run and after it settled; and where it grew, if it kept rising.
      runtime_parts: runtimeParts(parts, elapsed * 1000),
      runtime_grew_in: verdict.grewIn.map((g) => `${g.part} ${mb(g.bytes)}`),
      // wrangler's own dev proxy, in front of the runtime: tooling, reported apart.
      dev_proxy_memory: {
        start: mb(start.devProxy),
        peak: mb(Math.max(...samples.map((s) => s.devProxy), end.devProxy)),
        end: mb(end.devProxy),
        mb_per_1000_requests: +(
          (end.devProxy - start.devProxy) /
          2 ** 20 /
          (requests / 1000)
        ).toFixed(1),
      },
    };
    console.log(JSON.stringify(report, null, 2));
    if (serverErrors.length > 0) {
      console.error(`${serverErrors.length} server errors, first ones:`);
      for (const line of serverErrors.slice(0, 10)) console.error(`  ${line}`);
    }
    failed = !verdict.passed;
    (failed ? console.error : console.log)(verdict.summary);
  } finally {
    await service.stop();
    copy.remove();
  }
  process.exitCode = failed ? 1 : 0;
}

// Run as a script; imported (bench/local-bindings-memory.ts reuses its traffic), it only exports.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
