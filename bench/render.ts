// `npm run bench:render`: statement documents rendered inside workerd by the renderer Worker,
// built as a deploy builds it and called over its Service Binding, with V8's heap capped at a
// Worker isolate's 128 MB as the import arms cap it. Reports the renderer isolate's CPU per
// statement (profiled), its peak memory, and the bytes of each kind of document.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import {
  buildRenderer,
  RENDERER_ENTRYPOINT,
  RENDERER_NAME,
  rendererWorkerOptions,
} from "../renderer/build.ts";
import type { StatementDocumentInput } from "../renderer/src/statement-document.ts";
import {
  DINAR,
  EVERY_LINE,
  QUIET_CYCLE,
  UNKNOWN_CURRENCY,
  YEN,
} from "../renderer/test/sample-statements.ts";
import { buildWorker, kib, ROOT } from "./build.ts";
import { fixed, mb } from "./format.ts";
import { cpuByName, heapPeakDuring, profileDuring, workerIsolate } from "./inspector.ts";
import { DATA_DIR } from "./setup.ts";

const STATEMENTS = Number(process.env.BENCH_RENDER_STATEMENTS ?? 200);
const ROUNDS = Number(process.env.BENCH_RENDER_ROUNDS ?? 3);
const INSPECTOR_PORT = 9350;
const HEAP_CAP_MB = 128;
const CALLER = "render-caller";

const logo = (await readFile(path.join(ROOT, "renderer/test/fixtures/logo.png"))).toString(
  "base64",
);
const withLogo = (input: StatementDocumentInput) => ({
  ...input,
  product: {
    ...input.product,
    logo: { media_type: "image/png", alt_text: "Acme", base64: logo },
  },
});

/** The documents measured, each one kind a programme sends. */
const KINDS = {
  "every line, logo": withLogo(EVERY_LINE),
  "every line": EVERY_LINE,
  "quiet cycle": QUIET_CYCLE,
  "JPY, logo": withLogo(YEN),
  KWD: DINAR,
  "unknown currency": UNKNOWN_CURRENCY,
};
const kinds = Object.entries(KINDS);

console.log("building the renderer and its caller (wrangler deploy --dry-run)");
const rendererDir = path.join(DATA_DIR, "build", "renderer");
const renderer = await rendererWorkerOptions(await buildRenderer(rendererDir));
const caller = await buildWorker(
  path.join(DATA_DIR, "build", "render-caller"),
  undefined,
  path.join(ROOT, "renderer/test/wrangler.toml"),
);

// Miniflare passes V8 flags to workerd only through this variable, read as it builds the config.
process.env.MINIFLARE_WORKERD_V8_FLAGS = `--max-old-space-size=${HEAP_CAP_MB}`;
const mf = new Miniflare(
  convertV4MiniflareOptions({
    inspectorPort: INSPECTOR_PORT,
    enableDevRegistry: false,
    workers: [
      {
        name: CALLER,
        modules: true,
        scriptPath: caller.main,
        compatibilityDate: renderer.compatibilityDate,
        compatibilityFlags: renderer.compatibilityFlags,
        serviceBindings: {
          STATEMENT_RENDERER: { name: RENDERER_NAME, entrypoint: RENDERER_ENTRYPOINT },
        },
        unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
      },
      { ...renderer, modulesRoot: rendererDir },
    ],
  } as Parameters<typeof convertV4MiniflareOptions>[0]),
);
await mf.ready;
const url = await mf.unsafeGetDirectURL(CALLER);

/** Renders one statement of the given kind (its id made unique); returns the document's size. */
async function render(kind: number, n: number): Promise<number> {
  const [, input] = kinds[kind % kinds.length] as (typeof kinds)[number];
  const body = { ...input, statement: { ...input.statement, statement_id: `st_bench_${n}` } };
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  const bytes = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`render ${n}: ${res.status}`);
  return bytes.byteLength;
}

const renderAll = async (count: number) => {
  for (let n = 0; n < count; n++) await render(n, n);
  return count;
};

try {
  console.log("warming up");
  await renderAll(kinds.length * 3);

  const bytes = new Map<string, number>();
  for (const [i, [name]] of kinds.entries()) bytes.set(name, await render(i, i));

  const isolate = workerIsolate(RENDERER_NAME);
  const cpuMs: number[] = [];
  const wallMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    console.log(`round ${round + 1} of ${ROUNDS}: ${STATEMENTS} statements, profiled`);
    const started = performance.now();
    const { requests, profiles } = await profileDuring(INSPECTOR_PORT, [isolate], () =>
      renderAll(STATEMENTS),
    );
    wallMs.push((performance.now() - started) / requests);
    const profile = profiles.get(isolate);
    if (!profile) throw new Error("no profile of the renderer");
    cpuMs.push(cpuByName(profile, () => "").busyMicros / 1000 / requests);
    if (process.env.BENCH_RENDER_TOP) {
      const { byName } = cpuByName(profile, (f) => `${f.functionName || "(anon)"}:${f.lineNumber}`);
      const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 40);
      for (const [name, us] of top) console.log(`   ${fixed(us / 1000 / requests)} ms  ${name}`);
    }
  }

  console.log(`peak memory: ${STATEMENTS} statements, one after another`);
  const { peak } = await heapPeakDuring(INSPECTOR_PORT, isolate, () => renderAll(STATEMENTS));
  console.log("peak memory: 10 statements at once");
  const burst = await heapPeakDuring(INSPECTOR_PORT, isolate, () =>
    Promise.all(Array.from({ length: 10 }, (_, n) => render(n, n))),
  );

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const gzip = (await import("node:zlib")).gzipSync;
  const uploaded = await Promise.all(renderer.modules.map((m) => readFile(m.path)));
  const total = Buffer.concat(uploaded);
  console.log("");
  console.log(`renderer bundle: ${kib(total.byteLength)}, gzip ${kib(gzip(total).byteLength)}`);
  console.log(
    `CPU per statement (renderer isolate, profiled): median ${fixed(median(cpuMs))} ms ` +
      `(rounds: ${cpuMs.map((ms) => fixed(ms)).join(", ")}); goal ≤ 50 ms`,
  );
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
  await mf.dispose();
}
