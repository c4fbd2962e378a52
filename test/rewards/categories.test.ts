// A product's rewards categories: set by the operator import and by PATCH /operator/v1/products,
// every bad change refused naming the category and field with nothing changed, audited, and read
// by GET …/accounts/{account_id}/rewards_categories in every version, in one D1 round trip.
import { describe, expect, it } from "vitest";
import { api, type ErrorBody, expectJson, operator } from "../support/api";
import { ALL_VERSIONS, versionsWith } from "../support/bundle-versions";
import { importData, newAccountImport, seedAccount, uniqueId } from "../support/fixtures";
import { expectInvalid } from "../support/imports";
import { withRequestLog } from "../support/request-log";

const DINING = {
  category_id: "dining",
  name: "Dining",
  merchant_category_codes: ["5812", "5814"],
  earn_rate: "3",
  earn_unit: "POINTS_PER_DOLLAR" as const,
};
const GROCERIES = {
  category_id: "groceries",
  name: "Groceries",
  merchant_category_codes: ["5411"],
  earn_rate: "2.5",
  earn_unit: "POINTS_PER_DOLLAR" as const,
};
const EVERYTHING = {
  category_id: "everything",
  name: "Everything else",
  merchant_category_codes: [],
  earn_rate: "1",
  earn_unit: "POINTS_PER_DOLLAR" as const,
};
const CATEGORIES = [DINING, GROCERIES, EVERYTHING];

const categoriesPath = (f: { customerId: string; accountId: string }) =>
  `/v2/customers/${f.customerId}/accounts/${f.accountId}/rewards_categories`;

interface CategoryList {
  data: Record<string, unknown>[];
  has_more: boolean;
}

function change(merchantKey: string, body: unknown) {
  return operator("PATCH", `/products/${merchantKey}`, body);
}

async function productOf(partnerId: string): Promise<Record<string, unknown>> {
  const res = await operator("GET", `/partners/${partnerId}/products`);
  const [product] = (await expectJson<{ data: Record<string, unknown>[] }>(res, 200)).data;
  if (!product) throw new Error("the partner has no product");
  return product;
}

async function served(f: { key: string; customerId: string; accountId: string }) {
  return expectJson<CategoryList>(await api(categoriesPath(f), { key: f.key }), 200);
}

