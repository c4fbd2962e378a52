// /docs in a real browser, offline: the interactive reference (Scalar, served from this origin)
// loads in place of the plain listing, the picker switches version, each version's statements
// operation shows its parameters and its own statement shape, the plain listing stands in when
// the script cannot load, and the pages pass axe-core's WCAG A/AA checks.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, keepOnOrigin, launchChromium } from "../support/node/chromium";
import { type LocalService, startLocalService } from "../support/node/local-service";

let service: LocalService;
let browser: Browser;
let versions: string[];
/** Per version, whether its statements still carry `pdf_url` (read from its OpenAPI document). */
const hasPdfUrl = new Map<string, boolean>();

const STATEMENTS_OPERATION = "List an account's statements";

beforeAll(async () => {
  [service, browser] = await Promise.all([startLocalService(), launchChromium()]);
  const changelog = (await (await fetch(`${service.base}/changelog`)).json()) as {
    versions: { version: string; reference: string }[];
  };
  versions = changelog.versions.map((v) => v.version);
  for (const { version, reference } of changelog.versions) {
    // biome-ignore lint/suspicious/noExplicitAny: a document is read as plain JSON
    const doc = (await (await fetch(`${service.base}${reference}`)).json()) as any;
    hasPdfUrl.set(version, "pdf_url" in doc.components.schemas.Statement.properties);
  }
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

interface Opened {
  page: Page;
  offOrigin: string[];
  /** Console errors and uncaught exceptions (a CSP refusal shows up here). */
  errors: string[];
}

async function openPage(): Promise<Opened> {
  const page = await browser.newPage();
  const offOrigin: string[] = [];
  const errors: string[] = [];
  await keepOnOrigin(page, service.base, offOrigin);
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("dialog", (dialog) => {
    throw new Error(`a page opened a dialog: ${dialog.message()}`);
  });
  return { page, offOrigin, errors };
}

/** Waits until Scalar has replaced the plain listing. */
async function interactive(page: Page): Promise<void> {
  await page.locator("html[data-reference=interactive]").waitFor({ state: "attached" });
  await page.locator("#app .scalar-api-reference").waitFor({ state: "visible", timeout: 30_000 });
  expect(await page.locator("#operations").isHidden()).toBe(true);
}

/** Opens the statements operation from Scalar's sidebar; its text once shown. */
async function statementsOperation(page: Page): Promise<string> {
  await page.locator("#app").getByText(STATEMENTS_OPERATION).first().click();
  const app = page.locator("#app");
  await expect
    .poll(async () => ((await app.textContent()) ?? "").includes("Query Parameters"), {
      timeout: 15_000,
    })
    .toBe(true);
  return (await app.textContent()) ?? "";
}

describe("/docs in a browser", () => {
  it("loads the interactive reference from this origin, in place of the listing", async () => {
    const { page, offOrigin, errors } = await openPage();
    const res = await page.goto(`${service.base}/docs`, { waitUntil: "load" });
    expect(res?.headers()["content-security-policy"]).toContain("script-src 'self';");
    await interactive(page);
    expect(await page.locator("#app").textContent()).toContain("Card Account Statements API");
    expect(offOrigin).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("switches version with the picker, and shows each version's statements operation", async () => {
    const { page, offOrigin, errors } = await openPage();
    await page.goto(`${service.base}/docs`, { waitUntil: "load" });
    const offered = await page
      .locator("#version-picker option")
      .evaluateAll((options) => options.map((o) => o.getAttribute("value")));
    expect(offered).toEqual(versions);

    for (const version of [...versions].reverse()) {
      await page.locator("#version-picker").selectOption(version);
      await page.waitForURL(new RegExp(`[?&]version=${version}\\b`));
      await interactive(page);
      expect(await page.title()).toMatch(new RegExp(`${version}$`));
      expect(await page.locator("#version-picker").inputValue()).toBe(version);
      await expect
        .poll(async () =>
          ((await page.locator("#app").textContent()) ?? "").includes(`API version ${version}`),
        )
        .toBe(true);
      const text = await statementsOperation(page);
      for (const parameter of ["customer_id", "account_id", "limit", "starting_after"]) {
        expect(text, `${version}: ${parameter}`).toContain(parameter);
      }
      expect(text).toContain("x-service-version");
      // The example body is the version's own statement shape.
      expect(text.includes('"pdf_url"'), version).toBe(hasPdfUrl.get(version));
    }
    expect(offOrigin).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the plain reference when the script cannot load, and it passes axe", async () => {
    const { page } = await openPage();
    await page.route("**/docs/**/*.js", (route) => route.abort());
    await page.goto(`${service.base}/docs`, { waitUntil: "load" });
    const listing = page.locator("#operations");
    expect(await listing.isVisible()).toBe(true);
    const operation = (await page.locator("#listAccountStatements").textContent()) ?? "";
    for (const parameter of ["customer_id", "account_id", "limit", "starting_after"]) {
      expect(operation).toContain(parameter);
    }
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it("passes axe on the changelog, and on its own parts of the interactive page", async () => {
    const { page } = await openPage();
    await page.goto(`${service.base}/docs/changelog`, { waitUntil: "load" });
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${service.base}/docs`, { waitUntil: "load" });
    await interactive(page);
    // Scalar's own widgets are its maintainers' to fix; the bar and the page around them are ours.
    expect(await axeViolations(page, ["#app"])).toEqual([]);
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
