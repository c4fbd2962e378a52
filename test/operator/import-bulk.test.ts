// Imports as large as the service accepts: sections that span several of the set-based write
// statements (each reads at most 600,000 characters of JSON rows) and a review whose id lookups
// span several statements too, all still one atomic request.
import { beforeAll, describe, expect, it } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { createKey, importData, type StatementInput, uniqueId } from "../support/fixtures";

interface ErrorBody {
  error: { type: string; message: string };
}

interface Page {
  data: { statement_id: string; purchases?: number }[];
  has_more: boolean;
  next_page_token?: string;
}

const ACCOUNTS = 5;
const PER_ACCOUNT = 1000;

/** The longest id the import accepts: 5,000 of them fill more than one chunk of ids and of rows. */
const longId = (prefix: string, n: number) =>
  `${prefix}_${String(n).padStart(6, "0")}`.padEnd(128, "x");

/** One statement a day from 2020-01-01. */
function daily(statementId: string, accountId: string, day: number): StatementInput {
  const start = Date.UTC(2020, 0, 1) + day * 86_400_000;
  return {
    statement_id: statementId,
    account_id: accountId,
    period_start_date: new Date(start).toISOString(),
    period_end_date: new Date(start + 86_399_000).toISOString(),
    currency: "USD",
    statement_balance: 1000 + day,
    purchases: 1000 + day,
  };
}

describe("imports that span several write statements", () => {
  const partnerId = uniqueId("partner");
  const merchantKey = uniqueId("mk");
  const customerId = uniqueId("cus");
  const accountIds = Array.from({ length: ACCOUNTS }, () => uniqueId("acc"));
  const prefix = uniqueId("st");
  const statements = accountIds.flatMap((accountId, a) =>
    Array.from({ length: PER_ACCOUNT }, (_, day) =>
      daily(longId(prefix, a * PER_ACCOUNT + day), accountId, day),
    ),
  );
  let key: string;

  beforeAll(async () => {
    await importData({
      partners: [
        {
          partner_id: partnerId,
          name: "Bulk",
          products: [{ merchant_key: merchantKey, name: "C", documents: "uploaded" }],
        },
      ],
      customers: [
        {
          customer_id: customerId,
          partner_id: partnerId,
          environment: "sandbox",
          merchant_key: merchantKey,
        },
      ],
      accounts: accountIds.map((id) => ({ account_id: id, customer_id: customerId })),
    });
    key = (await createKey(partnerId, "sandbox", ["ACCOUNT_READ", "AUTHORIZED_USER_READ"])).apiKey;
  });

  it("stores all 5,000 statements of one request, each account listable to its end", async () => {
    // Several chunks of rows (and of ids, for the review), each at most 600,000 characters.
    expect(JSON.stringify(statements).length).toBeGreaterThan(2 * 600_000);
    expect(statements.reduce((n, s) => n + s.statement_id.length + 3, 0)).toBeGreaterThan(600_000);
    const res = await operator("POST", "/import", { statements });
    const body = await expectJson<{ imported: { statements: number } }>(res, 200);
    expect(body.imported.statements).toBe(ACCOUNTS * PER_ACCOUNT);

    const last = accountIds.at(-1) as string;
    const listed: Page["data"] = [];
    let token = "";
    do {
      const query = `?limit=100${token ? `&starting_after=${token}` : ""}`;
      const page = await expectJson<Page>(
        await api(`/v2/customers/${customerId}/accounts/${last}/statements${query}`, { key }),
        200,
      );
      listed.push(...page.data);
      token = page.next_page_token ?? "";
    } while (token);
    expect(listed).toHaveLength(PER_ACCOUNT);
    expect(listed[0]).toMatchObject({
      statement_id: longId(prefix, ACCOUNTS * PER_ACCOUNT - 1),
      purchases: 1000 + PER_ACCOUNT - 1,
    });
    expect(listed.at(-1)?.statement_id).toBe(longId(prefix, (ACCOUNTS - 1) * PER_ACCOUNT));
  });

  it("treats the same 5,000 re-sent as a no-op, and refuses a change to the last one", async () => {
    expect((await operator("POST", "/import", { statements })).status).toBe(200);

    const changed = statements.map((s, i) =>
      i === statements.length - 1 ? { ...s, purchases: 1, statement_balance: 1 } : s,
    );
    const res = await operator("POST", "/import", { statements: changed });
    const body = await expectJson<ErrorBody>(res, 409);
    expect(body.error.type).toBe("CONFLICT_ERROR");
    expect(body.error.message).toContain(`statements[${statements.length - 1}]`);

    const last = accountIds.at(-1) as string;
    const page = await expectJson<Page>(
      await api(`/v2/customers/${customerId}/accounts/${last}/statements?limit=1`, { key }),
      200,
    );
    expect(page.data[0]?.purchases).toBe(1000 + PER_ACCOUNT - 1);
  });

  it("keeps every customer's authorized users, and keeps them when a re-import omits them", async () => {
    const users = (n: number) =>
      Array.from({ length: 4 }, (_, u) => ({
        authorized_user_id: `au_${n}_${u}`,
        name: `Authorized user ${u} of customer ${n}`.padEnd(80, "."),
      }));
    const customers = Array.from({ length: 2000 }, (_, n) => ({
      customer_id: longId(`${customerId}_c`, n),
      partner_id: partnerId,
      environment: "sandbox" as const,
      merchant_key: merchantKey,
      partner_customer_id: `p-${n}`,
      authorized_users: users(n),
    }));
    expect(JSON.stringify(customers).length).toBeGreaterThan(2 * 600_000);
    expect((await operator("POST", "/import", { customers })).status).toBe(200);
    const withoutUsers = customers.map(({ authorized_users: _, ...rest }) => rest);
    expect((await operator("POST", "/import", { customers: withoutUsers })).status).toBe(200);

    for (const n of [0, 1999]) {
      const customer = await expectJson<{
        partner_customer_id?: string;
        authorized_users?: unknown;
      }>(await api(`/v2/customers/${longId(`${customerId}_c`, n)}`, { key }), 200);
      expect(customer.partner_customer_id).toBe(`p-${n}`);
      expect(customer.authorized_users).toEqual(users(n));
    }
  });
});