describe("GET /v2/customers/{customer_id}/accounts/{account_id}/rewards_categories", () => {
  it.each(ALL_VERSIONS)("answers the product's categories in its order in %s", async (version) => {
    const f = await seedAccount();
    await expectJson(await change(f.merchantKey, { rewards_categories: CATEGORIES }), 200);
    const res = await api(categoriesPath(f), { key: f.key, version });
    expect(res.headers.get("x-service-version")).toBe(version);
    expect(await expectJson(res, 200)).toEqual({ data: CATEGORIES, has_more: false });
  });

  it("answers an empty list for a product without categories", async () => {
    const f = await seedAccount();
    expect(await served(f)).toEqual({ data: [], has_more: false });
  });

  it("answers the categories the import set on the product", async () => {
    const { ids, payload } = newAccountImport();
    const [partner] = payload.partners ?? [];
    const [product] = partner?.products ?? [];
    if (!partner || !product) throw new Error("the fixture has no product");
    product.rewards_categories = [GROCERIES, DINING];
    await importData(payload);
    const res = await operator("POST", `/partners/${ids.partnerId}/keys`, {
      environment: "sandbox",
      scopes: ["ACCOUNT_READ"],
    });
    const key = (await expectJson<{ api_key: string }>(res, 201)).api_key;
    expect((await served({ ...ids, key })).data).toEqual([GROCERIES, DINING]);

    // A re-import without the list keeps it; one with a list replaces it.
    await importData({ partners: [{ ...partner, products: [{ ...product }] }] });
    delete product.rewards_categories;
    await importData(payload);
    expect((await served({ ...ids, key })).data).toEqual([GROCERIES, DINING]);
    product.rewards_categories = [EVERYTHING];
    await importData({ partners: payload.partners });
    expect((await served({ ...ids, key })).data).toEqual([EVERYTHING]);
  });

  it.each(
    ALL_VERSIONS.map((v) => [
      v,
      versionsWith("useApiErrorEnvelopeForAllErrors").includes(v) ? "envelope" : "flat",
    ]),
  )("answers the customer and account 404s in %s (%s)", async (version, shape) => {
    const f = await seedAccount();
    const other = await seedAccount();
    const customer = {
      type: "CUSTOMER_NOT_FOUND_ERROR",
      message: expect.any(String),
      param: "customer_id",
    };
    const account = {
      type: "ACCOUNT_NOT_FOUND_ERROR",
      message: expect.any(String),
      param: "account_id",
    };
    const wrap = (body: object) => (shape === "flat" ? body : { error: body });
    const call = (path: string) => api(path, { key: f.key, version });
    const unknownCustomer = { customerId: "cus_never", accountId: f.accountId };
    expect(await expectJson(await call(categoriesPath(unknownCustomer)), 404)).toEqual(
      wrap(customer),
    );
    // Another partner's customer is unknown here, as on the statements route.
    expect(await expectJson(await call(categoriesPath(other)), 404)).toEqual(wrap(customer));
    const unknownAccount = { customerId: f.customerId, accountId: "acc_never" };
    expect(await expectJson(await call(categoriesPath(unknownAccount)), 404)).toEqual(
      wrap(account),
    );
    // An account of another customer is not this customer's.
    const otherAccount = { customerId: f.customerId, accountId: other.accountId };
    expect(await expectJson(await call(categoriesPath(otherAccount)), 404)).toEqual(wrap(account));
    // The statements route answers exactly the same.
    const statements = `/v2/customers/${f.customerId}/accounts/acc_never/statements`;
    expect(await expectJson(await call(statements), 404)).toEqual(wrap(account));
  });

  it("costs one D1 round trip, the key lookup's own", async () => {
    const f = await seedAccount();
    await expectJson(await change(f.merchantKey, { rewards_categories: CATEGORIES }), 200);
    const { res, log } = await withRequestLog(() => api(categoriesPath(f), { key: f.key }));
    expect(res.status).toBe(200);
    // The account's owner and its product's categories ride in the key lookup's statement.
    expect(log.d1_queries).toBe(1);
    const missing = await withRequestLog(() =>
      api(categoriesPath({ customerId: f.customerId, accountId: "acc_never" }), { key: f.key }),
    );
    // A refusal reads once more, whether the customer exists, to name the customer or the account.
    expect(missing.res.status).toBe(404);
    expect(missing.log.d1_queries).toBe(2);
  });
});

