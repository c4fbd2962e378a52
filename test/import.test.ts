// POST /operator/v1/import over HTTP: counts, upserts, atomicity, conflicts and validation.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { NEWEST_RELEASED, OLDEST, SANDBOX_ONLY } from "./bundle-versions";
import {
  api,
  createKey,
  expectJson,
  type Fixture,
  importData,
  monthlyStatement,
  OPERATOR_TOKEN,
  operator,
  request,
  type StatementInput,
  seedAccount,
  statementsPath,
  uniqueId,
} from "./helpers";

interface ErrorBody {
  error: { type: string; message: string; details?: string[] };
}

interface StatementList {
  data: Record<string, unknown>[];
  has_more: boolean;
}

function postImport(payload: unknown): Promise<Response> {
  return operator("POST", "/import", payload);
}

/** Expects a 400 whose details contain every fragment given (each naming an item and field). */
async function expectInvalid(payload: unknown, ...fragments: string[]): Promise<ErrorBody> {
  const body = await expectJson<ErrorBody>(await postImport(payload), 400);
  expect(body.error.type).toBe("INVALID_REQUEST_ERROR");
  expect(body.error.message).toBe(body.error.details?.[0]);
  for (const fragment of fragments) {
    expect(body.error.details, JSON.stringify(payload).slice(0, 300)).toEqual(
      expect.arrayContaining([expect.stringContaining(fragment)]),
    );
  }
  return body;
}

async function expectConflict(payload: unknown, fragment: string): Promise<ErrorBody> {
  const body = await expectJson<ErrorBody>(await postImport(payload), 409);
  expect(body.error.type).toBe("CONFLICT_ERROR");
  expect(body.error.details).toEqual(expect.arrayContaining([expect.stringContaining(fragment)]));
  return body;
}

async function listStatements(f: Fixture): Promise<StatementList> {
  return expectJson<StatementList>(await api(statementsPath(f), { key: f.key }), 200);
}

/** Every figure of a fixture's visible statements, as served (as_of aside). */
async function servedFigures(f: Fixture): Promise<Record<string, unknown>[]> {
  const list = await listStatements(f);
  return list.data.map(({ as_of: _asOf, ...rest }) => rest);
}

/** A fresh partner with one sandbox product, as an import section. */
function newPartner(partnerId = uniqueId("partner"), merchantKey = uniqueId("mk")) {
  return {
    partner_id: partnerId,
    name: "Partner",
    products: [{ merchant_key: merchantKey, name: "Card" }],
  };
}

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
            { merchant_key: mk1, name: "Acme Card" },
            { merchant_key: mk2, name: "Acme Gold" },
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
      imported: { partners: 1, customers: 2, accounts: 2, statements: 3 },
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
    expect(body).toEqual({ imported: { partners: 0, customers: 0, accounts: 0, statements: 0 } });
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
      imported: { partners: 1, customers: 1, accounts: 1, statements: 0 },
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
        { partner_id: f.partnerId, name: "P", products: [{ merchant_key: second, name: "Gold" }] },
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
      imported: { partners: 1, customers: 1, accounts: 1, statements: 4 },
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

