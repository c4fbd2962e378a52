// Headless Chromium for browser tests, from the @sparticuz/chromium npm package (no system
// browser, no download at run time), driven by playwright-core.
import sparticuz from "@sparticuz/chromium";
import axe from "axe-core";
import { type Browser, chromium, type Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Our own flags rather than the package's Lambda set, which runs one process (closing the browser
 * with its last page) and turns web security off. No sandbox (tests may run as root), no GPU, and
 * no background connections to a network that is not there.
 */
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

/** Launches the packaged Chromium (unpacked to /tmp on first use). */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: await sparticuz.executablePath(),
    args: FLAGS,
    headless: true,
  });
}

/** Fails a page that sends any request off its own origin (the reference must work offline). */
export async function keepOnOrigin(page: Page, origin: string, offOrigin: string[]): Promise<void> {
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin || url.startsWith("data:")) return route.continue();
    offOrigin.push(url);
    return route.abort();
  });
}

export interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * WCAG 2.0/2.1 A and AA violations of the page as it is now, by axe-core; `exclude` lists CSS
 * selectors of parts that are not ours to fix (a third-party component).
 */
export async function axeViolations(page: Page, exclude: string[] = []): Promise<AxeViolation[]> {
  // Evaluated through the devtools protocol, so a page's strict CSP does not block it.
  await page.evaluate(axe.source);
  return page.evaluate(async (exclude) => {
    // biome-ignore lint/suspicious/noExplicitAny: runs in the page, where axe was just injected
    const page = globalThis as any;
    const context = exclude.length > 0 ? { exclude: exclude.map((s) => [s]) } : page.document;
    const result = await page.axe.run(context, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations.map((v: AxeViolation) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  }, exclude);
}

/**
 * Runs axe on the page as it is and fails on any WCAG 2.1 A/AA violation; adds the page's path to
 * `checked`, so a test can see that every kind of page was checked.
 */
export async function expectAccessible(page: Page, checked: string[]): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${page.url()}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
  checked.push(new URL(page.url()).pathname);
}
