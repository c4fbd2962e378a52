// CI check: the production bundle, built exactly as `wrangler deploy` builds it, stays within its
// gzip budget. Prints the largest packages when it does not, which is where to look first.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { BUNDLE_BUDGET_BYTES, buildWorker, bytesByPackage, kib } from "../builds/worker.ts";

const outdir = await mkdtemp(path.join(os.tmpdir(), "bundle-size-"));
try {
  const bundle = await buildWorker(outdir);
  const summary =
    `production bundle: ${kib(bundle.bytes)}, gzip ${kib(bundle.gzipBytes)} ` +
    `(budget ${kib(BUNDLE_BUDGET_BYTES)} gzip)`;
  if (bundle.gzipBytes <= BUNDLE_BUDGET_BYTES) {
    console.log(`ok: ${summary}`);
  } else {
    console.error(`over budget: ${summary}`);
    console.error("largest inputs (raw bytes in the bundle):");
    for (const [name, bytes] of (await bytesByPackage(outdir)).slice(0, 8)) {
      console.error(`  ${kib(bytes).padStart(10)}  ${name}`);
    }
    process.exitCode = 1;
  }
} finally {
  await rm(outdir, { recursive: true, force: true });
}