describe("closed statements never change", () => {
  it("treats re-importing identical statements as a no-op", async () => {
    const f = await seedAccount({ statements: 3 });
    const before = await servedFigures(f);
    const again = [1, 2, 3].map((m) => monthlyStatement(f.accountId, m));
    expect(await expectJson(await postImport({ statements: again }), 200)).toEqual({
      imported: { partners: 0, customers: 0, accounts: 0, statements: 3 },
    });
    expect(await servedFigures(f)).toEqual(before);
  });

  it("treats the same instant written with another offset as identical", async () => {
    const f = await seedAccount({ statements: 1 });
    const original = monthlyStatement(f.accountId, 1);
    const same = { ...original, period_end_date: "2024-02-01T01:59:59+02:00" };
    expect(original.period_end_date).toBe("2024-01-31T23:59:59.000Z");
    expect((await postImport({ statements: [same] })).status).toBe(200);
  });

  it("answers 409 for any change to a stored statement and keeps the stored figures", async () => {
    const f = await seedAccount({ statements: 1 });
    const before = await servedFigures(f);
    const original = monthlyStatement(f.accountId, 1);
    const { fees: _fees, ...withoutFees } = original;
    const other = await seedAccount();
    const changes: StatementInput[] = [
      { ...original, statement_balance: (original.statement_balance ?? 0) + 1 },
      { ...original, purchases: 4001 },
      { ...original, payments: -3001 },
      { ...original, overdue_amount: 1 },
      { ...original, credits: 0 },
      withoutFees,
      { ...original, currency: "EUR" },
      { ...original, period_end_date: "2024-01-31T23:59:58Z" },
      { ...original, due_date: "2024-02-26T00:00:00Z" },
      { ...original, account_id: other.accountId },
    ];
    for (const changed of changes) {
      await expectConflict(
        { statements: [changed] },
        `statements[0] ("${original.statement_id}"): a closed statement's figures never change`,
      );
    }
    expect(await servedFigures(f)).toEqual(before);
  });

  it("refuses an UPDATE of a statement's figures in the database itself", async () => {
    const f = await seedAccount({ statements: 1 });
    const id = `${f.accountId}_st_001`;
    const updates = [
      "UPDATE statements SET purchases = purchases + 1 WHERE statement_id = ?",
      "UPDATE statements SET statement_balance = NULL WHERE statement_id = ?",
      "UPDATE statements SET period_end_date = '2030-01-01T00:00:00.000Z' WHERE statement_id = ?",
      "UPDATE statements SET account_id = 'elsewhere' WHERE statement_id = ?",
      "UPDATE statements SET statement_id = statement_id || 'x' WHERE statement_id = ?",
    ];
    for (const sql of updates) {
      await expect(env.DB.prepare(sql).bind(id).run(), sql).rejects.toThrow(
        /statement_figures_immutable/,
      );
    }
    const row = await env.DB.prepare("SELECT purchases FROM statements WHERE statement_id = ?")
      .bind(id)
      .first<{ purchases: number }>();
    expect(row?.purchases).toBe(4000);
    // Servicing columns stay writable: that is how PDFs are attached and statements hidden.
    const servicing = await env.DB.prepare(
      "UPDATE statements SET pdf_key = NULL, hidden_at = NULL WHERE statement_id = ?",
    )
      .bind(id)
      .run();
    expect(servicing.success).toBe(true);
  });
});

describe("ownership never moves", () => {
  it("answers 409 when a customer would move partner, environment or product", async () => {
    const f = await seedAccount();
    const other = await seedAccount();
    const secondProduct = uniqueId("mk");
    await importData({
      partners: [
        {
          partner_id: f.partnerId,
          name: "P",
          products: [{ merchant_key: secondProduct, name: "Gold" }],
        },
      ],
    });
    const customer = {
      customer_id: f.customerId,
      partner_id: f.partnerId,
      environment: "sandbox",
      merchant_key: f.merchantKey,
    };
    const moves = [
      { ...customer, partner_id: other.partnerId, merchant_key: other.merchantKey },
      { ...customer, environment: "production" },
      { ...customer, merchant_key: secondProduct },
    ];
    for (const moved of moves) {
      await expectConflict(
        { customers: [moved] },
        `customers[0] ("${f.customerId}"): ` +
          "a customer's partner, environment and product never change",
      );
    }
    const still = await api(`/v2/customers/${f.customerId}`, {
      key: f.key,
      merchantKey: f.merchantKey,
    });
    expect(still.status).toBe(200);
  });

  it("answers 409 when an account would move to another customer", async () => {
    const f = await seedAccount({ statements: 1 });
    const other = await seedAccount();
    await expectConflict(
      { accounts: [{ account_id: f.accountId, customer_id: other.customerId }] },
      `accounts[0] ("${f.accountId}").customer_id: an account never moves to another customer`,
    );
    expect((await listStatements(f)).data).toHaveLength(1);
  });

  it("answers 409 when a merchant key already belongs to another partner", async () => {
    const f = await seedAccount();
    const partnerId = uniqueId("partner");
    await expectConflict(
      { partners: [newPartner(partnerId, f.merchantKey)] },
      `partners[0] ("${partnerId}").products[0].merchant_key: ` +
        `"${f.merchantKey}" belongs to another partner`,
    );
    const key = await operator("POST", `/partners/${partnerId}/keys`, {
      environment: "sandbox",
      scopes: [],
    });
    expect(key.status).toBe(404);
    expect((await api(`/v2/customers/${f.customerId}`, { key: f.key })).status).toBe(200);
  });
});

