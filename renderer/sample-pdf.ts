// `npm run render:sample -- <file.pdf>`: renders the sample statement (every line, with the sample
// logo) through the built renderer Worker, as the picture in docs/statement-sample.png shows it:
//   npm run render:sample -- /tmp/statement.pdf
//   pdftoppm -png -r 100 -singlefile /tmp/statement.pdf docs/statement-sample   (poppler-utils)
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startLocalRenderer } from "./local-renderer.ts";
import { EVERY_LINE } from "./test/sample-statements.ts";

const out = process.argv[2];
if (!out) throw new Error("usage: npm run render:sample -- <file.pdf>");
const buildDir = await mkdtemp(path.join(os.tmpdir(), "statement-sample-"));
const local = await startLocalRenderer({ buildDir });
try {
  const pdf = await local.render(EVERY_LINE, {
    path: path.join(import.meta.dirname, "test", "fixtures", "logo.png"),
    media_type: "image/png",
    alt_text: "Acme",
  });
  await writeFile(out, pdf);
  console.log(`${out}: ${pdf.byteLength.toLocaleString("en")} bytes`);
} finally {
  await local.mf.dispose();
  await rm(buildDir, { recursive: true, force: true });
}
