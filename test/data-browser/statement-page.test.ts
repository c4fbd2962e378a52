// The dashboard's statement page: a statement's figures, rate, year-to-date totals and correction
// links, and its line items in the document's order, paged, as the API shows them; reached from
// the account's page; another account's or a hidden statement not found; each production view in
// the audit log.
import { describe, expect, it } from "vitest";
import { expectJson, operator } from "../support/api";
import { seedTeam } from "../support/dashboard";
import { importData, monthlyStatement, uniqueId } from "../support/fixtures";
import type { Json } from "../support/json";
import { statementWithLineItems } from "../support/line-items";

async function seed(environment: "sandbox" | "production" = "sandbox") {
  const team = await seedTeam();
  const customer = uniqueId("cus");
  const account = uniqueId("acc");
  const statement = statementWithLineItems(account, 2, { purchases: 60 });
  await importData({
    customers: [
      {
        customer_id: customer,
        partner_id: team.partnerId,
        environment,
        merchant_key: team.merchantKey as string,
      },
    ],
    accounts: [{ account_id: account, customer_id: customer, currency: "USD" }],
    statements: [monthlyStatement(account, 1), statement],
  });
  const path = `/dashboard/${environment}/customers/${customer}/accounts/${account}`;
  return { team, customer, account, statement, path };
}

async function html(client: { get(path: string): Promise<Response> }, path: string, status = 200) {
  const res = await client.get(path);
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(status);
  return text;
}

const lineItemIds = (page: string) =>
  [...page.matchAll(/<code>([^<]*_li_[0-9]{4})<\/code>/g)].map((m) => m[1] as string);

describe("the dashboard's statement page", () => {
  it("shows the statement's figures, rate and year to date, and its line items in order, paged", async () => {
    const { team, account, statement, path } = await seed();
    const listing = await html(team.developer, path);
    const statementPath = `${path}/statements/${statement.statement_id}`;
    expect(listing).toContain(`<a href="${statementPath}">`);

    const page = await html(team.developer, statementPath);
    expect(page).toContain("24.99% on");
    expect(page).toContain("Year to date");
    expect(page).toContain("MCC 5814");
    expect(page).toContain("PAYMENT - THANK YOU");
    const first = lineItemIds(page);
    expect(first).toHaveLength(50);
    const more = /<a href="([^"]+)">More line items<\/a>/.exec(page)?.[1]?.replaceAll("&amp;", "&");
    const rest = lineItemIds(await html(team.developer, more as string));
    const all = [...first, ...rest];
    expect(all).toHaveLength(64);
    const expected = [...(statement.line_items ?? [])]
      .sort((a, b) =>
        a.posted_at === b.posted_at
          ? a.line_item_id < b.line_item_id
            ? -1
            : 1
          : Date.parse(a.posted_at) - Date.parse(b.posted_at),
      )
      .map((i) => i.line_item_id);
    expect(all).toEqual(expected);
    // A statement without line items says so.
    const plain = await html(team.developer, `${path}/statements/${account}_st_001`);
    expect(plain).toContain("No line items recorded for this statement.");
  });

  it("links a correction and the statement it restates both ways", async () => {
    const { team, account, statement, path } = await seed();
    const correction = statementWithLineItems(account, 2, { id: `${account}_fix`, purchases: 3 });
    const res = await operator(
      "POST",
      `/statements/${statement.statement_id}/restatements`,
      correction,
    );
    expect(res.status).toBe(201);
    const listing = await html(team.developer, path);
    expect(listing).toMatch(new RegExp(`${account}_fix</code>\\s*</a>\\s*<span class="muted">`));
    expect(listing).toContain("(a correction)");
    expect(listing).not.toContain(`<code>${statement.statement_id}</code>`);
    const fixed = await html(team.developer, `${path}/statements/${account}_fix`);
    expect(fixed).toContain(`<a href="${path}/statements/${statement.statement_id}">`);
    const original = await html(team.developer, `${path}/statements/${statement.statement_id}`);
    expect(original).toContain("Restated by");
    expect(original).toContain(`<a href="${path}/statements/${account}_fix">`);
  });

  it("does not find a hidden statement, another account's, or a foreign page token", async () => {
    const { team, account, statement, path } = await seed();
    const other = await seed();
    await html(team.developer, `${path}/statements/${other.statement.statement_id}`, 404);
    await html(team.developer, `${path}/statements/nope`, 404);
    await html(
      team.developer,
      `${path}/statements/${statement.statement_id}?starting_after=x`,
      404,
    );
    expect((await operator("POST", `/statements/${account}_st_001/hide`)).status).toBe(204);
    await html(team.developer, `${path}/statements/${account}_st_001`, 404);
  });

  it("audits each view of a production statement, for Admins only", async () => {
    const { team, statement, path } = await seed("production");
    const statementPath = `${path}/statements/${statement.statement_id}`;
    await html(team.developer, statementPath, 403);
    await html(team.admin, statementPath);
    const audit = await expectJson<{ data: Json[] }>(
      await operator("GET", `/partners/${team.partnerId}/audit?limit=3`),
      200,
    );
    expect(audit.data[0]).toMatchObject({
      action: "customer_data.viewed",
      target: statement.statement_id,
      details: { page: "statement" },
    });
  });
});
