// `npm run bench:render`: statement documents rendered inside workerd by the renderer Worker,
// built as a deploy builds it and called over its Service Binding, with V8's heap capped at a
// Worker isolate's 128 MB as the import arms cap it. Reports the renderer isolate's CPU per
// statement (profiled) for periodic statements of 0, 30 and 300 line items and for the one-page
// summaries of before, the memory of the largest statement the import accepts (1,000 line items:
// its sampled peak, and the smallest heap cap it still renders under), and bytes and pages per
// document.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { kib, ROOT } from "../builds/worker.ts";
import { RENDERER_NAME } from "../renderer/build.ts";
import {
  type LocalRenderer,
  type LogoFile,
  startLocalRenderer,
} from "../renderer/local-renderer.ts";
import { MAX_LINE_ITEMS, type StatementDocumentInput } from "../renderer/src/statement-document.ts";
import {
  DINAR,
  EVERY_LINE,
  periodicStatement,
  QUIET_CYCLE,
  UNKNOWN_CURRENCY,
  YEN,
} from "../renderer/test/sample-statements.ts";
import { fixed, mb } from "./format.ts";
import {
  bundleOrigins,
  cpuByName,
  heapPeakDuring,
  profileDuring,
  workerIsolate,
} from "./inspector.ts";
import { DATA_DIR } from "./setup.ts";

const ROUNDS = Number(process.env.BENCH_RENDER_ROUNDS ?? 3);
/** Statements per profiled round, per arm: fewer of the longer documents. */
const SCALE = Number(process.env.BENCH_RENDER_SCALE ?? 1);
const INSPECTOR_PORT = 9350;
/** A Worker isolate's memory limit in production; V8's heap is capped at it. */
const HEAP_CAP_MB = 128;
/** Lower heap caps the largest statement is rendered under, to find what it needs. */
const LOWER_CAPS_MB = (process.env.BENCH_RENDER_CAPS ?? "64,48,32,24,16")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);

const logo: LogoFile = {
  path: path.join(ROOT, "renderer/test/fixtures/logo.png"),
  media_type: "image/png",
  alt_text: "Acme",
};

interface Arm {
  name: string;
  /** The `n`th statement rendered (a logo where given): each a different one. */
  input(n: number): [StatementDocumentInput, LogoFile?];
  statements: number;
  goalMs?: number;
}

const SUMMARIES: [StatementDocumentInput, LogoFile?][] = [
  [EVERY_LINE, logo],
  [EVERY_LINE],
  [QUIET_CYCLE],
  [YEN, logo],
  [DINAR],
  [UNKNOWN_CURRENCY],
];

/** Periodic statements of `count` line items, each drawn with other purchases. */
const periodic = (count: number) => (n: number) =>
  [periodicStatement(count, n), logo] as [StatementDocumentInput, LogoFile];

const ARMS: Arm[] = [
  {
    name: "one-page summaries (six kinds)",
    input: (n) => SUMMARIES[n % SUMMARIES.length] as [StatementDocumentInput, LogoFile?],
    statements: 120,
    goalMs: 50,
  },
  { name: "0 line items", input: periodic(0), statements: 120, goalMs: 50 },
  { name: "30 line items", input: periodic(30), statements: 60, goalMs: 80 },
  { name: "300 line items", input: periodic(300), statements: 12, goalMs: 300 },
  {
    name: `${MAX_LINE_ITEMS.toLocaleString("en-US")} line items`,
    input: periodic(MAX_LINE_ITEMS),
    statements: 4,
  },
];
const LARGEST = ARMS.at(-1) as Arm;

console.log("building the renderer and its caller (wrangler deploy --dry-run)");
const buildDir = path.join(DATA_DIR, "build");
const start = (capMb: number) =>
  startLocalRenderer({
    buildDir,
    inspectorPort: INSPECTOR_PORT,
    v8Flags: [`--max-old-space-size=${capMb}`],
  });
let local: LocalRenderer = await start(HEAP_CAP_MB);
const isolate = workerIsolate(RENDERER_NAME);

/** Renders the arm's `n`th statement (its id unique); returns the document. */
function render(arm: Arm, n: number): Promise<Uint8Array> {
  const [input, withLogo] = arm.input(n);
  const statement = { ...input.statement, statement_id: `st_bench_${n}` };
  return local.render({ ...input, statement }, withLogo);
}

/** Renders statements `from` … `from + count - 1` of the arm, one after another. */
async function renderAll(arm: Arm, count: number, from = 0): Promise<number> {
  for (let n = from; n < from + count; n++) await render(arm, n);
  return count;
}

