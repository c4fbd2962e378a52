// The partner dashboard in a real browser, offline, against a throwaway local run: invite →
// sign in through the outbox link → create a sandbox key → call the API with it → roll it →
// upgrade the saved version with the preview shown → roll back → add a webhook endpoint (its
// secret shown once), see a delivery signed with it and re-send it, roll the secret, delete the
// endpoint → a Developer is refused a production change in the page and over HTTP → revoke → the
// API answers 401. axe-core checks every page on the way for WCAG 2.1 A/AA violations.
import { setTimeout as sleep } from "node:timers/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, keepOnOrigin, launchChromium } from "../support/node/chromium";
import {
  type LocalService,
  mailedLink,
  operatorFetch as operatorRequest,
  startLocalService,
} from "../support/node/local-service";
import { type Received, startReceiver } from "../support/node/webhook-receiver";

let service: LocalService;
let browser: Browser;
const pagesChecked: string[] = [];

/** The loopback receiver of webhook deliveries (local runs allow loopback endpoints). */
let receiver: Awaited<ReturnType<typeof startReceiver>>;

/** Waits until the receiver holds `count` deliveries. */
async function receivedCount(count: number): Promise<Received[]> {
  for (let attempt = 0; attempt < 300 && receiver.received.length < count; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return receiver.received;
}

/** The oldest version the run serves, from its changelog (the bundle's versions, newest first). */
let OLDEST: string;

const PARTNER = "browser_bank";
const ADMIN = "admin@browser-bank.example";
const DEVELOPER = "developer@browser-bank.example";
const CUSTOMER = "cus_browser";
const ACCOUNT = "acc_browser";

function operatorFetch(path: string, init: RequestInit = {}): Promise<Response> {
  return operatorRequest(service, path, init);
}

function statements(key: string, version?: string): Promise<Response> {
  return fetch(`${service.base}/v2/customers/${CUSTOMER}/accounts/${ACCOUNT}/statements?limit=2`, {
    headers: {
      authorization: `Bearer ${key}`,
      ...(version ? { "x-service-version": version } : {}),
    },
  });
}

/**
 * A browser tab that may only talk to the local service (requests elsewhere are blocked and
 * recorded in `problems`), and whose dialogs, console errors and script errors are recorded too.
 */
async function openTab(context: BrowserContext, problems: string[]): Promise<Page> {
  const page = await context.newPage();
  await keepOnOrigin(page, service.base, problems);
  page.on("dialog", (dialog) => problems.push(`dialog: ${dialog.message()}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return page;
}

beforeAll(async () => {
  [service, browser, receiver] = await Promise.all([
    startLocalService(),
    launchChromium(),
    startReceiver(),
  ]);
  const changelog = (await (await fetch(`${service.base}/changelog`)).json()) as {
    versions: { version: string }[];
  };
  OLDEST = changelog.versions.at(-1)?.version as string;
  const imported = await operatorFetch("/import", {
    method: "POST",
    body: JSON.stringify({
      partners: [
        {
          partner_id: PARTNER,
          name: "Browser Bank",
          // Its PDFs are uploaded, so a new statement announces itself once (the re-send below
          // counts deliveries); the sandbox's simulated statements render all the same.
          products: [{ merchant_key: "mk_browser", name: "Browser Card", documents: "uploaded" }],
          saved_versions: { sandbox: OLDEST, production: OLDEST },
        },
      ],
      customers: [
        {
          customer_id: CUSTOMER,
          partner_id: PARTNER,
          environment: "sandbox",
          merchant_key: "mk_browser",
        },
      ],
      accounts: [{ account_id: ACCOUNT, customer_id: CUSTOMER, status: "OPEN", currency: "USD" }],
      statements: [1, 2, 3].map((month) => ({
        statement_id: `st_browser_${month}`,
        account_id: ACCOUNT,
        period_start_date: `2025-0${month}-01T00:00:00Z`,
        period_end_date: `2025-0${month}-28T23:59:59Z`,
        currency: "USD",
        statement_balance: 1000 * month,
        purchases: 1000 * month,
      })),
    }),
  });
  expect(imported.status).toBe(200);
  const pdf = await operatorFetch("/statements/st_browser_2/pdf", {
    method: "PUT",
    headers: { "content-type": "application/pdf" },
    body: "%PDF-1.4\n%%EOF\n",
  });
  expect(pdf.status).toBe(204);
  // The operator grants the partner its scopes by issuing it a key; dashboard keys choose among them.
  for (const environment of ["sandbox", "production"]) {
    const key = await operatorFetch(`/partners/${PARTNER}/keys`, {
      method: "POST",
      body: JSON.stringify({ environment, scopes: ["ACCOUNT_READ"] }),
    });
    expect(key.status).toBe(201);
  }
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  receiver?.server.close();
});

describe("the partner dashboard in a browser", () => {
  it("runs the whole flow, from the first invitation to a revoked key", async () => {
    const problems: string[] = [];

    // The operator invites the partner's first Admin; the invitation holds a sign-in link.
    const invited = await operatorFetch(`/partners/${PARTNER}/users`, {
      method: "POST",
      body: JSON.stringify({ email: ADMIN }),
    });
    expect(invited.status).toBe(201);
    const adminContext = await browser.newContext();
    await adminContext.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: service.base,
    });
    const admin = await openTab(adminContext, problems);
    await admin.goto(await mailedLink(service, ADMIN));
    await expect(admin.getByRole("heading", { name: "Confirm sign-in" }).isVisible()).resolves.toBe(
      true,
    );
    await expectAccessible(admin, pagesChecked);
    await admin.getByRole("button", { name: "Sign in" }).click();
    await admin.waitForURL(/\/dashboard\/sandbox\/keys$/);
    await expectAccessible(admin, pagesChecked);

    // A sandbox key with ACCOUNT_READ, shown once, with a working copy button.
    await admin.getByLabel("Name (optional)").fill("browser test");
    await admin.getByLabel("ACCOUNT_READ").check();
    await admin.getByRole("button", { name: "Create key" }).click();
    await admin.getByRole("heading", { name: "Your new key" }).waitFor();
    await expectAccessible(admin, pagesChecked);
    const firstKey = await admin.locator("#new-key").inputValue();
    expect(firstKey).toMatch(/^sk_sandbox_/);
    await admin.getByRole("button", { name: "Copy" }).click();
    await admin.locator("#new-key-status", { hasText: "Copied to the clipboard." }).waitFor();
    // biome-ignore lint/suspicious/noExplicitAny: runs in the page, whose types are not Node's
    expect(await admin.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(
      firstKey,
    );
    expect((await statements(firstKey)).status).toBe(200);

    // Roll it: the old key keeps working for an hour, the new one works now.
    await admin.getByRole("link", { name: "Back to the keys" }).click();
    await admin
      .locator(`tr:has-text("…${firstKey.slice(-4)}")`)
      .getByRole("link", { name: /^Roll/ })
      .click();
    await admin.waitForURL(/\/dashboard\/sandbox\/keys\/key_\w+\/roll$/);
    await expectAccessible(admin, pagesChecked);
    await admin.getByLabel("In 1 hour").check();
    await admin.getByRole("button", { name: "Roll key" }).click();
    await admin.getByRole("heading", { name: "Key rolled" }).waitFor();
    await expectAccessible(admin, pagesChecked);
    const rolledKey = await admin.locator("#new-key").inputValue();
    expect((await statements(rolledKey)).status).toBe(200);
    expect((await statements(firstKey)).status).toBe(200);

    // Upgrade the saved version, with the changes and the side-by-side preview shown.
    await admin.getByRole("link", { name: "API version" }).click();
    await admin.waitForURL(/\/dashboard\/sandbox\/version$/);
    await expectAccessible(admin, pagesChecked);
    await admin.getByRole("link", { name: "Compare with latest" }).click();
    await admin.getByRole("heading", { name: `From ${OLDEST} to latest` }).waitFor();
    const before = await admin.locator(`[aria-labelledby="response-${OLDEST}"] pre`).textContent();
    const after = await admin.locator('[aria-labelledby="response-latest"] pre').textContent();
    expect(before).toContain('"pdf_url"');
    expect(after).toContain('"pdf": {');
    expect(after).toContain("st_browser_3");
    await expect(admin.getByText("replacePdfUrlWithPdfObject").isVisible()).resolves.toBe(true);
    await expectAccessible(admin, pagesChecked);
    await admin.getByRole("button", { name: "Save latest as the sandbox version" }).click();
    await admin.getByText("The saved version is changed.").waitFor();
    await expectAccessible(admin, pagesChecked);
    expect((await statements(rolledKey)).headers.get("x-service-version")).toBe("latest");

    // Roll it back within the 72 hours.
    await admin.getByRole("button", { name: `Roll back to ${OLDEST}` }).click();
    await admin.getByText("The saved version is rolled back.").waitFor();
    expect((await statements(rolledKey)).headers.get("x-service-version")).toBe(OLDEST);

    // A webhook endpoint on the loopback receiver: its secret is shown once, with a copy button.
    await admin.getByRole("link", { name: "Webhooks" }).click();
    await admin.waitForURL(/\/dashboard\/sandbox\/webhooks$/);
    await expectAccessible(admin, pagesChecked);
    const hookUrl = `${receiver.url}/statements`;
    await admin.getByLabel("URL", { exact: true }).fill(hookUrl);
    await admin.getByLabel("Description (optional)").fill("browser test");
    await admin.getByRole("button", { name: "Add endpoint" }).click();
    await admin.getByRole("heading", { name: "Your new endpoint" }).waitFor();
    await expectAccessible(admin, pagesChecked);
    const secret = await admin.locator("#new-secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await admin.getByRole("button", { name: "Copy" }).click();
    await admin.locator("#new-secret-status", { hasText: "Copied to the clipboard." }).waitFor();
    await admin.getByRole("link", { name: "Back to the webhook endpoints" }).click();
    await admin.waitForURL(/\/dashboard\/sandbox\/webhooks$/);
    expect(await admin.content()).not.toContain(secret);

    // A new statement reaches it, signed with that secret; its page lists the attempt.
    const imported = await operatorFetch("/import", {
      method: "POST",
      body: JSON.stringify({
        statements: [
          {
            statement_id: "st_browser_4",
            account_id: ACCOUNT,
            period_end_date: "2025-04-28T23:59:59Z",
            currency: "USD",
            statement_balance: 4000,
          },
        ],
      }),
    });
    expect(imported.status).toBe(200);
    const [delivery] = await receivedCount(1);
    const event = new Webhook(secret).verify(delivery?.body ?? "", delivery?.headers ?? {});
    expect(event).toMatchObject({ type: "statement.created" });
    await admin.getByRole("link", { name: hookUrl }).click();
    await admin.waitForURL(/\/dashboard\/sandbox\/webhooks\/we_\w+$/);
    // The attempt is recorded just after the receiver answers: reload until it is listed.
    for (let attempt = 0; attempt < 50; attempt++) {
      if ((await admin.getByText("Succeeded", { exact: true }).count()) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
      await admin.reload();
    }
    await admin.getByText("Succeeded", { exact: true }).waitFor();
    await expectAccessible(admin, pagesChecked);
    await admin.getByRole("button", { name: /^Re-send evt_/ }).click();
    await admin.getByText("The event is queued for delivery to this endpoint.").waitFor();
    const resent = await receivedCount(2);
    expect(resent.map((d) => d.headers["webhook-id"])).toEqual([
      delivery?.headers["webhook-id"],
      delivery?.headers["webhook-id"],
    ]);

    // Roll its secret, keeping the previous one signing for an hour; then delete it.
    await admin.getByRole("link", { name: "Roll the signing secret" }).click();
    await admin.waitForURL(/\/webhooks\/we_\w+\/roll$/);
    await expectAccessible(admin, pagesChecked);
    await admin.getByLabel("For 1 hour").check();
    await admin.getByRole("button", { name: "Roll secret" }).click();
    await admin.getByRole("heading", { name: "Secret rolled" }).waitFor();
    await expectAccessible(admin, pagesChecked);
    const rolledSecret = await admin.locator("#new-secret").inputValue();
    expect(rolledSecret).toMatch(/^whsec_/);
    expect(rolledSecret).not.toBe(secret);
    await admin.getByText("Deliveries are signed with both secrets until").waitFor();
    await admin.getByRole("link", { name: "Go to the endpoint" }).click();
    await admin.getByRole("link", { name: "Delete this endpoint" }).click();
    await admin.waitForURL(/\/webhooks\/we_\w+\/delete$/);
    await expectAccessible(admin, pagesChecked);
    await admin.getByRole("button", { name: "Delete endpoint" }).click();
    await admin.getByText("Webhook endpoint deleted.").waitFor();
    expect(await admin.getByRole("link", { name: hookUrl }).count()).toBe(0);
    await expectAccessible(admin, pagesChecked);

    // Invite a Developer from the team page; they sign in through their mail.
    await admin.getByRole("link", { name: "Team" }).click();
    await admin.waitForURL(/\/dashboard\/team$/);
    await expectAccessible(admin, pagesChecked);
    await admin.getByLabel("Email address").fill(DEVELOPER);
    await admin.getByLabel("Role", { exact: true }).selectOption("Developer");
    await admin.getByRole("button", { name: "Send invitation" }).click();
    await admin.getByText("Invitation sent.").waitFor();
    const developerContext = await browser.newContext();
    const developer = await openTab(developerContext, problems);
    await developer.goto(await mailedLink(service, DEVELOPER));
    await developer.getByRole("button", { name: "Sign in" }).click();
    await developer.waitForURL(/\/dashboard\/sandbox\/keys$/);

    // In production the Developer sees the keys but no way to change them...
    await developer.getByRole("link", { name: "Production" }).click();
    await developer.waitForURL(/\/dashboard\/production\/keys$/);
    await expectAccessible(developer, pagesChecked);
    await developer.getByText("Developers cannot create API keys in production").waitFor();
    expect(await developer.getByRole("button", { name: "Create key" }).count()).toBe(0);
    expect(await developer.getByRole("link", { name: /^(Roll|Revoke)/ }).count()).toBe(0);
    await developer.getByRole("link", { name: "Webhooks" }).click();
    await developer.waitForURL(/\/dashboard\/production\/webhooks$/);
    await developer.getByText("Developers cannot create webhook endpoints in production").waitFor();
    expect(await developer.getByRole("button", { name: "Add endpoint" }).count()).toBe(0);
    await expectAccessible(developer, pagesChecked);
    await developer.getByRole("link", { name: "API keys" }).click();
    await developer.waitForURL(/\/dashboard\/production\/keys$/);
    // ...and the server refuses the change when sent anyway, with the session's own token.
    const liveKeyId = await developer.locator('tr[id^="key_"]').first().getAttribute("id");
    const csrf = await developer.locator('input[name="csrf"]').first().inputValue();
    const refused = await developer.request.post(
      `${service.base}/dashboard/production/keys/${liveKeyId}/revoke`,
      { form: { csrf, cascade: "1" }, headers: { origin: service.base }, maxRedirects: 0 },
    );
    expect(refused.status()).toBe(403);
    const page403 = await developer.goto(`${service.base}/dashboard/team`);
    expect(page403?.status()).toBe(403);
    await expectAccessible(developer, pagesChecked);
    // The browser reports the refused page itself as a failed load: expected here, once.
    const refusedLoad = problems.findIndex((p) => p.includes("status of 403"));
    expect(refusedLoad).toBeGreaterThan(-1);
    problems.splice(refusedLoad, 1);

    // The Admin revokes the rolled key: the API refuses it on the next request.
    await admin.getByRole("link", { name: "API keys" }).click();
    await admin
      .locator(`tr:has-text("…${rolledKey.slice(-4)}")`)
      .getByRole("link", { name: /^Revoke/ })
      .click();
    await admin.waitForURL(/\/dashboard\/sandbox\/keys\/key_\w+\/revoke$/);
    await expectAccessible(admin, pagesChecked);
    await admin.getByRole("button", { name: "Revoke" }).click();
    await admin.getByText("Revoked 1 key.").waitFor();
    const revoked = await statements(rolledKey);
    expect(revoked.status).toBe(401);

    // The audit log tells the story, newest first.
    await admin.getByRole("link", { name: "Audit log" }).click();
    await admin.waitForURL(/\/dashboard\/audit$/);
    await expectAccessible(admin, pagesChecked);
    const log = (await admin.locator("tbody").textContent()) ?? "";
    for (const what of [
      "Deleted a webhook endpoint",
      "Rolled a webhook secret",
      "Re-sent an event",
      "Created a webhook endpoint",
      "Revoked a key",
      "Invited a user",
      "Rolled back the saved version",
      "Changed the saved version",
      "Rolled a key",
      "Created a key",
      "Signed in",
    ]) {
      expect(log).toContain(what);
    }
    expect(log.indexOf("Revoked a key")).toBeLessThan(log.indexOf("Rolled a key"));

    // How the partner's statements look: the Admin sets the accent colour.
    await admin.getByRole("link", { name: "Documents" }).click();
    await admin.waitForURL(/\/dashboard\/documents$/);
    await expectAccessible(admin, pagesChecked);
    await admin.getByLabel("Accent colour").fill("#0a6b5a");
    await admin.getByRole("button", { name: /^Save/ }).click();
    await admin.waitForURL(/\/dashboard\/documents\?notice=saved$/);
    await expectAccessible(admin, pagesChecked);

    // The sandbox makes its own data: a test customer, a closed cycle, its statement and PDF.
    await admin.goto(`${service.base}/dashboard/sandbox/keys`);
    await admin.getByRole("link", { name: "Simulations" }).click();
    await admin.waitForURL(/\/dashboard\/sandbox\/simulations$/);
    await expectAccessible(admin, pagesChecked);
    await admin.getByRole("button", { name: "Create customer" }).click();
    await admin.waitForURL(/\/simulations\/customers\/cus_\w+\?notice=customer$/);
    await expectAccessible(admin, pagesChecked);
    await admin.getByRole("button", { name: /^Close the next billing cycle/ }).click();
    await admin.waitForURL(/\/simulations\/statements\/st_\w+\?notice=statement$/);
    await expectAccessible(admin, pagesChecked);
    const statementPage = admin.url();
    const openPdf = admin.getByRole("link", { name: "Open the PDF" });
    for (let tries = 0; (await openPdf.count()) === 0 && tries < 120; tries++) {
      await sleep(250);
      await admin.goto(statementPage);
    }
    const pdfLink = await openPdf.getAttribute("href");
    const pdf = await admin.request.get(new URL(pdfLink as string, service.base).href);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

    // Signing out ends the session; the sign-in pages are accessible too.
    await admin.getByRole("button", { name: "Sign out", exact: true }).click();
    await admin.waitForURL(/\/dashboard\/sign-in\?notice=signed-out$/);
    await expectAccessible(admin, pagesChecked);
    await admin.getByLabel("Email address").fill("nobody@browser-bank.example");
    await admin.getByRole("button", { name: "Email me a sign-in link" }).click();
    await admin.getByRole("heading", { name: "Check your email" }).waitFor();
    await expectAccessible(admin, pagesChecked);
    await admin.goto(`${service.base}/dashboard/sandbox/keys`);
    await admin.waitForURL(/\/dashboard\/sign-in$/);

    expect(problems).toEqual([]);
    await Promise.all([adminContext.close(), developerContext.close()]);
  });

  it("checked every kind of dashboard page for accessibility", () => {
    const kinds = pagesChecked.map((p) =>
      p
        .replace(/key_\w+/, ":key")
        .replace(/we_\w+/, ":id")
        .replace(/cus_\w+/, ":customer")
        .replace(/st_\w+/, ":statement"),
    );
    expect(new Set(kinds)).toEqual(
      new Set([
        "/dashboard/sign-in/confirm",
        "/dashboard/sandbox/keys",
        "/dashboard/sandbox/keys/:key/roll",
        "/dashboard/sandbox/keys/:key/revoke",
        "/dashboard/sandbox/webhooks",
        "/dashboard/sandbox/webhooks/:id",
        "/dashboard/sandbox/webhooks/:id/roll",
        "/dashboard/sandbox/webhooks/:id/delete",
        "/dashboard/sandbox/version",
        "/dashboard/production/keys",
        "/dashboard/production/webhooks",
        "/dashboard/team",
        "/dashboard/audit",
        "/dashboard/documents",
        "/dashboard/sandbox/simulations",
        "/dashboard/sandbox/simulations/customers/:customer",
        "/dashboard/sandbox/simulations/statements/:statement",
        "/dashboard/sign-in",
      ]),
    );
  });
});
