// `npm run render:sample [-- <file.pdf>]`: renders the sample periodic statement (line items,
// rates, year to date, the product's terms and logo) through the built renderer Worker, and
// writes the pictures in docs/: page 1 (docs/statement-sample.png) and the first page a
// transactions table continues onto (docs/statement-continued.png), drawn by pdf.js in headless
// Chromium at 100 dpi. With a path, the PDF itself is written there too.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { startLocalRenderer } from "./local-renderer.ts";
import { pagePictures } from "./pdf-pictures.ts";
import { periodicStatement } from "./test/sample-statements.ts";

/** Line items in the sample: enough for the purchases to continue onto a page of their own. */
export const SAMPLE_LINE_ITEMS = 60;

const DOCS = path.join(import.meta.dirname, "..", "docs");

/** The first page whose text says a table continues on it. */
async function continuedPage(pdf: Uint8Array): Promise<number> {
  const task = getDocument({ data: pdf.slice(), verbosity: 0 });
  const document = await task.promise;
  try {
    for (let n = 2; n <= document.numPages; n++) {
      const content = await (await document.getPage(n)).getTextContent();
      if (content.items.some((item) => "str" in item && item.str.includes("(continued)"))) return n;
    }
  } finally {
    await task.destroy();
  }
  throw new Error("no page of the sample continues a table");
}

const out = process.argv[2];
const buildDir = await mkdtemp(path.join(os.tmpdir(), "statement-sample-"));
const local = await startLocalRenderer({ buildDir });
try {
  const pdf = await local.render(periodicStatement(SAMPLE_LINE_ITEMS), {
    path: path.join(import.meta.dirname, "test", "fixtures", "logo.png"),
    media_type: "image/png",
    alt_text: "Acme",
  });
  if (out) {
    await writeFile(out, pdf);
    console.log(`${out}: ${pdf.byteLength.toLocaleString("en")} bytes`);
  }
  const continued = await continuedPage(pdf);
  const [first, next] = await pagePictures(pdf, [1, continued]);
  for (const [file, png, page] of [
    ["statement-sample.png", first, 1],
    ["statement-continued.png", next, continued],
  ] as const) {
    if (!png) throw new Error(`no picture of page ${page}`);
    await writeFile(path.join(DOCS, file), png);
    console.log(`docs/${file}: page ${page}, ${png.byteLength.toLocaleString("en")} bytes`);
  }
} finally {
  await local.mf.dispose();
  await rm(buildDir, { recursive: true, force: true });
}
