// `npm run bench:render`: statement documents rendered inside workerd by the renderer Worker,
// built as a deploy builds it and called over its Service Binding, with V8's heap capped at a
// Worker isolate's 128 MB as the import arms cap it. Reports the renderer isolate's CPU per
// statement (profiled), its peak memory, and the bytes of each kind of document.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { RENDERER_NAME } from "../renderer/build.ts";
import { type LogoFile, startLocalRenderer } from "../renderer/local-renderer.ts";
import type { StatementDocumentInput } from "../renderer/src/statement-document.ts";
import {
  DINAR,
  EVERY_LINE,
  QUIET_CYCLE,
  UNKNOWN_CURRENCY,
  YEN,
} from "../renderer/test/sample-statements.ts";
import { kib, ROOT } from "./build.ts";
import { fixed, mb } from "./format.ts";
import { cpuByName, heapPeakDuring, profileDuring, workerIsolate } from "./inspector.ts";
import { DATA_DIR } from "./setup.ts";

const STATEMENTS = Number(process.env.BENCH_RENDER_STATEMENTS ?? 200);
const ROUNDS = Number(process.env.BENCH_RENDER_ROUNDS ?? 3);
const INSPECTOR_PORT = 9350;
/** A Worker isolate's memory limit in production; V8's heap is capped at it. */
const HEAP_CAP_MB = 128;

const logo: LogoFile = {
  path: path.join(ROOT, "renderer/test/fixtures/logo.png"),
  media_type: "image/png",
  alt_text: "Acme",
};

/** The documents measured, each one kind a programme sends. */
const KINDS: [string, StatementDocumentInput, LogoFile?][] = [
  ["every line, logo", EVERY_LINE, logo],
  ["every line", EVERY_LINE],
  ["quiet cycle", QUIET_CYCLE],
  ["JPY, logo", YEN, logo],
  ["KWD", DINAR],
  ["unknown currency", UNKNOWN_CURRENCY],
];

console.log("building the renderer and its caller (wrangler deploy --dry-run)");
const local = await startLocalRenderer({
  buildDir: path.join(DATA_DIR, "build"),
  inspectorPort: INSPECTOR_PORT,
  v8Flags: [`--max-old-space-size=${HEAP_CAP_MB}`],
});

/** Renders the `n`th statement (kinds in turn, each id unique); returns the document's size. */
async function render(n: number): Promise<number> {
  const [, input, withLogo] = KINDS[n % KINDS.length] as (typeof KINDS)[number];
  const statement = { ...input.statement, statement_id: `st_bench_${n}` };
  return (await local.render({ ...input, statement }, withLogo)).byteLength;
}

const renderAll = async (count: number) => {
  for (let n = 0; n < count; n++) await render(n);
  return count;
};

const isolate = workerIsolate(RENDERER_NAME);
/** The renderer isolate's busy CPU (ms) per statement while `count` statements render. */
async function cpuPerStatement(count: number, top = false): Promise<number> {
  const { requests, profiles } = await profileDuring(INSPECTOR_PORT, [isolate], () =>
    renderAll(count),
  );
  const profile = profiles.get(isolate);
  if (!profile) throw new Error("no profile of the renderer");
  if (top) {
    const { byName } = cpuByName(
      profile,
      (f) => `${f.functionName || "(anonymous)"}:${f.lineNumber}`,
    );
    for (const [name, us] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
      console.log(`   ${fixed(us / 1000 / requests)} ms  ${name}`);
    }
  }
  return cpuByName(profile, () => "").busyMicros / 1000 / requests;
}

try {
  console.log("the first statement of a fresh isolate (it parses the fonts)");
  const firstMs = await cpuPerStatement(1);
  console.log("warming up");
  await renderAll(KINDS.length * 3);

  const bytes = new Map<string, number>();
  for (const [i, [name]] of KINDS.entries()) bytes.set(name, await render(i));

  const cpuMs: number[] = [];
  const wallMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    console.log(`round ${round + 1} of ${ROUNDS}: ${STATEMENTS} statements, profiled`);
    const started = performance.now();
    // BENCH_RENDER_TOP=1 lists the functions that cost the most, per statement.
    cpuMs.push(await cpuPerStatement(STATEMENTS, Boolean(process.env.BENCH_RENDER_TOP)));
    wallMs.push((performance.now() - started) / STATEMENTS);
  }

  console.log(`peak memory: ${STATEMENTS} statements, one after another`);
  const { peak } = await heapPeakDuring(INSPECTOR_PORT, isolate, () => renderAll(STATEMENTS));
  console.log("peak memory: 10 statements at once");
  const burst = await heapPeakDuring(INSPECTOR_PORT, isolate, () =>
    Promise.all(Array.from({ length: 10 }, (_, n) => render(n))),
  );

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const uploaded = await Promise.all(local.modules.map((m) => readFile(m)));
  const total = Buffer.concat(uploaded);
  console.log("");
  console.log(`renderer bundle: ${kib(total.byteLength)}, gzip ${kib(gzipSync(total).byteLength)}`);
  console.log(
    `CPU per statement (renderer isolate, profiled): median ${fixed(median(cpuMs))} ms ` +
      `(rounds: ${cpuMs.map((ms) => fixed(ms)).join(", ")}); goal ≤ 50 ms`,
  );
  console.log(`CPU of the first statement of a fresh isolate: ${fixed(firstMs)} ms`);
  console.log(
    `wall time per statement (caller's view, profiler on): median ${fixed(median(wallMs))} ms`,
  );
  console.log(
    `peak memory (V8 heap in use + ArrayBuffers, heap capped at ${HEAP_CAP_MB} MB): ` +
      `${mb(peak.usedBytes)} one at a time, ${mb(burst.peak.usedBytes)} ten at once; goal ≤ 128 MB`,
  );
  console.log("bytes per document:");
  for (const [name, size] of bytes)
    console.log(`  ${name.padEnd(18)} ${size.toLocaleString("en")}`);
} finally {
  await local.mf.dispose();
}