describe("import validation names the item and field", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await seedAccount();
  });

  /** One statement with a field replaced (or removed when `value` is undefined). */
  function statementWith(field: string, value: unknown): Record<string, unknown> {
    const statement: Record<string, unknown> = {
      ...monthlyStatement(f.accountId, 1, "st_probe"),
    };
    if (value === undefined) delete statement[field];
    else statement[field] = value;
    return statement;
  }

  const badDates: unknown[] = [
    "2026-02-30T00:00:00Z",
    "2025-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2024-04-31T00:00:00Z",
    "2024-13-01T00:00:00Z",
    "2024-00-10T00:00:00Z",
    "2024-01-00T00:00:00Z",
    "2024-01-01T24:00:00Z",
    "2024-01-01T23:60:00Z",
    "2024-01-01T23:59:60Z",
    "2024-01-01T00:00:00+24:00",
    "2024-01-31",
    "2024-01-31T23:59:59",
    "2024-01-31 23:59:59Z",
    "2024-1-31T23:59:59Z",
    "31/01/2024",
    "Wed, 31 Jan 2024 23:59:59 GMT",
    "",
    "not a date",
    1706745599000,
    null,
    true,
  ];

  it.each(["period_end_date", "period_start_date", "due_date"])(
    "rejects %s values that are not RFC 3339 timestamps",
    async (field) => {
      for (const value of badDates) {
        await expectInvalid(
          { statements: [statementWith(field, value)] },
          `statements[0] ("st_probe").${field}: `,
        );
      }
    },
  );

  it("accepts leap days and offsets that are real instants", async () => {
    const payload = {
      statements: [
        {
          statement_id: uniqueId("st"),
          account_id: f.accountId,
          period_end_date: "2024-02-29T12:00:00Z",
        },
        {
          statement_id: uniqueId("st"),
          account_id: f.accountId,
          period_end_date: "2000-02-29T23:59:59.123456789+14:00",
        },
      ],
    };
    expect((await postImport(payload)).status).toBe(200);
    const yearZero = statementWith("period_end_date", "0000-02-29T00:00:00Z");
    const zero = await postImport({
      statements: [{ ...yearZero, statement_id: uniqueId("st"), period_start_date: undefined }],
    });
    expect(zero.status, await zero.clone().text()).toBe(200);
  });

  it("requires period_end_date", async () => {
    const body = await expectInvalid(
      { statements: [statementWith("period_end_date", undefined)] },
      'statements[0] ("st_probe").period_end_date: is required',
    );
    expect(body.error.details).toHaveLength(1);
  });

  it("refuses a period_end_date in the future", async () => {
    const future = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
    await expectInvalid(
      { statements: [statementWith("period_end_date", future)] },
      'statements[0] ("st_probe").period_end_date: is in the future',
    );
  });

  it("refuses a period that starts after it ends", async () => {
    await expectInvalid(
      { statements: [statementWith("period_start_date", "2024-02-01T00:00:00Z")] },
      'statements[0] ("st_probe").period_start_date: must not be after period_end_date',
    );
  });

  it("rejects a currency that is not 3 capital letters", async () => {
    for (const value of ["usd", "US", "USDX", "U$D", "Usd", " USD", "", 840, null]) {
      await expectInvalid(
        { statements: [statementWith("currency", value)] },
        'statements[0] ("st_probe").currency: ',
      );
      await expectInvalid(
        { accounts: [{ account_id: "acc_probe", customer_id: f.customerId, currency: value }] },
        'accounts[0] ("acc_probe").currency: ',
      );
    }
  });

  it("rejects amounts that are not safe integers", async () => {
    const amounts = [12.5, 0.1, "100", 2 ** 53, -(2 ** 53), 1e300, null, true, [], {}];
    for (const value of amounts) {
      await expectInvalid(
        { statements: [statementWith("statement_balance", value)] },
        'statements[0] ("st_probe").statement_balance: ',
      );
      await expectInvalid(
        { accounts: [{ account_id: "acc_probe", customer_id: f.customerId, credit_limit: value }] },
        'accounts[0] ("acc_probe").credit_limit: ',
      );
    }
    // 1e400 is valid JSON that parses to Infinity.
    const statement = JSON.stringify(statementWith("fees", 1)).replace('"fees":1', '"fees":1e400');
    const huge = `{"statements":[${statement}]}`;
    await expectInvalid(huge, 'statements[0] ("st_probe").fees: ');
  });

  it("accepts the largest safe integers", async () => {
    const payload = {
      accounts: [
        {
          account_id: f.accountId,
          customer_id: f.customerId,
          credit_limit: Number.MAX_SAFE_INTEGER,
          current_balance: Number.MIN_SAFE_INTEGER,
        },
      ],
    };
    expect((await postImport(payload)).status).toBe(200);
  });

  it.each([
    ["purchases", -1],
    ["interest", -1],
    ["fees", -1],
    ["payments", 1],
    ["credits", 1],
    ["refunds", 1],
    ["minimum_due", -1],
    ["overdue_amount", -1],
  ])("rejects %s = %d as a breach of the sign convention", async (field, value) => {
    await expectInvalid(
      { statements: [statementWith(field, value)] },
      `statements[0] ("st_probe").${field}: must not be`,
    );
  });

  it("accepts zero in every signed field and a negative statement balance", async () => {
    const zeros = Object.fromEntries(
      ["purchases", "interest", "fees", "payments", "credits", "refunds"].map((k) => [k, 0]),
    );
    const statement = {
      statement_id: uniqueId("st"),
      account_id: f.accountId,
      period_end_date: "2023-01-31T23:59:59Z",
      statement_balance: -500,
      previous_balance: -200,
      ...zeros,
    };
    expect((await postImport({ statements: [statement] })).status).toBe(200);
  });

  it("rejects unknown parent ids, naming the item and field", async () => {
    const ghost = uniqueId("ghost");
    await expectInvalid(
      {
        customers: [
          {
            customer_id: "cus_probe",
            partner_id: ghost,
            environment: "sandbox",
            merchant_key: f.merchantKey,
          },
        ],
      },
      'customers[0] ("cus_probe").partner_id: unknown partner',
    );
    await expectInvalid(
      {
        customers: [
          {
            customer_id: "cus_probe",
            partner_id: f.partnerId,
            environment: "sandbox",
            merchant_key: ghost,
          },
        ],
      },
      `customers[0] ("cus_probe").merchant_key: not a product of partner "${f.partnerId}"`,
    );
    const other = await seedAccount();
    await expectInvalid(
      {
        customers: [
          {
            customer_id: "cus_probe",
            partner_id: f.partnerId,
            environment: "sandbox",
            merchant_key: other.merchantKey,
          },
        ],
      },
      `customers[0] ("cus_probe").merchant_key: not a product of partner "${f.partnerId}"`,
    );
    await expectInvalid(
      { accounts: [{ account_id: "acc_probe", customer_id: ghost }] },
      'accounts[0] ("acc_probe").customer_id: unknown customer',
    );
    await expectInvalid(
      { statements: [{ ...statementWith("account_id", ghost) }] },
      'statements[0] ("st_probe").account_id: unknown account',
    );
  });

  it("reports every unknown parent of a payload, not just the first", async () => {
    const body = await expectInvalid(
      {
        accounts: [
          { account_id: "acc_a", customer_id: "ghost_a" },
          { account_id: "acc_b", customer_id: "ghost_b" },
        ],
        statements: [statementWith("account_id", "ghost_c")],
      },
      'accounts[0] ("acc_a").customer_id',
      'accounts[1] ("acc_b").customer_id',
      'statements[0] ("st_probe").account_id',
    );
    expect(body.error.details).toHaveLength(3);
  });

  it("rejects an unknown environment", async () => {
    for (const environment of ["staging", "Sandbox", "live", "", null]) {
      await expectInvalid(
        {
          customers: [
            {
              customer_id: "cus_probe",
              partner_id: f.partnerId,
              environment,
              merchant_key: f.merchantKey,
            },
          ],
        },
        'customers[0] ("cus_probe").environment: ',
      );
    }
  });

  it("rejects unknown fields at every level", async () => {
    await expectInvalid({ products: [] }, 'body: unknown field(s) "products"');
    await expectInvalid(
      { partners: [{ ...newPartner("p_probe"), region: "eu" }] },
      'partners[0] ("p_probe"): unknown field(s) "region"',
    );
    await expectInvalid(
      {
        partners: [
          { ...newPartner("p_probe"), products: [{ merchant_key: "m", name: "n", x: 1 }] },
        ],
      },
      'partners[0] ("p_probe").products[0]: unknown field(s) "x"',
    );
    await expectInvalid(
      {
        customers: [
          {
            customer_id: "cus_probe",
            partner_id: f.partnerId,
            environment: "sandbox",
            merchant_key: f.merchantKey,
            email: "a@b.c",
          },
        ],
      },
      'customers[0] ("cus_probe"): unknown field(s) "email"',
    );
    await expectInvalid(
      { accounts: [{ account_id: "acc_probe", customer_id: f.customerId, apr: 20 }] },
      'accounts[0] ("acc_probe"): unknown field(s) "apr"',
    );
    await expectInvalid(
      { statements: [statementWith("pdf_key", "x")] },
      'statements[0] ("st_probe"): unknown field(s) "pdf_key"',
    );
    await expectInvalid(
      { statements: [statementWith("hidden_at", "2024-01-01T00:00:00Z")] },
      'statements[0] ("st_probe"): unknown field(s) "hidden_at"',
    );
  });

  it("rejects duplicate ids within a payload, naming both items", async () => {
    const statement = monthlyStatement(f.accountId, 1, "st_twice");
    await expectInvalid(
      { statements: [monthlyStatement(f.accountId, 2), statement, statement] },
      'statements[2] ("st_twice").statement_id: repeats statements[1]',
    );
    await expectInvalid(
      {
        accounts: [
          { account_id: "acc_twice", customer_id: f.customerId },
          { account_id: "acc_twice", customer_id: f.customerId },
        ],
      },
      'accounts[1] ("acc_twice").account_id: repeats accounts[0]',
    );
    const partner = newPartner("p_twice");
    await expectInvalid(
      { partners: [partner, partner] },
      'partners[1] ("p_twice").partner_id: repeats partners[0]',
    );
    await expectInvalid(
      {
        partners: [
          newPartner("p_one", "mk_twice"),
          { partner_id: "p_two", name: "Two", products: [{ merchant_key: "mk_twice", name: "x" }] },
        ],
      },
      'partners[1] ("p_two").products[0].merchant_key: repeats partners[0].products[0]',
    );
    const customer = {
      customer_id: "cus_twice",
      partner_id: f.partnerId,
      environment: "sandbox",
      merchant_key: f.merchantKey,
    };
    await expectInvalid(
      { customers: [customer, customer] },
      'customers[1] ("cus_twice").customer_id: repeats customers[0]',
    );
  });

  it("rejects saved_versions that the environment does not offer", async () => {
    await expectInvalid(
      { partners: [{ ...newPartner("p_probe"), saved_versions: { production: SANDBOX_ONLY } }] },
      'partners[0] ("p_probe").saved_versions.production: ',
    );
    for (const version of ["1999-12-31", "", ` ${SANDBOX_ONLY}`, 1]) {
      await expectInvalid(
        { partners: [{ ...newPartner("p_probe"), saved_versions: { sandbox: version } }] },
        'partners[0] ("p_probe").saved_versions.sandbox: ',
      );
    }
    await expectInvalid(
      { partners: [{ ...newPartner("p_probe"), saved_versions: { staging: OLDEST } }] },
      'partners[0] ("p_probe").saved_versions: unknown field(s) "staging"',
    );
  });

  it("answers 400 for invalid JSON and for a body that is not an object", async () => {
    const headers = { "content-type": "application/json" };
    for (const raw of ["", "{", '{"partners": [}', "nul", "\u0000", "{}{}"]) {
      const res = await operator("POST", "/import", raw, headers);
      const body = await expectJson<ErrorBody>(res, 400);
      expect(body.error.type, JSON.stringify(raw)).toBe("INVALID_REQUEST_ERROR");
    }
    for (const value of [[], "text", 42, null, true]) {
      await expectInvalid(JSON.stringify(value), "body: ");
    }
    for (const section of ["partners", "customers", "accounts", "statements"]) {
      for (const value of [{}, "x", 1, null, [null], [1], [[]]]) {
        const body = await expectInvalid({ [section]: value }, section);
        expect(body.error.details?.[0]?.startsWith(section)).toBe(true);
      }
    }
  });

  it("rejects ids that are empty, too long or hold spaces", async () => {
    for (const id of ["", " ", "a b", "x".repeat(256), "tab\there", 7, null]) {
      await expectInvalid(
        { statements: [statementWith("statement_id", id)] },
        "statements[0]",
        "statement_id: ",
      );
    }
  });

  it("answers 4xx, never 5xx, for any odd value in any field", async () => {
    const odd: unknown[] = [null, true, 0, -1, 1.5, "", "x".repeat(300), [], {}, [{}], "\u0000"];
    const base: Record<string, Record<string, unknown>[]> = {
      partners: [newPartner("p_odd")],
      customers: [
        {
          customer_id: "cus_odd",
          partner_id: "p_odd",
          environment: "sandbox",
          merchant_key: "mk_odd",
        },
      ],
      accounts: [{ account_id: "acc_odd", customer_id: "cus_odd", status: "OPEN" }],
      statements: [{ ...monthlyStatement("acc_odd", 1) }],
    };
    for (const [section, items] of Object.entries(base)) {
      for (const field of Object.keys(items[0] ?? {})) {
        for (const value of odd) {
          const item = { ...items[0], [field]: value };
          const res = await postImport({ ...base, [section]: [item] });
          expect(res.status, `${section}.${field} = ${JSON.stringify(value)}`).toBeLessThan(500);
          expect(res.status, `${section}.${field} = ${JSON.stringify(value)}`).not.toBe(200);
          await res.body?.cancel();
        }
      }
    }
  });

  it("refuses more than 5000 products in one payload", async () => {
    const partners = Array.from({ length: 51 }, (_, i) => ({
      partner_id: `p_many_${i}`,
      name: "Many",
      products: Array.from({ length: 100 }, (_, j) => ({
        merchant_key: `mk_${i}_${j}`,
        name: "C",
      })),
    }));
    await expectInvalid({ partners }, "partners: list at most 5000 products in all (5100 sent)");
  });

  it("reports at most 50 problems for a payload full of them", async () => {
    const statements = Array.from({ length: 120 }, (_, i) => ({
      ...monthlyStatement(f.accountId, 1, `st_bad_${i}`),
      purchases: -1,
    }));
    const body = await expectInvalid({ statements }, 'statements[0] ("st_bad_0").purchases');
    expect(body.error.details).toHaveLength(50);
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

describe("concurrent imports", () => {
  /** Sends two imports at once; returns them as [winner, loser] after checking 200 and 409. */
  async function race<T>(first: T, second: T, payload: (side: T) => unknown): Promise<[T, T]> {
    const [a, b] = await Promise.all([postImport(payload(first)), postImport(payload(second))]);
    const statuses = [a.status, b.status];
    const loser = a.status === 200 ? b : a;
    expect(statuses.sort(), await loser.clone().text()).toEqual([200, 409]);
    expect(((await loser.json()) as ErrorBody).error.type).toBe("CONFLICT_ERROR");
    return a.status === 200 ? [first, second] : [second, first];
  }

  it("keeps the figures of the one import that stored a new statement first", async () => {
    const f = await seedAccount();
    for (let round = 0; round < 3; round++) {
      const id = uniqueId("st");
      const [winner] = await race(1, 2, (purchases) => ({
        statements: [{ ...monthlyStatement(f.accountId, 1, id), purchases }],
      }));
      const list = await listStatements(f);
      expect(list.data.find((s) => s.statement_id === id)?.purchases).toBe(winner);
    }
  });

  it("gives a new customer to exactly one of two partners claiming it at once", async () => {
    const parties = [await seedAccount(), await seedAccount()] as const;
    for (let round = 0; round < 3; round++) {
      const customerId = uniqueId("cus");
      const [winner, loser] = await race(parties[0], parties[1], (p) => ({
        customers: [
          {
            customer_id: customerId,
            partner_id: p.partnerId,
            environment: "sandbox",
            merchant_key: p.merchantKey,
          },
        ],
        accounts: [{ account_id: `${customerId}_${p.partnerId}`, customer_id: customerId }],
      }));
      const accounts = await expectJson<{ data: { account_id: string }[] }>(
        await api(`/v2/customers/${customerId}/accounts`, { key: winner.key }),
        200,
      );
      expect(accounts.data.map((a) => a.account_id)).toEqual([`${customerId}_${winner.partnerId}`]);
      const hidden = await api(`/v2/customers/${customerId}/accounts`, { key: loser.key });
      expect(hidden.status).toBe(404);
    }
  });

  it("places a new account under exactly one of two customers at once", async () => {
    const parties = [await seedAccount(), await seedAccount()] as const;
    for (let round = 0; round < 3; round++) {
      const accountId = uniqueId("acc");
      const [winner, loser] = await race(parties[0], parties[1], (p) => ({
        accounts: [{ account_id: accountId, customer_id: p.customerId, status: p.partnerId }],
      }));
      const path = (p: Fixture) => `/v2/customers/${p.customerId}/accounts/${accountId}`;
      const account = await expectJson(await api(path(winner), { key: winner.key }), 200);
      expect(account.status).toBe(winner.partnerId);
      expect((await api(path(loser), { key: loser.key })).status).toBe(404);
    }
  });

  it("gives a new merchant key to exactly one of two partners at once", async () => {
    const parties = [await seedAccount(), await seedAccount()] as const;
    const merchantKey = uniqueId("mk");
    const [winner, loser] = await race(parties[0], parties[1], (p) => ({
      partners: [
        {
          partner_id: p.partnerId,
          name: "P",
          products: [{ merchant_key: merchantKey, name: "C" }],
        },
      ],
    }));
    const chosen = await api(`/v2/customers/${winner.customerId}`, {
      key: winner.key,
      merchantKey: winner.merchantKey,
    });
    expect(chosen.status).toBe(200);
    // The loser still has a single product, so it needs no header at all.
    expect((await api(`/v2/customers/${loser.customerId}`, { key: loser.key })).status).toBe(200);
    const foreign = await api(`/v2/customers/${loser.customerId}`, { key: loser.key, merchantKey });
    expect(foreign.status).toBe(400);
  });
});
