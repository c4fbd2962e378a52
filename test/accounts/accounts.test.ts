import { describe, expect, it } from "vitest";
import { accountPageQuery } from "../../src/accounts/account-store";
import { openDatabase } from "../../src/db/client";
import type { ReadScope } from "../../src/db/customers";
import { api, expectJson } from "../support/api";
import { ALL_VERSIONS, OLDEST, versionsWith } from "../support/bundle-versions";
import {
  createKey,
  importData,
  monthlyStatement,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import { withRequestLog } from "../support/request-log";
import { partnerDatabase } from "../support/shards";

interface AccountList {
  data: Record<string, unknown>[];
  has_more: boolean;
}

const accountsPath = (customerId: string, query = "") =>
  `/v2/customers/${customerId}/accounts${query}`;

/** A customer of the fixture's partner and product with `count` accounts named `<prefix>_NNN`. */
async function customerWithAccounts(
  f: { partnerId: string; merchantKey: string },
  count: number,
): Promise<{ customerId: string; accountIds: string[] }> {
  const customerId = uniqueId("cus");
  const prefix = uniqueId("acc");
  const accountIds = Array.from(
    { length: count },
    (_, i) => `${prefix}_${String(i).padStart(3, "0")}`,
  );
  await importData({
    customers: [
      {
        customer_id: customerId,
        partner_id: f.partnerId,
        environment: "sandbox",
        merchant_key: f.merchantKey,
      },
    ],
    // Imported out of order: the listing order is the id order, not the import order.
    accounts: [...accountIds].reverse().map((id) => ({ account_id: id, customer_id: customerId })),
  });
  return { customerId, accountIds };
}

/** Every page of a listing, following `starting_after` from the last id of each page. */
async function walk(key: string, customerId: string, limit: number) {
  const pages: string[][] = [];
  let after: string | undefined;
  for (let i = 0; i < 20; i++) {
    const query = `?limit=${limit}${after ? `&starting_after=${encodeURIComponent(after)}` : ""}`;
    const body = await expectJson<AccountList>(
      await api(accountsPath(customerId, query), { key }),
      200,
    );
    const ids = body.data.map((a) => a.account_id as string);
    pages.push(ids);
    if (!body.has_more) return pages;
    after = ids.at(-1);
  }
  throw new Error("the listing never ended");
}

describe("GET /v2/customers/{customer_id}/accounts", () => {
  it("returns each account's figures as imported, with one as_of for the page", async () => {
    const f = await seedAccount();
    const full = uniqueId("acc");
    await importData({
      accounts: [
        {
          account_id: full,
          customer_id: f.customerId,
          status: "OPEN",
          currency: "EUR",
          credit_limit: 500000,
          current_balance: -1250,
          available_credit: 501250,
        },
      ],
    });
    const before = Date.now();
    const res = await api(accountsPath(f.customerId), { key: f.key });
    const body = await expectJson<AccountList>(res, 200);
    expect(res.headers.get("x-service-version")).toBe(OLDEST);
    const asOf = body.data[0]?.as_of as string;
    expect(asOf).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(asOf)).toBeGreaterThanOrEqual(before - 1);
    const byId = new Map(body.data.map((a) => [a.account_id, a]));
    expect(byId.get(full)).toEqual({
      account_id: full,
      customer_id: f.customerId,
      status: "OPEN",
      currency: "EUR",
      credit_limit: 500000,
      current_balance: -1250,
      available_credit: 501250,
      as_of: asOf,
    });
    // The fixture's account has only status and currency: the other figures are absent, not null.
    expect(byId.get(f.accountId)).toEqual({
      account_id: f.accountId,
      customer_id: f.customerId,
      status: "OPEN",
      currency: "USD",
      as_of: asOf,
    });
    expect(body.has_more).toBe(false);
    expect(body.data.every((a) => a.as_of === asOf)).toBe(true);
  });

  it("answers an empty page for a customer without accounts", async () => {
    const f = await seedAccount();
    const { customerId } = await customerWithAccounts(f, 0);
    const body = await expectJson(await api(accountsPath(customerId), { key: f.key }), 200);
    expect(body).toEqual({ data: [], has_more: false });
  });

  it("pages by account id, 10 by default, without gaps or repeats", async () => {
    const f = await seedAccount();
    const { customerId, accountIds } = await customerWithAccounts(f, 23);
    const first = await expectJson<AccountList>(
      await api(accountsPath(customerId), { key: f.key }),
      200,
    );
    expect(first.data.map((a) => a.account_id)).toEqual(accountIds.slice(0, 10));
    expect(first.has_more).toBe(true);
    expect(Object.keys(first)).toEqual(["data", "has_more"]);

    const pages = await walk(f.key, customerId, 7);
    expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 2]);
    expect(pages.flat()).toEqual(accountIds);
  });

  it("says has_more is false when the last page is exactly full", async () => {
    const f = await seedAccount();
    const { customerId, accountIds } = await customerWithAccounts(f, 4);
    const pages = await walk(f.key, customerId, 2);
    expect(pages).toEqual([accountIds.slice(0, 2), accountIds.slice(2, 4)]);
  });

  it("returns up to 100 accounts with limit=100", async () => {
    const f = await seedAccount();
    const { customerId, accountIds } = await customerWithAccounts(f, 101);
    const body = await expectJson<AccountList>(
      await api(accountsPath(customerId, "?limit=100"), { key: f.key }),
      200,
    );
    expect(body.data.map((a) => a.account_id)).toEqual(accountIds.slice(0, 100));
    expect(body.has_more).toBe(true);
  });

  it("reads starting_after as a position in id order, even an id that names no account", async () => {
    const f = await seedAccount();
    const { customerId, accountIds } = await customerWithAccounts(f, 3);
    // `<id>_000x` sorts between `<id>_000` and `<id>_001`.
    const between = `${accountIds[0]}x`;
    const body = await expectJson<AccountList>(
      await api(accountsPath(customerId, `?starting_after=${encodeURIComponent(between)}`), {
        key: f.key,
      }),
      200,
    );
    expect(body.data.map((a) => a.account_id)).toEqual(accountIds.slice(1));
  });

  it("never pages into another customer's accounts", async () => {
    const f = await seedAccount();
    const mine = await customerWithAccounts(f, 2);
    await customerWithAccounts(f, 3);
    const pages = await walk(f.key, mine.customerId, 1);
    expect(pages.flat()).toEqual(mine.accountIds);
  });

  it.each([
    ["limit=0"],
    ["limit=101"],
    ["limit=-1"],
    ["limit=abc"],
    ["limit=1.5"],
    ["limit="],
    ["limit=1&limit=2"],
    ["starting_after="],
    ["starting_after=a&starting_after=b"],
    [`starting_after=${"a".repeat(1025)}`],
  ])("rejects ?%s with the oldest version's validation error", async (query) => {
    const f = await seedAccount();
    const path = accountsPath(f.customerId, `?${query}`);
    const res = await api(path, { key: f.key });
    const body = await expectJson(res, 400);
    expect(res.headers.get("x-service-version")).toBe(OLDEST);
    expect(Object.keys(body).sort()).toEqual(["details", "error", "path", "status", "timestamp"]);
    expect(body).toMatchObject({ path: path.split("?")[0], error: "Bad Request", status: 400 });
    expect((body.details as string[])[0]).toMatch(/limit|starting_after/);
  });

  it.each(versionsWith("useApiErrorEnvelopeForAllErrors"))(
    "rejects a bad limit with the ApiError envelope in %s",
    async (version) => {
      const f = await seedAccount();
      const res = await api(accountsPath(f.customerId, "?limit=0"), { key: f.key, version });
      const body = await expectJson(res, 400);
      expect(res.headers.get("x-service-version")).toBe(version);
      expect(body).toEqual({
        error: {
          type: "INVALID_REQUEST_ERROR",
          message: expect.stringContaining("limit"),
          param: "limit",
          details: [expect.stringContaining("limit")],
        },
      });
    },
  );

  it("costs one D1 round trip after authentication, through the account index", async () => {
    const f = await seedAccount();
    const { customerId } = await customerWithAccounts(f, 30);
    const { res, log } = await withRequestLog(() =>
      api(accountsPath(customerId, "?limit=5"), { key: f.key }),
    );
    expect(res.status).toBe(200);
    // One for the key lookup, one batch for the customer check and the page.
    expect(log.d1_queries).toBe(2);

    const shard = await partnerDatabase(f.partnerId);
    const { db } = openDatabase(shard);
    const scope: ReadScope = {
      partnerId: f.partnerId,
      environment: "sandbox",
      merchantKey: f.merchantKey,
    };
    const query = accountPageQuery(db, scope, customerId, "acc_x", 5).toSQL();
    expect(query.sql).not.toMatch(/offset/i);
    const plan = await shard
      .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join("\n");
    const range = "accounts_customer_idx (customer_id=? AND account_id>?)";
    expect(details).toContain(`SEARCH accounts USING INDEX ${range}`);
    expect(details).not.toMatch(/TEMP B-TREE|SCAN/);
  });
});

