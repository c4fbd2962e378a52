// Loads /docs in a real browser (headless Chromium from Debian's packages, driven by
// playwright-core), switches the version with the picker, and checks the statements operation is
// shown in the shape of each version.
//
// Needs:
//   - Chromium at /usr/bin/chromium: `apt-get update && apt-get install -y chromium`
//   - a running local server: `npm start` (or `npm run dev`) in another terminal
// Run: `npx node scripts/docs-browser-check.ts [base-url]`
//   (default: DOCS_URL, else http://localhost:8787).
//
// Scalar's script comes from a CDN. Requests to other origins are blocked unless DOCS_CHECK_CDN=1,
// so the check is the same with or without a network: it verifies our page (picker, Scalar's
// configuration, the server-rendered listing of operations) rather than Scalar itself.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const STATEMENTS = "List an account's statements";

const base = (process.argv[2] ?? process.env.DOCS_URL ?? "http://localhost:8787").replace(
  /\/$/,
  "",
);
const allowCdn = process.env.DOCS_CHECK_CDN === "1";

function stop(message: string): never {
  console.error(message);
  process.exit(2);
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`FAILED: ${what}`);
  console.log(`ok   ${what}`);
}

/** The versions the server offers, newest first, from its changelog. */
async function serverVersions(): Promise<string[]> {
  try {
    const res = await fetch(`${base}/changelog`);
    const body = (await res.json()) as { versions: { version: string; released: boolean }[] };
    return body.versions.map((v) => v.version);
  } catch (err) {
    return stop(
      `No server answers at ${base} (${String(err)}).\n` +
        "Start one first, e.g. `npm start`, or pass its address: " +
        "npx node scripts/docs-browser-check.ts http://localhost:8787",
    );
  }
}

/** The statements operation is on screen: Scalar's rendering or the server-rendered listing. */
async function checkVersionShown(page: Page, version: string, field: string, absent: string) {
  check((await page.title()).endsWith(version), `page title names ${version}`);
  check(
    (await page.locator("#version-picker").inputValue()) === version,
    `picker shows ${version}`,
  );
  const scalarConfig = await page.locator("script:not([src])").allTextContents();
  check(
    scalarConfig.some((s) => s.includes(`"url": "/openapi/${version}.json"`)),
    `Scalar is configured with /openapi/${version}.json`,
  );
  await page.getByText(STATEMENTS).first().waitFor({ state: "visible", timeout: 15_000 });
  check(true, `the statements operation is shown for ${version}`);
  const listing = page.locator("#operations");
  if (await listing.isVisible()) {
    const op = listing.locator("#listAccountStatements");
    check(await op.isVisible(), "the plain listing shows the statements operation");
    const text = (await op.textContent()) ?? "";
    check(text.includes(field), `statements show ${field}`);
    check(!text.includes(absent), `statements do not show ${absent}`);
  } else {
    check(allowCdn, "Scalar rendered the reference (the plain listing is hidden)");
  }
  const docVersion = await page.evaluate(async (v) => {
    const res = await fetch(`/openapi/${v}.json`);
    return ((await res.json()) as { info: { version: string } }).info.version;
  }, version);
  check(docVersion === version, `the page can load /openapi/${version}.json`);
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    stop(
      `This check drives Debian's Chromium at ${CHROMIUM}, which is missing.\n` +
        "Install it with: apt-get update && apt-get install -y chromium",
    );
  }
  const versions = await serverVersions();
  const released = versions.filter((v) => v !== "latest");
  const profile = mkdtempSync(path.join(os.tmpdir(), "docs-check-"));
  // A persistent context is how playwright takes a fresh --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
  });
  const origin = new URL(base).origin;
  await context.route("**/*", (route) =>
    allowCdn || new URL(route.request().url()).origin === origin ? route.continue() : route.abort(),
  );
  try {
    const page = await context.newPage();
    page.on("dialog", (dialog) => {
      throw new Error(`FAILED: a page opened a dialog: ${dialog.message()}`);
    });

    await page.goto(`${base}/docs`, { waitUntil: "domcontentloaded" });
    const offered = await page
      .locator("#version-picker option")
      .evaluateAll((options) => options.map((o) => o.getAttribute("value")));
    check(JSON.stringify(offered) === JSON.stringify(versions), `picker offers ${versions}`);
    await checkVersionShown(page, released[0] as string, "data[].pdf_url", "data[].pdf.url");

    await page.locator("#version-picker").selectOption("latest");
    await page.waitForURL(/[?&]version=latest\b/);
    await page.waitForLoadState("domcontentloaded");
    await checkVersionShown(page, "latest", "data[].pdf.url", "data[].pdf_url");

    await page.locator("#version-picker").selectOption(released.at(-1) as string);
    await page.waitForURL(new RegExp(`[?&]version=${released.at(-1)}\\b`));
    await checkVersionShown(page, released.at(-1) as string, "data[].pdf_url", "data[].pdf.url");

    const hostile = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
    const res = await page.goto(`${base}/docs?version=${encodeURIComponent(hostile)}`);
    check(res?.status() === 404, "an unknown version answers 404");
    check((await page.locator("img").count()) === 0, "a hostile version value is not markup");
    check(
      ((await page.locator(".notice").textContent()) ?? "").includes("<img src=x"),
      "the hostile value is shown as text",
    );
    console.log("docs browser check passed");
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
