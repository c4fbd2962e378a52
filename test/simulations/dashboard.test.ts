// The dashboard's sandbox simulations page: create a test customer, close a cycle on its account,
// open the statement and its PDF once rendered. Sandbox only; another partner's customers and
// statements are not found.
import { describe, expect, it } from "vitest";
import { api, expectJson } from "../support/api";
import { seedTeam } from "../support/dashboard";
import { eventually } from "../support/eventually";
import { createKey } from "../support/fixtures";

const BASE = "/dashboard/sandbox/simulations";

describe("/dashboard/sandbox/simulations", { timeout: 30_000 }, () => {
  it("creates a customer, closes a cycle, and opens the statement's PDF", async () => {
    const team = await seedTeam();
    const home = await (await team.developer.get(BASE)).text();
    expect(home).toContain("Create a test customer");
    expect(home).toContain(`href="${BASE}"`);

    const created = await team.developer.post(`${BASE}/customers`, {
      partner_customer_id: "crm-9",
      currency: "EUR",
      credit_limit: "250000",
    });
    expect(created.status, await created.clone().text()).toBe(303);
    const customerPath = created.headers.get("location") ?? "";
    expect(customerPath).toMatch(new RegExp(`^${BASE}/customers/cus_\\w+\\?notice=customer$`));
    const customerPage = await (await team.developer.get(customerPath)).text();
    expect(customerPage).toContain("Test customer created, with one open account.");
    expect(customerPage).toContain("crm-9");
    expect(customerPage).toContain("OPEN · EUR · balance 0 of a limit of 250000");
    const customerId = /customers\/(cus_\w+)/.exec(customerPath)?.[1] as string;
    const accountId = /name="account_id" value="(acc_\w+)"/.exec(customerPage)?.[1] as string;

    const closed = await team.developer.post(`${BASE}/statements`, {
      customer_id: customerId,
      account_id: accountId,
    });
    expect(closed.status, await closed.clone().text()).toBe(303);
    const statementPath = closed.headers.get("location") ?? "";
    const statementId = /statements\/(st_\w+)/.exec(statementPath)?.[1] as string;
    const page = await eventually(
      async () => (await team.developer.get(statementPath)).text(),
      (html) => html.includes("Open the PDF"),
      20_000,
    );
    expect(page).toContain(`<code>${statementId}</code>`);
    expect(page).toContain("<code>previous_balance</code>");
    expect(page).toContain("<code>EUR</code>");
    const link = /href="([^"]+\/files\/statements\/[^"]+)"/
      .exec(page)?.[1]
      ?.replaceAll("&amp;", "&");
    expect(link).toBeDefined();
    const pdf = await api(new URL(link as string).pathname + new URL(link as string).search);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");

    // The customer page lists the statement in a table named for screen readers, and the home
    // page the customer.
    const listing = await (await team.developer.get(`${BASE}/customers/${customerId}`)).text();
    expect(listing).toContain(statementId);
    expect(listing).toContain(
      '<caption class="visually-hidden">Simulated statements, newest first</caption>',
    );
    expect(await (await team.developer.get(BASE)).text()).toContain(customerId);
  });

  it("closes a cycle on a customer the API made, and the API sees the page's statement", async () => {
    const team = await seedTeam();
    const { apiKey } = await createKey(team.partnerId, "sandbox", ["ACCOUNT_READ"]);
    const made = await expectJson<{ customer_id: string; accounts: { account_id: string }[] }>(
      await api("/v2/simulations/customers", { key: apiKey, method: "POST" }),
      201,
    );
    const account = made.accounts[0]?.account_id as string;
    const closed = await team.admin.post(`${BASE}/statements`, {
      customer_id: made.customer_id,
      account_id: account,
    });
    expect(closed.status).toBe(303);
    const listed = await expectJson<{ data: { statement_id: string }[] }>(
      await api(`/v2/customers/${made.customer_id}/accounts/${account}/statements`, {
        key: apiKey,
      }),
      200,
    );
    expect(closed.headers.get("location")).toContain(listed.data[0]?.statement_id as string);
  });

  it("is not in production, nor offers production in its switch", async () => {
    const team = await seedTeam();
    const live = await team.admin.get("/dashboard/production/simulations");
    expect(live.status).toBe(403);
    expect(await live.text()).toContain(
      "Nobody can run sandbox simulations in production: it is for sandbox only.",
    );
    const posted = await team.admin.post("/dashboard/production/simulations/customers");
    expect(posted.status).toBe(403);
    const sandbox = await (await team.admin.get(BASE)).text();
    expect(sandbox).not.toContain('href="/dashboard/production/simulations"');
    const keys = await (await team.admin.get("/dashboard/production/keys")).text();
    expect(keys).not.toContain("/simulations");
  });

  it("finds no other partner's customer or statement", async () => {
    const [ours, theirs] = [await seedTeam(), await seedTeam()];
    const created = await theirs.admin.post(`${BASE}/customers`, { currency: "USD" });
    const theirPath = created.headers.get("location")?.split("?")[0] as string;
    expect((await ours.admin.get(theirPath)).status).toBe(404);
    const customerId = theirPath.split("/").at(-1) as string;
    const page = await (await theirs.admin.get(theirPath)).text();
    const accountId = /name="account_id" value="(acc_\w+)"/.exec(page)?.[1] as string;
    const closed = await ours.admin.post(`${BASE}/statements`, {
      customer_id: customerId,
      account_id: accountId,
    });
    expect(closed.status).toBe(404);
    const theirs2 = await theirs.admin.post(`${BASE}/statements`, {
      customer_id: customerId,
      account_id: accountId,
    });
    const statementPath = theirs2.headers.get("location")?.split("?")[0] as string;
    expect((await ours.admin.get(statementPath)).status).toBe(404);
  });

  it("answers as the API does: an account not the customer's, and cycles closed at once", async () => {
    const team = await seedTeam();
    const created = await team.admin.post(`${BASE}/customers`, { currency: "USD" });
    const customerPath = created.headers.get("location")?.split("?")[0] as string;
    const customerId = customerPath.split("/").at(-1) as string;
    const page = await (await team.admin.get(customerPath)).text();
    const accountId = /name="account_id" value="(acc_\w+)"/.exec(page)?.[1] as string;

    const unknown = await team.admin.post(`${BASE}/statements`, {
      customer_id: customerId,
      account_id: "acc_unknown",
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("No such account for this customer");

    // Cycles closed at once: one follows the newest statement, the others find it moved on.
    const closed = await Promise.all(
      Array.from({ length: 4 }, () =>
        team.admin.post(`${BASE}/statements`, { customer_id: customerId, account_id: accountId }),
      ),
    );
    const statuses = closed.map((res) => res.status);
    expect(statuses).toContain(303);
    for (const res of closed.filter((r) => r.status !== 303)) {
      expect(res.status).toBe(409);
      expect(await res.text()).toContain("closed meanwhile; send the request again");
    }
  });
});