describe("PATCH /operator/v1/products/{merchant_key} with rewards_categories", () => {
  it("replaces the list, answers it, and audits the change", async () => {
    const f = await seedAccount();
    const set = await expectJson(
      await change(f.merchantKey, { rewards_categories: CATEGORIES }),
      200,
    );
    expect(set).toMatchObject({ rewards_categories: CATEGORIES });
    expect((await productOf(f.partnerId)).rewards_categories).toEqual(CATEGORIES);
    // The same list again changes nothing and is not audited again.
    await expectJson(await change(f.merchantKey, { rewards_categories: CATEGORIES }), 200);
    const emptied = await expectJson(await change(f.merchantKey, { rewards_categories: [] }), 200);
    expect(emptied).toMatchObject({ rewards_categories: [] });
    expect(await served(f)).toEqual({ data: [], has_more: false });

    const res = await operator("GET", `/partners/${f.partnerId}/audit?limit=3`);
    const entries = (
      await expectJson<{ data: { action: string; target: string; details: unknown }[] }>(res, 200)
    ).data.filter((e) => e.action === "product.rewards_categories_changed");
    expect(entries.map((e) => [e.target, e.details])).toEqual([
      [f.merchantKey, { from: ["dining", "groceries", "everything"], to: [] }],
      [f.merchantKey, { from: [], to: ["dining", "groceries", "everything"] }],
    ]);
  });

  const many = Array.from({ length: 51 }, (_, i) => ({
    ...EVERYTHING,
    category_id: `c${i}`,
    merchant_category_codes: [String(1000 + i)],
  }));
  it.each([
    [
      "a repeated category id",
      [DINING, { ...GROCERIES, category_id: "dining" }],
      'rewards_categories[1] ("dining").category_id: repeats [0]',
    ],
    [
      "an empty name",
      [{ ...DINING, name: "" }],
      'rewards_categories[0] ("dining").name: must not be empty',
    ],
    [
      "a name over 60 characters",
      [{ ...DINING, name: "D".repeat(61) }],
      'rewards_categories[0] ("dining").name: must be at most 60 characters long',
    ],
    [
      "a code that is not four digits",
      [{ ...DINING, merchant_category_codes: ["581"] }],
      'rewards_categories[0] ("dining").merchant_category_codes[0]: must be a 4-digit',
    ],
    [
      "a code in two categories",
      [DINING, { ...GROCERIES, merchant_category_codes: ["5411", "5812"] }],
      'rewards_categories[1] ("groceries").merchant_category_codes[1]: 5812 is already in ' +
        'category "dining"',
    ],
    [
      "a rate of zero",
      [{ ...DINING, earn_rate: "0" }],
      'rewards_categories[0] ("dining").earn_rate: must be more than 0',
    ],
    [
      "a rate with three decimals",
      [{ ...DINING, earn_rate: "1.125" }],
      'rewards_categories[0] ("dining").earn_rate: must be a decimal string',
    ],
    [
      "a rate that is a number",
      [{ ...DINING, earn_rate: 3 }],
      'rewards_categories[0] ("dining").earn_rate: must be a string',
    ],
    [
      "an unknown unit",
      [{ ...DINING, earn_unit: "MILES" }],
      'rewards_categories[0] ("dining").earn_unit:',
    ],
    [
      "categories in two units",
      [DINING, { ...GROCERIES, earn_rate: "2", earn_unit: "PERCENT_CASH_BACK" }],
      'rewards_categories[1] ("groceries").earn_unit: must be POINTS_PER_DOLLAR',
    ],
    ["an unknown field", [{ ...DINING, multiplier: 2 }], 'rewards_categories[0] ("dining")'],
    ["more than 50 categories", many, "rewards_categories: must hold at most 50 items"],
  ])("refuses %s, naming it, and changes nothing", async (_what, categories, fragment) => {
    const f = await seedAccount();
    await expectJson(await change(f.merchantKey, { rewards_categories: [EVERYTHING] }), 200);
    const before = await productOf(f.partnerId);
    const res = await change(f.merchantKey, {
      rewards_categories: categories,
      display_name: "Changed too",
    });
    const body = await expectJson<ErrorBody>(res, 400);
    expect(body.error.type).toBe("INVALID_REQUEST_ERROR");
    expect(body.error.details).toEqual(expect.arrayContaining([expect.stringContaining(fragment)]));
    expect(await productOf(f.partnerId)).toEqual(before);
    expect((await served(f)).data).toEqual([EVERYTHING]);
  });

  it("answers 404 for a product no partner has", async () => {
    const res = await change(uniqueId("mk"), { rewards_categories: CATEGORIES });
    expect((await expectJson<ErrorBody>(res, 404)).error.type).toBe("NOT_FOUND_ERROR");
  });
});

describe("the import's rewards_categories", () => {
  it("refuses a bad list naming the product's category and field, and stores nothing", async () => {
    const { ids, payload } = newAccountImport();
    const [partner] = payload.partners ?? [];
    const [product] = partner?.products ?? [];
    if (!product) throw new Error("the fixture has no product");
    product.rewards_categories = [DINING, { ...GROCERIES, earn_rate: "-1" }];
    await expectInvalid(
      payload,
      'products[0].rewards_categories[1] ("groceries").earn_rate: must be a decimal string',
    );
    const res = await operator("GET", `/partners/${ids.partnerId}/products`);
    expect(res.status).toBe(404);
  });
});