/** The renderer isolate's busy CPU (ms) per statement while `count` statements render. */
async function cpuPerStatement(
  arm: Arm,
  count: number,
  from: number,
  top = false,
): Promise<number> {
  const { requests, profiles } = await profileDuring(INSPECTOR_PORT, [isolate], () =>
    renderAll(arm, count, from),
  );
  const profile = profiles.get(isolate);
  if (!profile) throw new Error("no profile of the renderer");
  if (top) {
    const origin = await bundleOrigins(path.join(buildDir, "renderer", "index.js"));
    const { byName } = cpuByName(profile, (frame) => {
      const { module, name } = origin(frame);
      return `${module}: ${name}`;
    });
    for (const [name, us] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
      console.log(`   ${fixed(us / 1000 / requests)} ms  ${name}`);
    }
  }
  return cpuByName(profile, () => "").busyMicros / 1000 / requests;
}

async function pageCount(pdf: Uint8Array): Promise<number> {
  const task = getDocument({ data: pdf.slice(), verbosity: 0 });
  const pages = (await task.promise).numPages;
  await task.destroy();
  return pages;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

try {
  console.log("the first statement of a fresh isolate (it parses the fonts)");
  const firstMs = await cpuPerStatement(ARMS[0] as Arm, 1, 0);

  const results: { arm: Arm; cpuMs: number[]; bytes: number[]; pages: number[] }[] = [];
  for (const arm of ARMS) {
    console.log(`${arm.name}: warming up`);
    const documents: Uint8Array[] = [];
    for (let n = 0; n < 6; n++) documents.push(await render(arm, n));
    const cpuMs: number[] = [];
    const count = Math.max(1, Math.round(arm.statements * SCALE));
    for (let round = 0; round < ROUNDS; round++) {
      console.log(`${arm.name}: round ${round + 1} of ${ROUNDS}, ${count} statements, profiled`);
      // BENCH_RENDER_TOP=1 lists the functions that cost the most, per statement.
      const from = 1000 * (round + 1);
      cpuMs.push(await cpuPerStatement(arm, count, from, Boolean(process.env.BENCH_RENDER_TOP)));
    }
    results.push({
      arm,
      cpuMs,
      bytes: documents.map((d) => d.byteLength),
      pages: await Promise.all(documents.map(pageCount)),
    });
  }

  console.log(`peak memory: the ${LARGEST.name} statement, 3 one after another`);
  const { peak } = await heapPeakDuring(INSPECTOR_PORT, isolate, () => renderAll(LARGEST, 3, 9000));
  console.log(`peak memory: the ${LARGEST.name} statement, 3 at once`);
  const burst = await heapPeakDuring(INSPECTOR_PORT, isolate, () =>
    Promise.all([9100, 9101, 9102].map((n) => render(LARGEST, n))),
  );

  const uploaded = await Promise.all(local.modules.map((m) => readFile(m)));
  const total = Buffer.concat(uploaded);
  await local.mf.dispose();

  // A peak inside one synchronous step can escape the sampler: the heap cap under which the
  // largest statement still renders bounds what it needs.
  const caps: [number, boolean][] = [];
  for (const cap of LOWER_CAPS_MB) {
    console.log(`the ${LARGEST.name} statement with V8's heap capped at ${cap} MB`);
    local = await start(cap);
    let rendered = true;
    try {
      await renderAll(LARGEST, 3, 9200);
    } catch {
      rendered = false;
    }
    await local.mf.dispose();
    caps.push([cap, rendered]);
    if (!rendered) break;
  }

  console.log("");
  console.log(`renderer bundle: ${kib(total.byteLength)}, gzip ${kib(gzipSync(total).byteLength)}`);
  console.log(`CPU of the first statement of a fresh isolate: ${fixed(firstMs)} ms`);
  console.log("CPU per statement (renderer isolate, profiled), bytes and pages per document:");
  /** "16,777–27,039", or the one figure when all are equal. */
  const range = (xs: number[]) => {
    const [low, high] = [Math.min(...xs), Math.max(...xs)].map((n) => n.toLocaleString("en"));
    return low === high ? `${low}` : `${low}–${high}`;
  };
  for (const { arm, cpuMs, bytes, pages } of results) {
    const goal = arm.goalMs === undefined ? "" : `; goal ≤ ${arm.goalMs} ms`;
    console.log(
      `  ${arm.name.padEnd(31)} median ${fixed(median(cpuMs))} ms ` +
        `(rounds: ${cpuMs.map((ms) => fixed(ms)).join(", ")})${goal}; ` +
        `${range(bytes)} bytes, ${range(pages)} page(s)`,
    );
  }
  const heap = `V8 heap in use + ArrayBuffers, heap capped at ${HEAP_CAP_MB} MB`;
  console.log(
    `peak memory, ${LARGEST.name} (${heap}): ${mb(peak.usedBytes)} one at a time, ` +
      `${mb(burst.peak.usedBytes)} three at once; goal ≤ 128 MB`,
  );
  for (const [cap, rendered] of caps) {
    console.log(
      `  with V8's heap capped at ${cap} MB: ${rendered ? "renders" : "fails (out of memory)"}`,
    );
  }
} finally {
  await local.mf.dispose().catch(() => undefined);
}
