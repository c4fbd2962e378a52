// The dashboard's customers pages: customers → accounts → statements with their PDF links,
// read-only and paged, in the API's scope (partner, environment, product) and showing what the
// API shows; production data for Admins only, each view of it in the audit log.
import { describe, expect, it, vi } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { seedTeam, type Team } from "../support/dashboard";
import { createKey, importData, monthlyStatement, pdfBytes, uniqueId } from "../support/fixtures";
import { request } from "../support/worker";

interface Seeded {
  team: Team;
  products: [string, string];
  customer: string;
  account: string;
}

/**
 * A partner with two products; 55 sandbox customers of the first product, one of them with an
 * account of 15 statements (the 14th with its PDF), and one customer of the second product.
 */
async function seed(environment: "sandbox" | "production" = "sandbox"): Promise<Seeded> {
  const team = await seedTeam();
  const second = uniqueId("mk");
  const first = team.merchantKey as string;
  const customer = uniqueId("cus");
  const account = uniqueId("acc");
  const others = Array.from({ length: 54 }, (_, i) => `${customer}_${String(i).padStart(2, "0")}`);
  await importData({
    partners: [
      {
        partner_id: team.partnerId,
        name: "Team Partner",
        products: [
          { merchant_key: first, name: "Team Card" },
          { merchant_key: second, name: "Second Card" },
        ],
      },
    ],
    customers: [
      ...[customer, ...others].map((id, i) => ({
        customer_id: id,
        partner_id: team.partnerId,
        environment,
        merchant_key: first,
        ...(i === 0 ? { partner_customer_id: "crm-42" } : {}),
      })),
      {
        customer_id: `${customer}_second`,
        partner_id: team.partnerId,
        environment,
        merchant_key: second,
      },
    ],
    accounts: [
      {
        account_id: account,
        customer_id: customer,
        status: "OPEN",
        currency: "USD",
        credit_limit: 500000,
        current_balance: 12345,
        available_credit: 487655,
      },
    ],
    statements: Array.from({ length: 15 }, (_, i) => monthlyStatement(account, i + 1)),
  });
  const upload = await operator("PUT", `/statements/${account}_st_014/pdf`, pdfBytes("fourteen"), {
    "content-type": "application/pdf",
  });
  expect(upload.status).toBe(204);
  return { team, products: [first, second], customer, account };
}

async function html(client: Team["admin"], path: string, status = 200): Promise<string> {
  const res = await client.get(path);
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text;
}

const codes = (page: string, prefix: string) =>
  [...page.matchAll(new RegExp(`<code>(${prefix}[^<]*)</code>`, "g"))].map((m) => m[1] as string);

