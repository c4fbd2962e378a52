// The workbench pages in a real browser, offline, against a throwaway local run (its request-log
// queue and consumer run by the local runtime): a request made through the API is found in the
// request log by its x-request-id and opened in full; the log filtered; the Overview with its
// chart, errors and versions; the customers, an account and its statements with a working PDF
// link; and production's pages for an Admin. axe-core checks every page for WCAG 2.1 A/AA, every
// count on a page agrees with its noun, and the chart's labels stand apart.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, keepOnOrigin, launchChromium } from "../support/node/chromium";
import {
  type LocalService,
  mailedLink,
  operatorFetch as operatorRequest,
  startLocalService,
} from "../support/node/local-service";
import { overlappingBoxes, pluralsAfterOne } from "../support/node/page-text";

let service: LocalService;
let browser: Browser;
const pagesChecked: string[] = [];

const PARTNER = "workbench_bank";
const ADMIN = "admin@workbench-bank.example";
const CUSTOMER = "cus_workbench";
const ACCOUNT = "acc_workbench";
let apiKey: string;
let productionKey: string;

/** Checks the page as it is now: accessible, and no count of one followed by a plural. */
async function checkPage(page: Page): Promise<void> {
  await expectAccessible(page, pagesChecked);
  expect(await pluralsAfterOne(page), page.url()).toEqual([]);
}

function operatorFetch(path: string, init: RequestInit = {}): Promise<Response> {
  return operatorRequest(service, path, init);
}

