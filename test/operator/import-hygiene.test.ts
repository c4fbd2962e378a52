// Import hygiene: ids come from a character set every route can address, and each validation
// message names the item and what is actually wrong with the value sent.
import { describe, expect, it } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { createKey, importData, pdfBytes, uniqueId } from "../support/fixtures";
import { request } from "../support/worker";

interface ErrorBody {
  error: { type: string; message: string; details: string[] };
}

async function detailsOf(payload: unknown): Promise<string[]> {
  const body = await expectJson<ErrorBody>(await operator("POST", "/import", payload), 400);
  expect(body.error.type).toBe("INVALID_REQUEST_ERROR");
  return body.error.details;
}

const statement = (fields: Record<string, unknown>) => ({
  statement_id: "st_probe",
  account_id: "acc_probe",
  period_end_date: "2024-01-31T23:59:59Z",
  ...fields,
});

describe("ids", () => {
  it("refuses ids no route could address, naming the item", async () => {
    const bad = [".", "..", "a/b", "a b", "a\u0000b", "a\nb", "%2e%2e", "a?b", "a#b", "é", "-a"];
    for (const id of [...bad, "", "x".repeat(129)]) {
      const details = await detailsOf({ statements: [statement({ statement_id: id })] });
      expect(details[0], JSON.stringify(id)).toMatch(
        /^statements\[0\].*\.statement_id: must be 1 to 128 letters, digits, '_', '-' or '\.', starting with a letter or digit, not a string/,
      );
    }
  });

  it("serves every route for ids at the edge of the character set", async () => {
    const tag = uniqueId("x");
    const partnerId = `P.${tag}-_`;
    const merchantKey = `MK-${tag}.9`;
    const customerId = `C${tag}`.padEnd(128, "c");
    const accountId = `A.${tag}.b-c_d`;
    const statementId = `9.${tag}`;
    await importData({
      partners: [
        {
          partner_id: partnerId,
          name: "Edge",
          products: [{ merchant_key: merchantKey, name: "Card", documents: "uploaded" }],
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
      accounts: [{ account_id: accountId, customer_id: customerId }],
      statements: [{ ...statement({ statement_id: statementId, account_id: accountId }) }],
    });
    const upload = await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes(), {
      "content-type": "application/pdf",
    });
    expect(upload.status).toBe(204);
    const { apiKey } = await createKey(partnerId, "sandbox", ["ACCOUNT_READ"]);
    const key = { key: apiKey, merchantKey };
    expect((await api(`/v2/customers/${customerId}`, key)).status).toBe(200);
    expect((await api(`/v2/customers/${customerId}/accounts/${accountId}`, key)).status).toBe(200);
    const page = await expectJson<{ data: { statement_id: string; pdf_url: string }[] }>(
      await api(`/v2/customers/${customerId}/accounts/${accountId}/statements`, key),
      200,
    );
    expect(page.data[0]?.statement_id).toBe(statementId);
    const link = String(page.data[0]?.pdf_url).replace("http://api.test", "");
    expect((await request(link)).status).toBe(200);
    expect((await operator("POST", `/statements/${statementId}/hide`)).status).toBe(204);
  });
});

describe("validation messages", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["statement_balance", { statement_balance: "100" }, 'must be an integer, not a string ("100")'],
    ["statement_balance", { statement_balance: 12.5 }, "must be an integer, not a fraction (12.5)"],
    ["statement_balance", { statement_balance: null }, "must be an integer, not null"],
    ["statement_balance", { statement_balance: true }, "must be an integer, not a boolean (true)"],
    [
      "statement_balance",
      { statement_balance: 2 ** 53 },
      "is out of range: at most 9007199254740991",
    ],
    ["purchases", { purchases: [] }, "must be an integer, not an array"],
    ["statement_id", { statement_id: 5 }, "must be a string, not a number (5)"],
    ["period_end_date", { period_end_date: 5 }, "must be a string, not a number (5)"],
    ["currency", { currency: "usd" }, 'must be 3 capital letters (ISO 4217), not a string ("usd")'],
  ];
  for (const [field, fields, message] of cases) {
    it(`says "${message}" for ${JSON.stringify(fields)}`, async () => {
      const details = await detailsOf({ statements: [statement(fields)] });
      const withId = typeof fields.statement_id === "number" ? "" : ' ("st_probe")';
      expect(details).toContain(`statements[0]${withId}.${field}: ${message}`);
    });
  }

  it("never says a present value of the wrong type is required", async () => {
    for (const value of [0, "", null, false, [], {}]) {
      const details = await detailsOf({ statements: [statement({ period_end_date: value })] });
      for (const detail of details) expect(detail).not.toContain("is required");
    }
  });

  it("says is required only for an absent field", async () => {
    const { period_end_date: _, ...missing } = statement({});
    expect(await detailsOf({ statements: [missing] })).toEqual([
      'statements[0] ("st_probe").period_end_date: is required',
    ]);
  });

  it("names the allowed values of an enum and the section of the wrong shape", async () => {
    const customer = {
      customer_id: "cus_probe",
      partner_id: "p",
      environment: "moon",
      merchant_key: "mk",
    };
    expect(await detailsOf({ customers: [customer] })).toContain(
      'customers[0] ("cus_probe").environment: must be one of "sandbox", "production", not a string ("moon")',
    );
    expect(await detailsOf({ statements: {} })).toEqual([
      "statements: must be an array, not an object",
    ]);
    expect(await detailsOf({ statements: ["x"] })).toEqual([
      'statements[0]: must be an object, not a string ("x")',
    ]);
  });

  it("names the problem in the operator's other bodies too", async () => {
    const res = await operator("POST", "/partners/nobody/keys", {
      environment: "sandbox",
      scopes: "ACCOUNT_READ",
    });
    const body = await expectJson<ErrorBody>(res, 400);
    expect(body.error.details).toEqual(['scopes: must be an array, not a string ("ACCOUNT_READ")']);
  });
});
