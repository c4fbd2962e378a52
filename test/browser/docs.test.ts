// /docs in a real browser, offline: the version picker switches the reference, the statements
// operation is shown in each version's shape, and a hostile version value stays text.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalService, startLocalService } from "../support/local-service";
import { keepOnOrigin, launchChromium } from "./chromium";

let service: LocalService;
let browser: Browser;
let versions: string[];

beforeAll(async () => {
  [service, browser] = await Promise.all([startLocalService(), launchChromium()]);
  const changelog = (await (await fetch(`${service.base}/changelog`)).json()) as {
    versions: { version: string }[];
  };
  versions = changelog.versions.map((v) => v.version);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

async function openPage(): Promise<{ page: Page; offOrigin: string[] }> {
  const page = await browser.newPage();
  const offOrigin: string[] = [];
  await keepOnOrigin(page, service.base, offOrigin);
  page.on("dialog", (dialog) => {
    throw new Error(`a page opened a dialog: ${dialog.message()}`);
  });
  return { page, offOrigin };
}

/** The statements operation as the page shows it for `version`. */
async function statementsOperation(page: Page, version: string): Promise<string> {
  expect(await page.title()).toMatch(new RegExp(`${version}$`));
  expect(await page.locator("#version-picker").inputValue()).toBe(version);
  const operation = page.locator("#listAccountStatements");
  await operation.waitFor({ state: "visible", timeout: 15_000 });
  return (await operation.textContent()) ?? "";
}

describe("/docs in a browser", () => {
  it("offers every version of the bundle and switches between them", async () => {
    const { page } = await openPage();
    await page.goto(`${service.base}/docs`, { waitUntil: "domcontentloaded" });
    const offered = await page
      .locator("#version-picker option")
      .evaluateAll((options) => options.map((o) => o.getAttribute("value")));
    expect(offered).toEqual(versions);

    for (const version of [...versions].reverse()) {
      await page.locator("#version-picker").selectOption(version);
      await page.waitForURL(new RegExp(`[?&]version=${version}\\b`));
      const text = await statementsOperation(page, version);
      // latest replaced pdf_url by a pdf object; every released version still has pdf_url.
      if (version === "latest") expect(text).toContain("data[].pdf.url");
      else expect(text).toContain("data[].pdf_url");
    }
    await page.close();
  });

  it("shows a hostile version value as text on a 404 page", async () => {
    const { page } = await openPage();
    const hostile = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
    const res = await page.goto(`${service.base}/docs?version=${encodeURIComponent(hostile)}`);
    expect(res?.status()).toBe(404);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.locator(".notice").textContent()).toContain("<img src=x");
    await page.close();
  });
});
