// The soak's Worker heap sampler (bench/inspector.ts) against a Worker that allocates and frees on
// request, run by `wrangler dev` as the soak runs the service: beside a second Worker that no
// request reaches, as the renderer sits beside the API Worker. The series must move with what the
// named Worker holds; the idle one's must read as the constant the soak refuses.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { isolateHeaps, type WorkerHeapSampler, workerHeapSampler } from "../../bench/inspector.ts";
import { heapSeriesProblem, MIN_HEAP_READINGS, partsGrowth } from "../../scripts/soak-verdict.ts";
import { freePort } from "../support/node/local-service.ts";
import { shellEnv } from "../support/node/npm-start.ts";
import { STARTUP_MS } from "../support/node/timeouts.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const FIXTURE = path.join(import.meta.dirname, "fixtures", "heap-worker");
const MIB = 2 ** 20;

let child: ChildProcess;
let base: string;
let state: string;
let output = "";
const samplers: WorkerHeapSampler[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  state = mkdtempSync(path.join(os.tmpdir(), "heap-fixture-"));
  const wrangler = path.join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
  const args = [wrangler, "dev", "-c", "wrangler.toml", "-c", "idle.wrangler.toml"];
  args.push("--port", String(port), "--ip", "127.0.0.1", "--persist-to", state);
  // A port of its own for wrangler's inspector proxy, so that parallel runs do not share 9229.
  args.push("--inspector-port", String(await freePort()), "--show-interactive-dev-session=false");
  const env = shellEnv({ WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" });
  child = spawn(process.execPath, args, { cwd: FIXTURE, env, detached: true });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk));
  for (const deadline = Date.now() + STARTUP_MS; Date.now() < deadline; await sleep(250)) {
    if (child.exitCode !== null) break;
    const up = await fetch(base).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return;
  }
  throw new Error(`wrangler dev did not start:\n${output}`);
});

afterAll(async () => {
  for (const sampler of samplers) sampler.close();
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGINT");
    await exited;
  }
  rmSync(state, { recursive: true, force: true });
});

const post = async (pathname: string) => {
  const res = await fetch(`${base}${pathname}`, { method: "POST" });
  expect(res.status, await res.text()).toBe(200);
};

/** wrangler's process id: the sampler finds the runtime among its descendants. */
function pid(): number {
  if (!child.pid) throw new Error(`wrangler dev has no process id:\n${output}`);
  return child.pid;
}

async function sampler(worker: string): Promise<WorkerHeapSampler> {
  const opened = await workerHeapSampler(pid(), worker);
  samplers.push(opened);
  return opened;
}

it("reads the named Worker's heap rise by what it allocates and fall back once it frees it", async () => {
  const heap = await sampler("heap-fixture");
  const baseline = await heap.sample({ collectGarbage: true });
  expect(baseline.stale, output).toBeUndefined();

  await post("/allocate?mb=32");
  const holding = await heap.sample();
  await post("/free");
  const freed = await heap.sample({ collectGarbage: true });

  for (const reading of [holding, freed]) {
    expect(reading.stale).toBeUndefined();
    expect(reading.isolateId).toBe(baseline.isolateId);
  }
  const before = baseline.usedBytes ?? Number.NaN;
  const held = holding.usedBytes ?? Number.NaN;
  const after = freed.usedBytes ?? Number.NaN;
  expect(held - before).toBeGreaterThan(28 * MIB);
  expect(held - after).toBeGreaterThan(28 * MIB);
  expect(after).toBeLessThan(before + 4 * MIB);
});

it("reads a Worker that no request reaches as a constant the soak rejects", async () => {
  const idle = await sampler("heap-fixture-idle");
  const samples = [];
  for (let i = 0; i <= MIN_HEAP_READINGS; i++) {
    // Traffic flows between readings, all of it to the other Worker.
    await post("/allocate?mb=2");
    await post("/free");
    const reading = await idle.sample();
    expect(reading.stale).toBeUndefined();
    samples.push({ at: i * 1000, rss: 0, heap: reading.usedBytes, requests: 2 * i });
  }
  expect(heapSeriesProblem(samples)).toMatch(/in all 10 readings taken with traffic flowing/);
});

it("says a reading is stale when its session was taken over, and reads again", async () => {
  const heap = await sampler("heap-fixture");
  expect((await heap.sample()).stale).toBeUndefined();
  // The runtime keeps one inspector session per isolate: a second client boots the sampler's.
  (await workerHeapSampler(pid(), "heap-fixture")).close();
  const reading = await heap.sample();
  expect(reading.stale).toMatch(/session was lost .* and attached again/);
  expect(reading.usedBytes).toBeGreaterThan(0);
  expect((await heap.sample()).stale).toBeUndefined();
});

it("reads every isolate's heap, so that the soak names the part of the runtime that grew", async () => {
  // The runtime keeps one inspector session per isolate: the samplers above hold the fixture's,
  // and an isolate whose session is held is left out until the runtime has seen it close.
  for (const open of samplers.splice(0)) open.close();
  const fixtures = ["core:user:heap-fixture", "core:user:heap-fixture-idle"];
  const heapsOfAll = async () => {
    let heaps = await isolateHeaps(pid());
    for (let tries = 0; tries < 20 && !fixtures.every((id) => id in heaps); tries++) {
      await sleep(250);
      heaps = await isolateHeaps(pid());
    }
    return heaps;
  };
  const before = await heapsOfAll();
  // Both Workers, and the Workers Miniflare runs beside them.
  expect(Object.keys(before), output).toEqual(expect.arrayContaining(fixtures));
  expect(Object.keys(before).length).toBeGreaterThan(2);
  for (const bytes of Object.values(before)) expect(bytes).toBeGreaterThan(0);

  await post("/allocate?mb=32");
  const after = await heapsOfAll();
  await post("/free");
  const grew = partsGrowth(
    { at: 0, rss: 0, heaps: before },
    { at: 1, rss: 0, heaps: after },
    "heap-fixture",
  );
  const share = (part: string) => grew.find((g) => g.part === part)?.bytes ?? Number.NaN;
  expect(share("the API Worker's heap")).toBeGreaterThan(28 * MIB);
  expect(Math.abs(share("the heap-fixture-idle Worker's heap"))).toBeLessThan(4 * MIB);

  // An isolate left out is not read (the soak reads its Worker's through its own sampler).
  expect(Object.keys(await isolateHeaps(pid(), ["core:user:heap-fixture"]))).not.toContain(
    "core:user:heap-fixture",
  );
});