beforeAll(async () => {
  [service, browser] = await Promise.all([startLocalService(), launchChromium()]);
  const imported = await operatorFetch("/import", {
    method: "POST",
    body: JSON.stringify({
      partners: [
        {
          partner_id: PARTNER,
          name: "Workbench Bank",
          products: [{ merchant_key: "mk_workbench", name: "Workbench Card" }],
        },
      ],
      customers: ["sandbox", "production"].map((environment) => ({
        customer_id: environment === "sandbox" ? CUSTOMER : `${CUSTOMER}_live`,
        partner_id: PARTNER,
        environment,
        merchant_key: "mk_workbench",
        partner_customer_id: "crm-7",
      })),
      accounts: [
        {
          account_id: ACCOUNT,
          customer_id: CUSTOMER,
          status: "OPEN",
          currency: "USD",
          credit_limit: 500000,
          current_balance: 4200,
        },
      ],
      statements: [1, 2, 3].map((month) => ({
        statement_id: `st_workbench_${month}`,
        account_id: ACCOUNT,
        period_start_date: `2026-0${month}-01T00:00:00Z`,
        period_end_date: `2026-0${month}-28T23:59:59Z`,
        currency: "USD",
        statement_balance: 1000 * month,
        minimum_due: 500,
      })),
    }),
  });
  expect(imported.status).toBe(200);
  const pdf = await operatorFetch("/statements/st_workbench_2/pdf", {
    method: "PUT",
    headers: { "content-type": "application/pdf" },
    body: "%PDF-1.4\n%%EOF\n",
  });
  expect(pdf.status).toBe(204);
  const key = await operatorFetch(`/partners/${PARTNER}/keys`, {
    method: "POST",
    body: JSON.stringify({ environment: "sandbox", scopes: ["ACCOUNT_READ"] }),
  });
  apiKey = ((await key.json()) as { api_key: string }).api_key;
  const liveKey = await operatorFetch(`/partners/${PARTNER}/keys`, {
    method: "POST",
    body: JSON.stringify({ environment: "production", scopes: ["ACCOUNT_READ"] }),
  });
  productionKey = ((await liveKey.json()) as { api_key: string }).api_key;
  const invited = await operatorFetch(`/partners/${PARTNER}/users`, {
    method: "POST",
    body: JSON.stringify({ email: ADMIN }),
  });
  expect(invited.status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe("the workbench in a browser", () => {
  it("finds a request just made, and walks the Overview and the customers' data", async () => {
    const problems: string[] = [];
    const context = await browser.newContext();
    const page = await context.newPage();
    await keepOnOrigin(page, service.base, problems);
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.goto(await mailedLink(service, ADMIN));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/dashboard\/sandbox\/keys$/);

    // A request through the API, and one that fails: the log finds the first by its id.
    const statements = `${service.base}/v2/customers/${CUSTOMER}/accounts/${ACCOUNT}/statements`;
    const made = await fetch(`${statements}?limit=2`, {
      headers: { authorization: `Bearer ${apiKey}`, "user-agent": "workbench-test/1.0" },
    });
    const answeredAt = Date.now();
    expect(made.status).toBe(200);
    const requestId = made.headers.get("x-request-id") as string;
    const failed = await fetch(`${service.base}/v2/customers/cus_nobody`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(failed.status).toBe(404);
    // Production gets exactly one request, so its Overview counts one of everything.
    const live = await fetch(`${service.base}/v2/customers/${CUSTOMER}_live`, {
      headers: { authorization: `Bearer ${productionKey}` },
    });
    expect(live.status).toBe(200);

    await page.getByRole("link", { name: "Request log", exact: true }).click();
    await page.waitForURL(/\/dashboard\/sandbox\/logs$/);
    await checkPage(page);
    await page.getByLabel("Find a request by its x-request-id").fill(requestId);
    await page.getByRole("button", { name: "Find" }).click();
    await page.waitForURL(new RegExp(`/logs\\?request_id=${requestId}$`));
    const row = page.getByRole("link", { name: /^GET \/v2\/customers\/cus_workbench/ });
    // Recorded after the response, through the queue: reload until it is listed.
    for (let attempt = 0; attempt < 240 && (await row.count()) === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await page.reload();
    }
    const visibleAfterMs = Date.now() - answeredAt;
    console.log(`request log: a request was listed ${visibleAfterMs} ms after its response`);
    expect(visibleAfterMs).toBeLessThan(60_000);
    await checkPage(page);
    await row.click();
    await page.waitForURL(new RegExp(`/dashboard/sandbox/logs/${requestId}$`));
    await page.getByRole("heading", { name: `Request ${requestId}` }).waitFor();
    const fields = (await page.locator("dl.fields").textContent()) ?? "";
    expect(fields).toContain("workbench-test/1.0");
    expect(fields).toContain("/v2/customers/:customer_id/accounts/:account_id/statements");
    await checkPage(page);

    // The log filtered to errors: a link with its filter in the query.
    await page.getByRole("link", { name: "Back to the request log" }).click();
    await page.getByLabel("Status").selectOption("4xx");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/\/logs\?status=4xx/);
    await page.getByText("CUSTOMER_NOT_FOUND_ERROR").first().waitFor();
    expect(
      await page.getByRole("link", { name: /^GET \/v2\/customers\/cus_workbench/ }).count(),
    ).toBe(0);
    await checkPage(page);

    // The Overview: the chart (and its table), the error, the version in use.
    await page.getByRole("link", { name: "Overview", exact: true }).click();
    await page.waitForURL(/\/dashboard\/sandbox$/);
    await page.getByRole("table", { name: "Requests per day by status class" }).waitFor({
      state: "attached",
    });
    expect(await page.locator("svg.usage-chart rect").count()).toBeGreaterThan(0);
    expect(await page.locator("svg.usage-chart text").count()).toBeGreaterThan(2);
    expect(await overlappingBoxes(page, "svg.usage-chart text")).toEqual([]);
    await page
      .getByRole("link", { name: /CUSTOMER_NOT_FOUND_ERROR on \/v2\/customers\/:customer_id/ })
      .waitFor();
    await checkPage(page);

    // The customers, the customer, the account and its statements, with a working PDF link.
    await page.getByRole("link", { name: "Customers", exact: true }).click();
    await page.waitForURL(/\/dashboard\/sandbox\/customers$/);
    await checkPage(page);
    await page.getByRole("link", { name: CUSTOMER, exact: true }).click();
    await page.waitForURL(new RegExp(`/customers/${CUSTOMER}$`));
    await checkPage(page);
    await page.getByRole("link", { name: ACCOUNT }).click();
    await page.waitForURL(new RegExp(`/accounts/${ACCOUNT}$`));
    await checkPage(page);
    const pdfLink = page.getByRole("link", { name: "PDF of st_workbench_2" });
    const download = await page.request.get((await pdfLink.getAttribute("href")) as string);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("application/pdf");
    // A statement's own page: its figures and line items.
    await page.getByRole("link", { name: "st_workbench_2", exact: true }).click();
    await page.waitForURL(/\/statements\/st_workbench_2$/);
    await checkPage(page);

    // Production, for an Admin: the Overview and the customers there (each view audited).
    await page.getByRole("link", { name: "Production", exact: true }).click();
    await page.waitForURL(/\/dashboard\/production\/customers$/);
    await page.getByRole("link", { name: `${CUSTOMER}_live` }).waitFor();
    await checkPage(page);
    await page.getByRole("link", { name: "Overview", exact: true }).click();
    await page.waitForURL(/\/dashboard\/production$/);
    // Its one request is recorded through the queue: reload until the Overview counts it.
    const versionsInUse = page.getByRole("table", { name: "API versions in use, per key" });
    for (let attempt = 0; attempt < 240 && (await versionsInUse.count()) === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await page.reload();
    }
    await versionsInUse.waitFor({ state: "attached" });
    await checkPage(page);

    expect(problems).toEqual([]);
    await context.close();
  });

  it("checked every workbench page for accessibility", () => {
    const kinds = pagesChecked.map((p) => p.replace(/\/logs\/.+$/, "/logs/:request_id"));
    expect(new Set(kinds)).toEqual(
      new Set([
        "/dashboard/sandbox/logs",
        "/dashboard/sandbox/logs/:request_id",
        "/dashboard/sandbox",
        "/dashboard/sandbox/customers",
        `/dashboard/sandbox/customers/${CUSTOMER}`,
        `/dashboard/sandbox/customers/${CUSTOMER}/accounts/${ACCOUNT}`,
        `/dashboard/sandbox/customers/${CUSTOMER}/accounts/${ACCOUNT}/statements/st_workbench_2`,
        "/dashboard/production/customers",
        "/dashboard/production",
      ]),
    );
  });
});
