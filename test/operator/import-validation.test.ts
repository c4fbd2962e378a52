import { beforeAll, describe, expect, it } from "vitest";
import { type ErrorBody, expectJson, operator } from "../support/api";
import { OLDEST, SANDBOX_ONLY } from "../support/bundle-versions";
import { type Fixture, monthlyStatement, seedAccount, uniqueId } from "../support/fixtures";
import { expectInvalid, newPartner, postImport } from "../support/imports";

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