describe("the customers pages", () => {
  it("walk customers, accounts and statements, paged, as the API shows them", async () => {
    const { team, products, customer, account } = await seed();
    const list = await html(team.developer, "/dashboard/sandbox/customers");
    const firstPage = codes(list, customer);
    expect(firstPage).toHaveLength(50);
    expect(firstPage).toEqual([...firstPage].sort());
    expect(list).toContain("crm-42");
    expect(list).not.toContain(`${customer}_second`);
    const next = /<a href="([^"]+)">Next customers<\/a>/.exec(list)?.[1]?.replaceAll("&amp;", "&");
    const rest = codes(await html(team.developer, next as string), customer);
    expect(rest).toHaveLength(5);
    expect(new Set([...firstPage, ...rest]).size).toBe(55);
    // The other product, chosen by its merchant key.
    const second = await html(
      team.developer,
      `/dashboard/sandbox/customers?product=${products[1]}`,
    );
    expect(codes(second, customer)).toEqual([`${customer}_second`]);

    const detail = await html(team.developer, `/dashboard/sandbox/customers/${customer}`);
    expect(detail).toContain("crm-42");
    expect(detail).toContain(`<code>${account}</code>`);
    expect(detail).toContain('<data value="500000">$5,000.00</data>');
    expect(detail).toContain('<data value="12345">$123.45</data>');

    const accountPath = `/dashboard/sandbox/customers/${customer}/accounts/${account}`;
    const statements = await html(team.developer, accountPath);
    const shown = codes(statements, `${account}_st`);
    // The same statements, in the same order, as the API's first page of 12.
    const key = await createKey(team.partnerId, "sandbox", ["ACCOUNT_READ"]);
    const fromApi = await expectJson<{ data: { statement_id: string; pdf_url?: string }[] }>(
      await api(`/v2/customers/${customer}/accounts/${account}/statements?limit=12`, {
        key: key.apiKey,
        merchantKey: products[0],
      }),
      200,
    );
    expect(shown).toEqual(fromApi.data.map((s) => s.statement_id));
    // The PDF link is a signed link that downloads the document.
    const link = /<a href="(http:\/\/api\.test\/files\/statements\/[^"]+)">PDF/.exec(
      statements,
    )?.[1];
    const url = new URL((link ?? "").replaceAll("&amp;", "&"));
    expect(url.pathname).toBe(`/files/statements/${account}_st_014/pdf`);
    const pdf = await request(url.pathname + url.search);
    expect(pdf.status).toBe(200);
    expect(new Uint8Array(await pdf.arrayBuffer())).toEqual(pdfBytes("fourteen"));
    const older = /<a href="([^"]+)">Older statements<\/a>/.exec(statements)?.[1];
    const more = codes(
      await html(team.developer, (older ?? "").replaceAll("&amp;", "&")),
      `${account}_st`,
    );
    expect(more).toEqual([`${account}_st_003`, `${account}_st_002`, `${account}_st_001`]);
  });

  it("read an account's page in three D1 round trips: session, account, statements", async () => {
    const { team, customer, account } = await seed();
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => {
      if (typeof line === "string") lines.push(line);
    });
    try {
      const requestId = uniqueId("account-page");
      const res = await team.developer.get(
        `/dashboard/sandbox/customers/${customer}/accounts/${account}`,
        { "x-request-id": requestId },
      );
      expect(res.status).toBe(200);
      await res.text();
      const line = lines.find((text) => text.includes(`"request_id":"${requestId}"`));
      expect(JSON.parse(line ?? "{}")).toMatchObject({ status: 200, d1_queries: 3 });
    } finally {
      spy.mockRestore();
    }
  });

  it("find nothing outside the partner's environment, and refuse a foreign page token", async () => {
    const { team, products, customer, account } = await seed();
    const other = await seedTeam();
    await html(other.admin, `/dashboard/sandbox/customers/${customer}`, 404);
    await html(other.admin, `/dashboard/sandbox/customers/${customer}/accounts/${account}`, 404);
    await html(team.admin, `/dashboard/production/customers/${customer}`, 404);
    await html(team.admin, `/dashboard/sandbox/customers?product=${other.merchantKey}`, 404);
    await html(team.admin, `/dashboard/sandbox/customers/${customer}/accounts/acc_nobody`, 404);
    // A token of another listing (the API's, of the same account but filtered) is no page here.
    const key = await createKey(team.partnerId, "sandbox", ["ACCOUNT_READ"]);
    const filtered = await expectJson<{ next_page_token: string }>(
      await api(
        `/v2/customers/${customer}/accounts/${account}/statements?limit=1&period_end_date_gte=2024-01-01T00:00:00Z`,
        { key: key.apiKey, merchantKey: products[0] },
      ),
      200,
    );
    await html(
      team.admin,
      `/dashboard/sandbox/customers/${customer}/accounts/${account}?starting_after=${encodeURIComponent(filtered.next_page_token)}`,
      404,
    );
  });

  it("answer 404 for a page cursor no page gave, and say so when there are no products", async () => {
    const { team, customer, account } = await seed();
    const long = "c".repeat(129);
    for (const path of [
      `/dashboard/sandbox/customers?product=${team.merchantKey}&after=`,
      `/dashboard/sandbox/customers?product=${team.merchantKey}&after=${long}`,
      `/dashboard/sandbox/customers/${customer}?after=${long}`,
      `/dashboard/sandbox/customers/${customer}?after=.hidden`,
      `/dashboard/sandbox/customers/${customer}/accounts/${account}?starting_after=not-a-token`,
    ]) {
      expect(await html(team.admin, path, 404), path).toContain("no such page");
    }
    const bareId = uniqueId("partner");
    await importData({ partners: [{ partner_id: bareId, name: "No Products Yet" }] });
    const bare = await seedTeam(bareId);
    expect(await html(bare.admin, "/dashboard/sandbox/customers")).toContain(
      "No products yet: the operator sets them up.",
    );
  });

  it("show production data to Admins only, and audit each view of it", async () => {
    const { team, customer, account } = await seed("production");
    const refused = await team.developer.get("/dashboard/production/customers");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Developers cannot view customer data in production");
    const paths = [
      "/dashboard/production/customers",
      `/dashboard/production/customers/${customer}`,
      `/dashboard/production/customers/${customer}/accounts/${account}`,
    ];
    for (const path of paths) await html(team.admin, path);
    // Sandbox views are not audited.
    await html(team.admin, "/dashboard/sandbox/customers");
    const res = await operator("GET", `/partners/${team.partnerId}/audit?limit=10`);
    const entries = (
      await expectJson<{
        data: {
          action: string;
          target: string;
          environment: string;
          details: unknown;
          actor: { label: string };
        }[];
      }>(res, 200)
    ).data.filter((e) => e.action === "customer_data.viewed");
    expect(entries.map((e) => [e.target, e.details])).toEqual([
      [account, { page: "account" }],
      [customer, { page: "customer" }],
      [team.merchantKey, { page: "customers" }],
    ]);
    expect(entries.every((e) => e.environment === "production")).toBe(true);
    expect(entries.every((e) => e.actor.label === team.admin.email)).toBe(true);
    const log = await html(team.admin, "/dashboard/audit");
    expect(log).toContain("Viewed customer data");
  });
});
