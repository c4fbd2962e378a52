import { describe, expect, it } from "vitest";
import { api, type ErrorBody, expectJson, operator, type StatementList } from "../support/api";
import { NEWEST_RELEASED, OLDEST, SANDBOX_ONLY } from "../support/bundle-versions";
import {
  createKey,
  importData,
  monthlyStatement,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import {
  expectConflict,
  expectInvalid,
  listStatements,
  newPartner,
  postImport,
  servedFigures,
} from "../support/imports";
import { OPERATOR_TOKEN, request } from "../support/worker";

describe("POST /operator/v1/import", () => {
  it("imports every section and answers with the counts", async () => {
    const partnerId = uniqueId("partner");
    const [mk1, mk2] = [uniqueId("mk"), uniqueId("mk")];
    const [cus1, cus2] = [uniqueId("cus"), uniqueId("cus")];
    const [acc1, acc2] = [uniqueId("acc"), uniqueId("acc")];
    const res = await postImport({
      partners: [
        {
          partner_id: partnerId,
          name: "Acme",
          products: [
            { merchant_key: mk1, name: "Acme Card", documents: "uploaded" },
            { merchant_key: mk2, name: "Acme Gold", documents: "uploaded" },
          ],
          saved_versions: { sandbox: NEWEST_RELEASED, production: OLDEST },
        },
      ],
      customers: [
        {
          customer_id: cus1,
          partner_id: partnerId,
          environment: "sandbox",
          merchant_key: mk1,
          partner_customer_id: "p-77",
          authorized_users: [{ authorized_user_id: "au_1", name: "Sam Lee" }],
        },
        { customer_id: cus2, partner_id: partnerId, environment: "sandbox", merchant_key: mk2 },
      ],
      accounts: [
        {
          account_id: acc1,
          customer_id: cus1,
          status: "OPEN",
          currency: "USD",
          credit_limit: 500000,
          current_balance: 12345,
          available_credit: 487655,
        },
        { account_id: acc2, customer_id: cus2 },
      ],
      statements: [
        monthlyStatement(acc1, 1),
        monthlyStatement(acc1, 2),
        { statement_id: uniqueId("st"), account_id: acc2, period_end_date: "2024-05-31T23:59:59Z" },
      ],
    });
    expect(await expectJson(res, 200)).toEqual({
      imported: { partners: 1, customers: 2, accounts: 2, statements: 3, payment_methods: 0 },
    });

    const { apiKey } = await createKey(partnerId, "sandbox", [
      "ACCOUNT_READ",
      "AUTHORIZED_USER_READ",
    ]);
    const customer = await api(`/v2/customers/${cus1}`, { key: apiKey, merchantKey: mk1 });
    expect(customer.headers.get("x-service-version")).toBe(NEWEST_RELEASED);
    expect(await expectJson(customer, 200)).toEqual({
      customer_id: cus1,
      partner_customer_id: "p-77",
      authorized_users: [{ authorized_user_id: "au_1", name: "Sam Lee" }],
    });
    const account = await expectJson(
      await api(`/v2/customers/${cus1}/accounts/${acc1}`, { key: apiKey, merchantKey: mk1 }),
      200,
    );
    expect(account).toMatchObject({
      account_id: acc1,
      customer_id: cus1,
      status: "OPEN",
      currency: "USD",
      credit_limit: 500000,
      current_balance: 12345,
      available_credit: 487655,
    });
    const list = await expectJson<StatementList>(
      await api(`/v2/customers/${cus1}/accounts/${acc1}/statements`, {
        key: apiKey,
        merchantKey: mk1,
      }),
      200,
    );
    const { as_of: _asOf, ...newest } = list.data[0] as Record<string, unknown>;
    const { account_id: _acc, statement_id: _st, ...figures } = monthlyStatement(acc1, 2);
    expect(newest).toEqual({
      statement_id: `${acc1}_st_002`,
      customer_id: cus1,
      account_id: acc1,
      ...figures,
    });
    const quiet = await expectJson<StatementList>(
      await api(`/v2/customers/${cus2}/accounts/${acc2}/statements`, {
        key: apiKey,
        merchantKey: mk2,
      }),
      200,
    );
    expect(Object.keys(quiet.data[0] ?? {}).sort()).toEqual(
      ["account_id", "as_of", "customer_id", "period_end_date", "statement_id"].sort(),
    );
  });

  it("answers 200 with zero counts for an empty payload", async () => {
    const body = await expectJson(await postImport({}), 200);
    expect(body).toEqual({
      imported: { partners: 0, customers: 0, accounts: 0, statements: 0, payment_methods: 0 },
    });
    const empty = await expectJson(
      await postImport({ partners: [], customers: [], accounts: [], statements: [] }),
      200,
    );
    expect(empty).toEqual(body);
  });

  it("stores dates as UTC with milliseconds whatever offset they were sent in", async () => {
    const f = await seedAccount();
    await importData({
      statements: [
        {
          statement_id: uniqueId("st"),
          account_id: f.accountId,
          period_start_date: "2024-02-01T00:00:00+05:30",
          period_end_date: "2024-02-29T23:59:59.5-08:00",
          due_date: "2024-03-25t00:00:00z",
        },
      ],
    });
    const [statement] = (await listStatements(f)).data;
    expect(statement).toMatchObject({
      period_start_date: "2024-01-31T18:30:00.000Z",
      period_end_date: "2024-03-01T07:59:59.500Z",
      due_date: "2024-03-25T00:00:00.000Z",
    });
  });

  it("upserts partners, customers and accounts by id", async () => {
    const f = await seedAccount();
    const updated = await postImport({
      partners: [
        { partner_id: f.partnerId, name: "Renamed", saved_versions: { sandbox: SANDBOX_ONLY } },
      ],
      customers: [
        {
          customer_id: f.customerId,
          partner_id: f.partnerId,
          environment: "sandbox",
          merchant_key: f.merchantKey,
          partner_customer_id: "linked-1",
        },
      ],
      accounts: [{ account_id: f.accountId, customer_id: f.customerId, current_balance: 777 }],
    });
    expect(await expectJson(updated, 200)).toEqual({
      imported: { partners: 1, customers: 1, accounts: 1, statements: 0, payment_methods: 0 },
    });
    const customer = await api(`/v2/customers/${f.customerId}`, { key: f.key });
    expect(customer.headers.get("x-service-version")).toBe(SANDBOX_ONLY);
    expect(await expectJson(customer, 200)).toEqual({
      customer_id: f.customerId,
      partner_customer_id: "linked-1",
    });
    const account = await expectJson(
      await api(`/v2/customers/${f.customerId}/accounts/${f.accountId}`, { key: f.key }),
      200,
    );
    // Fields left out of the re-import keep their stored values.
    expect(account).toMatchObject({ status: "OPEN", currency: "USD", current_balance: 777 });
  });

  it("keeps a partner's saved versions and products when a re-import leaves them out", async () => {
    const f = await seedAccount({ statements: 1, savedVersion: NEWEST_RELEASED });
    await importData({ partners: [{ partner_id: f.partnerId, name: "Again" }] });
    const res = await api(statementsPath(f), { key: f.key });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-version")).toBe(NEWEST_RELEASED);
  });

  it("adds a product to a partner, after which the merchant-key header is required", async () => {
    const f = await seedAccount({ statements: 1 });
    const second = uniqueId("mk");
    await importData({
      partners: [
        {
          partner_id: f.partnerId,
          name: "P",
          products: [{ merchant_key: second, name: "Gold", documents: "uploaded" }],
        },
      ],
    });
    const without = await api(statementsPath(f), { key: f.key });
    expect((await expectJson<ErrorBody>(without, 400)).error.type).toBe("BAD_REQUEST_ERROR");
    const first = await api(statementsPath(f), { key: f.key, merchantKey: f.merchantKey });
    expect(first.status).toBe(200);
  });
});

describe("import atomicity", () => {
  it("stores nothing when the last item of a payload is invalid", async () => {
    const partner = newPartner();
    const merchantKey = partner.products[0]?.merchant_key as string;
    const customerId = uniqueId("cus");
    const accountId = uniqueId("acc");
    const statements = [1, 2, 3].map((m) => monthlyStatement(accountId, m));
    const bad = { ...monthlyStatement(accountId, 4), purchases: -1 };
    const payload = {
      partners: [partner],
      customers: [
        {
          customer_id: customerId,
          partner_id: partner.partner_id,
          environment: "sandbox",
          merchant_key: merchantKey,
        },
      ],
      accounts: [{ account_id: accountId, customer_id: customerId }],
      statements: [...statements, bad],
    };
    await expectInvalid(payload, `statements[3] ("${bad.statement_id}").purchases`);

    // The partner was not stored: no key can be made for it.
    const key = await operator("POST", `/partners/${partner.partner_id}/keys`, {
      environment: "sandbox",
      scopes: [],
    });
    expect(key.status).toBe(404);
    // Nor the account: a later import referring to it fails.
    await expectInvalid(
      { statements: [monthlyStatement(accountId, 1)] },
      `statements[0] ("${accountId}_st_001").account_id: unknown account`,
    );
    // The corrected payload then goes through in full.
    payload.statements = [...statements, monthlyStatement(accountId, 4)];
    expect(await expectJson(await postImport(payload), 200)).toEqual({
      imported: { partners: 1, customers: 1, accounts: 1, statements: 4, payment_methods: 0 },
    });
  });

  it("adds no statement to an existing account when one of the batch is invalid", async () => {
    const f = await seedAccount({ statements: 1 });
    await expectInvalid(
      {
        statements: [
          monthlyStatement(f.accountId, 2),
          monthlyStatement(f.accountId, 3),
          { ...monthlyStatement(f.accountId, 4), period_end_date: "2024-04-31T00:00:00Z" },
        ],
      },
      "period_end_date",
    );
    const list = await listStatements(f);
    expect(list.data.map((s) => s.statement_id)).toEqual([`${f.accountId}_st_001`]);
  });

  it("changes nothing when a payload conflicts with stored data", async () => {
    const f = await seedAccount({ statements: 2 });
    const before = await servedFigures(f);
    const newCustomer = uniqueId("cus");
    const changed = { ...monthlyStatement(f.accountId, 2), statement_balance: 1 };
    await expectConflict(
      {
        customers: [
          {
            customer_id: newCustomer,
            partner_id: f.partnerId,
            environment: "sandbox",
            merchant_key: f.merchantKey,
          },
        ],
        accounts: [{ account_id: f.accountId, customer_id: f.customerId, current_balance: 1 }],
        statements: [monthlyStatement(f.accountId, 3), changed],
      },
      `statements[1] ("${changed.statement_id}")`,
    );
    expect(await servedFigures(f)).toEqual(before);
    const customer = await api(`/v2/customers/${newCustomer}`, { key: f.key });
    expect(await expectJson(customer, 404)).toMatchObject({ type: "CUSTOMER_NOT_FOUND_ERROR" });
    const account = await expectJson(
      await api(`/v2/customers/${f.customerId}/accounts/${f.accountId}`, { key: f.key }),
      200,
    );
    expect(account).not.toHaveProperty("current_balance");
  });
});

describe("import body size", () => {
  const MIB = 1024 * 1024;
  /** A valid empty import padded with whitespace to exactly `size` bytes. */
  const paddedImport = (size: number) => `{"statements":[]}`.padEnd(size, " ");

  it("accepts a body of exactly 20 MiB", async () => {
    const res = await operator("POST", "/import", paddedImport(20 * MIB), {
      "content-type": "application/json",
    });
    expect(res.status).toBe(200);
  });

  it("answers 413 for a body of 20 MiB + 1 byte, with or without a Content-Length", async () => {
    const body = paddedImport(20 * MIB + 1);
    const sized = await operator("POST", "/import", body, { "content-type": "application/json" });
    expect((await expectJson<ErrorBody>(sized, 413)).error.type).toBe("PAYLOAD_TOO_LARGE_ERROR");

    const bytes = new TextEncoder().encode(body);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += MIB)
          controller.enqueue(bytes.slice(at, at + MIB));
        controller.close();
      },
    });
    const res = await request("/operator/v1/import", {
      method: "POST",
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" },
      body: streamed,
    });
    expect((await expectJson<ErrorBody>(res, 413)).error.type).toBe("PAYLOAD_TOO_LARGE_ERROR");
  });
});

describe("import of data other tests read", () => {
  it("serves an imported production customer to production keys only", async () => {
    const f = await seedAccount();
    const customerId = uniqueId("cus");
    await importData({
      customers: [
        {
          customer_id: customerId,
          partner_id: f.partnerId,
          environment: "production",
          merchant_key: f.merchantKey,
        },
      ],
    });
    const live = await createKey(f.partnerId, "production", []);
    expect((await api(`/v2/customers/${customerId}`, { key: live.apiKey })).status).toBe(200);
    expect((await api(`/v2/customers/${customerId}`, { key: f.key })).status).toBe(404);
  });
});
