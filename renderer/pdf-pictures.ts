// Pictures of a document's pages, as a reader's browser shows them: pdf.js (pdfjs-dist) draws each
// page on a canvas in headless Chromium (@sparticuz/chromium, driven by playwright-core), all
// from npm and offline. For the pictures in docs/.
import { readFile } from "node:fs/promises";
import path from "node:path";
import sparticuz from "@sparticuz/chromium";
import { chromium } from "playwright-core";

const PDFJS = path.join(import.meta.dirname, "..", "node_modules", "pdfjs-dist", "build");
const ORIGIN = "http://pictures.local";

/** The page's script: pdf.js draws page `n` at `scale` (1 = 72 dpi) and hands back a PNG. */
const PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
import * as pdfjs from "/pdf.mjs";
pdfjs.GlobalWorkerOptions.workerSrc = "/pdf.worker.mjs";
const loading = pdfjs.getDocument({ url: "/document.pdf" }).promise;
window.picture = async (n, scale) => {
  const page = await (await loading).getPage(n);
  const viewport = page.getViewport({ scale });
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(viewport.width);
  canvas.height = Math.round(viewport.height);
  const canvasContext = canvas.getContext("2d");
  canvasContext.fillStyle = "#ffffff";
  canvasContext.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext, viewport }).promise;
  return canvas.toDataURL("image/png");
};
window.pages = async () => (await loading).numPages;
</script>`;

/** PNG pictures of `pages` (1-based) of `pdf`, at `dpi` dots per inch. */
export async function pagePictures(pdf: Uint8Array, pages: number[], dpi = 100): Promise<Buffer[]> {
  const browser = await chromium.launch({
    executablePath: await sparticuz.executablePath(),
    // No sandbox (may run as root), no GPU, and nothing that reaches for a network.
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    headless: true,
  });
  try {
    const page = await browser.newPage();
    const files: Record<string, () => Promise<{ body: Buffer | string; type: string }>> = {
      "/": async () => ({ body: PAGE, type: "text/html" }),
      "/pdf.mjs": async () => ({
        body: await readFile(path.join(PDFJS, "pdf.mjs")),
        type: "text/javascript",
      }),
      "/pdf.worker.mjs": async () => ({
        body: await readFile(path.join(PDFJS, "pdf.worker.mjs")),
        type: "text/javascript",
      }),
      "/document.pdf": async () => ({ body: Buffer.from(pdf), type: "application/pdf" }),
    };
    await page.route("**/*", async (route) => {
      const url = new URL(route.request().url());
      const file = url.origin === ORIGIN ? files[url.pathname] : undefined;
      if (!file) return route.abort();
      const { body, type } = await file();
      return route.fulfill({ status: 200, body, contentType: type });
    });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => "picture" in globalThis);
    const count = await page.evaluate(() =>
      (globalThis as unknown as { pages(): Promise<number> }).pages(),
    );
    const pictures: Buffer[] = [];
    for (const n of pages) {
      if (n < 1 || n > count) throw new RangeError(`the document has ${count} pages; no page ${n}`);
      const dataUrl = await page.evaluate(
        ([n, scale]) =>
          (globalThis as unknown as { picture(n: number, s: number): Promise<string> }).picture(
            n,
            scale,
          ),
        [n, dpi / 72] as const,
      );
      pictures.push(Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64"));
    }
    return pictures;
  } finally {
    await browser.close();
  }
}