describe("GET /v2/customers/{customer_id}/accounts/{account_id}", () => {
  it("returns the account with its figures and as_of", async () => {
    const f = await seedAccount();
    const res = await api(`${accountsPath(f.customerId)}/${f.accountId}`, { key: f.key });
    const body = await expectJson(res, 200);
    expect(body).toEqual({
      account_id: f.accountId,
      customer_id: f.customerId,
      status: "OPEN",
      currency: "USD",
      as_of: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it("costs one D1 round trip after authentication", async () => {
    const f = await seedAccount();
    const { res, log } = await withRequestLog(() =>
      api(`${accountsPath(f.customerId)}/${f.accountId}`, { key: f.key }),
    );
    expect(res.status).toBe(200);
    expect(log.d1_queries).toBe(2);
  });

  it("answers ACCOUNT_NOT_FOUND_ERROR for an account of another customer", async () => {
    const f = await seedAccount();
    const other = await customerWithAccounts(f, 1);
    const res = await api(`${accountsPath(f.customerId)}/${other.accountIds[0]}`, { key: f.key });
    expect(await expectJson(res, 404)).toEqual({
      type: "ACCOUNT_NOT_FOUND_ERROR",
      message: expect.any(String),
      param: "account_id",
    });
  });

  it("answers CUSTOMER_NOT_FOUND_ERROR for an unknown customer, whatever the account", async () => {
    const f = await seedAccount();
    const res = await api(`${accountsPath("cus_never")}/${f.accountId}`, { key: f.key });
    expect(await expectJson(res, 404)).toEqual({
      type: "CUSTOMER_NOT_FOUND_ERROR",
      message: expect.any(String),
      param: "customer_id",
    });
  });

  it.each(
    ALL_VERSIONS.map((v) => [
      v,
      versionsWith("useApiErrorEnvelopeForAllErrors").includes(v) ? "envelope" : "flat",
    ]),
  )("shapes the not-found errors for %s (%s)", async (version, shape) => {
    const f = await seedAccount();
    const missingAccount = await api(`${accountsPath(f.customerId)}/acc_none`, {
      key: f.key,
      version,
    });
    const missingCustomer = await api(accountsPath("cus_none"), { key: f.key, version });
    expect(missingAccount.headers.get("x-service-version")).toBe(version);
    expect(missingCustomer.headers.get("x-service-version")).toBe(version);
    const account = {
      type: "ACCOUNT_NOT_FOUND_ERROR",
      message: expect.any(String),
      param: "account_id",
    };
    const customer = {
      type: "CUSTOMER_NOT_FOUND_ERROR",
      message: expect.any(String),
      param: "customer_id",
    };
    expect(await expectJson(missingAccount, 404)).toEqual(
      shape === "flat" ? account : { error: account },
    );
    expect(await expectJson(missingCustomer, 404)).toEqual(
      shape === "flat" ? customer : { error: customer },
    );
  });

  it("serves accounts in every version with the same body", async () => {
    const f = await seedAccount();
    for (const version of ALL_VERSIONS) {
      const res = await api(`${accountsPath(f.customerId)}/${f.accountId}`, {
        key: f.key,
        version,
      });
      const body = await expectJson(res, 200);
      expect(res.headers.get("x-service-version")).toBe(version);
      expect(body).toMatchObject({ account_id: f.accountId, status: "OPEN", currency: "USD" });
      const list = await expectJson<AccountList>(
        await api(accountsPath(f.customerId), { key: f.key, version }),
        200,
      );
      expect(list.data.map((a) => a.account_id)).toEqual([f.accountId]);
    }
  });
});

describe("isolation of accounts by partner, product and environment", () => {
  /** A partner with two products, a customer with an account in each, and one in production. */
  async function twoProductPartner() {
    const partnerId = uniqueId("partner");
    const [mkA, mkB] = [uniqueId("mk"), uniqueId("mk")];
    const [cusA, cusB, cusLive] = [uniqueId("cus"), uniqueId("cus"), uniqueId("cus")];
    const [accA, accB, accLive] = [uniqueId("acc"), uniqueId("acc"), uniqueId("acc")];
    const customer = (
      customer_id: string,
      merchant_key: string,
      environment: "sandbox" | "production" = "sandbox",
    ) => ({
      customer_id,
      partner_id: partnerId,
      environment,
      merchant_key,
    });
    await importData({
      partners: [
        {
          partner_id: partnerId,
          name: "Two Cards",
          products: [
            { merchant_key: mkA, name: "Card A", documents: "uploaded" },
            { merchant_key: mkB, name: "Card B", documents: "uploaded" },
          ],
        },
      ],
      customers: [customer(cusA, mkA), customer(cusB, mkB), customer(cusLive, mkA, "production")],
      accounts: [
        { account_id: accA, customer_id: cusA, status: "OPEN" },
        { account_id: accB, customer_id: cusB, status: "OPEN" },
        { account_id: accLive, customer_id: cusLive, status: "OPEN" },
      ],
    });
    const sandbox = await createKey(partnerId, "sandbox", ["ACCOUNT_READ"]);
    const production = await createKey(partnerId, "production", ["ACCOUNT_READ"]);
    return { mkA, mkB, cusA, cusB, cusLive, accA, accB, accLive, sandbox, production };
  }

  /** The response for `foreignId` must be the one for an id that never existed, byte for byte. */
  async function expectSameAsNeverExisting(
    path: (customerId: string) => string,
    foreignId: string,
    options: Parameters<typeof api>[1],
  ) {
    const neverId = `cus_never_${"x".repeat(Math.max(0, foreignId.length - 10))}`.slice(
      0,
      foreignId.length,
    );
    const foreign = await api(path(foreignId), options);
    const never = await api(path(neverId), options);
    expect(foreign.status).toBe(404);
    expect(never.status).toBe(404);
    expect(await foreign.text()).toBe((await never.text()).replaceAll(neverId, foreignId));
    const headers = (res: Response) => [...res.headers].filter(([name]) => name !== "x-request-id");
    expect(headers(foreign)).toEqual(headers(never));
  }

  it("requires the merchant-key header when the partner has several products", async () => {
    const p = await twoProductPartner();
    const res = await api(accountsPath(p.cusA), { key: p.sandbox.apiKey });
    const body = await expectJson(res, 400);
    expect(body).toEqual({
      error: {
        type: "BAD_REQUEST_ERROR",
        message: expect.stringContaining("x-service-merchant-key"),
        param: "x-service-merchant-key",
      },
    });
  });

  it("rejects a merchant key that is not one of the partner's products", async () => {
    const p = await twoProductPartner();
    const other = await seedAccount();
    const res = await api(accountsPath(p.cusA), {
      key: p.sandbox.apiKey,
      merchantKey: other.merchantKey,
    });
    expect(await expectJson(res, 400)).toMatchObject({ error: { type: "BAD_REQUEST_ERROR" } });
  });

  it("reads a customer's accounts only through the customer's own product", async () => {
    const p = await twoProductPartner();
    const key = p.sandbox.apiKey;
    const list = await expectJson<AccountList>(
      await api(accountsPath(p.cusA), { key, merchantKey: p.mkA }),
      200,
    );
    expect(list.data.map((a) => a.account_id)).toEqual([p.accA]);
    for (const version of ALL_VERSIONS) {
      const options = { key, merchantKey: p.mkB, version };
      await expectSameAsNeverExisting((id) => accountsPath(id), p.cusA, options);
      await expectSameAsNeverExisting((id) => `${accountsPath(id)}/${p.accA}`, p.cusA, options);
      await expectSameAsNeverExisting(
        (id) => statementsPath({ customerId: id, accountId: p.accA }),
        p.cusA,
        options,
      );
    }
  });

  it("keeps sandbox and production customers apart", async () => {
    const p = await twoProductPartner();
    const live = await expectJson<AccountList>(
      await api(accountsPath(p.cusLive), { key: p.production.apiKey, merchantKey: p.mkA }),
      200,
    );
    expect(live.data.map((a) => a.account_id)).toEqual([p.accLive]);
    await expectSameAsNeverExisting((id) => accountsPath(id), p.cusLive, {
      key: p.sandbox.apiKey,
      merchantKey: p.mkA,
    });
    await expectSameAsNeverExisting((id) => `${accountsPath(id)}/${p.accA}`, p.cusA, {
      key: p.production.apiKey,
      merchantKey: p.mkA,
    });
  });

  it("hides another partner's customers and accounts", async () => {
    const mine = await seedAccount();
    const theirs = await seedAccount();
    await expectSameAsNeverExisting((id) => accountsPath(id), theirs.customerId, { key: mine.key });
    await expectSameAsNeverExisting(
      (id) => `${accountsPath(id)}/${theirs.accountId}`,
      theirs.customerId,
      { key: mine.key },
    );
    // Their account under my customer is simply not one of my customer's accounts.
    const res = await api(`${accountsPath(mine.customerId)}/${theirs.accountId}`, {
      key: mine.key,
    });
    expect(await expectJson(res, 404)).toMatchObject({ type: "ACCOUNT_NOT_FOUND_ERROR" });
  });

  it("treats ids with odd characters as ids that match nothing", async () => {
    const f = await seedAccount();
    for (const id of ["%27%20OR%201%3D1--", "%E2%9C%93", "a%2Fb", "%00", "%25"]) {
      const res = await api(accountsPath(id), { key: f.key });
      expect(await expectJson(res, 404)).toMatchObject({ type: "CUSTOMER_NOT_FOUND_ERROR" });
      const one = await api(`${accountsPath(f.customerId)}/${id}`, { key: f.key });
      expect(await expectJson(one, 404)).toMatchObject({ type: "ACCOUNT_NOT_FOUND_ERROR" });
    }
  });
});

describe("from accounts to statements", () => {
  it("lists statements of an account found through the accounts list", async () => {
    const f = await seedAccount({ statements: 2 });
    await importData({ statements: [monthlyStatement(f.accountId, 3)] });
    const accounts = await expectJson<AccountList>(
      await api(accountsPath(f.customerId), { key: f.key }),
      200,
    );
    const accountId = accounts.data[0]?.account_id as string;
    const res = await api(statementsPath({ customerId: f.customerId, accountId }), { key: f.key });
    const statements = await expectJson<AccountList>(res, 200);
    expect(statements.data.map((s) => s.statement_id)).toEqual([
      `${f.accountId}_st_003`,
      `${f.accountId}_st_002`,
      `${f.accountId}_st_001`,
    ]);
  });
});
