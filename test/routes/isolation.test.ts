// Isolation across partners, environments and products: data outside the caller's reach answers
// exactly as if it had never existed, and the merchant-key header rules pick the product.
import { beforeAll, describe, expect, it } from "vitest";
import { api, expectJson } from "../support/api";
import { ALL_VERSIONS, OLDEST, RELEASED_VERSIONS } from "../support/bundle-versions";
import {
  createKey,
  importData,
  monthlyStatement,
  seedAccount,
  uniqueId,
} from "../support/fixtures";

type Environment = "sandbox" | "production";

/** Who reads: a key, the product header it sends (if any) and one customer it does own. */
interface Reader {
  key: string;
  merchantKey?: string;
  ownCustomerId: string;
}

/** Data placed out of a reader's reach. */
interface Target {
  customerId: string;
  accountId: string;
}

/** One response as a client sees it: status, the headers that matter, the raw body. */
async function snapshot(res: Response): Promise<string> {
  const text = await res.text();
  const version = res.headers.get("x-service-version");
  return `${res.status} ${res.headers.get("content-type")} ${version}\n${text}`;
}

/** Every partner route that could reveal `target` to `reader`, in `version`. */
async function readEverything(reader: Reader, target: Target, version: string): Promise<string[]> {
  const options = { key: reader.key, merchantKey: reader.merchantKey, version };
  const { customerId, accountId } = target;
  const own = reader.ownCustomerId;
  const paths = [
    `/v2/customers/${customerId}`,
    `/v2/customers/${customerId}/accounts`,
    `/v2/customers/${customerId}/accounts/${accountId}`,
    `/v2/customers/${customerId}/accounts/${accountId}/statements`,
    `/v2/customers/${customerId}/accounts/${accountId}/statements?limit=1`,
    `/v2/customers/${own}/accounts/${accountId}`,
    `/v2/customers/${own}/accounts/${accountId}/statements`,
  ];
  const out: string[] = [];
  for (const path of paths) out.push(await snapshot(await api(path, options)));
  const link = await api(`/v2/customers/${customerId}/link`, {
    ...options,
    method: "POST",
    body: { partner_customer_id: "hijack" },
  });
  out.push(await snapshot(link));
  // Lists answer with as_of-free pages: the ids seen must not change either.
  const list = await expectJson<{ data: { customer_id: string }[] }>(
    await api("/v2/customers?limit=100", options),
    200,
  );
  out.push(list.data.map((c) => c.customer_id).join(","));
  const accounts = await expectJson<{ data: { account_id: string }[] }>(
    await api(`/v2/customers/${own}/accounts?limit=100`, options),
    200,
  );
  out.push(accounts.data.map((a) => a.account_id).join(","));
  return out;
}

/**
 * Reads `target` before it exists and again after `place` imports it: every answer must be the
 * same bytes, so nothing tells the reader the data is there.
 */
async function expectUnseen(
  reader: Reader,
  versions: readonly string[],
  place: (target: Target) => Promise<void>,
): Promise<Target> {
  const target = { customerId: uniqueId("cus"), accountId: uniqueId("acc") };
  const before = new Map<string, string[]>();
  for (const version of versions)
    before.set(version, await readEverything(reader, target, version));
  for (const [, answers] of before) {
    for (const answer of answers.slice(0, 8)) expect(answer).toMatch(/^404 /);
  }
  await place(target);
  for (const version of versions) {
    expect(await readEverything(reader, target, version), version).toEqual(before.get(version));
  }
  return target;
}

/** Imports a customer with one account holding three statements (one with nothing but dates). */
async function placeCustomer(
  target: Target,
  owner: { partnerId: string; merchantKey: string },
  environment: Environment,
): Promise<void> {
  await importData({
    customers: [
      {
        customer_id: target.customerId,
        partner_id: owner.partnerId,
        environment,
        merchant_key: owner.merchantKey,
      },
    ],
    accounts: [{ account_id: target.accountId, customer_id: target.customerId, status: "OPEN" }],
    statements: [1, 2, 3].map((m) => monthlyStatement(target.accountId, m)),
  });
}

/** The owner still sees the data, untouched by the reader's attempts. */
async function expectOwnerSees(
  owner: { key: string; merchantKey?: string },
  target: Target,
): Promise<void> {
  const options = { key: owner.key, merchantKey: owner.merchantKey };
  const customer = await api(`/v2/customers/${target.customerId}`, options);
  expect(await expectJson(customer, 200)).toEqual({ customer_id: target.customerId });
  const list = await expectJson<{ data: unknown[] }>(
    await api(
      `/v2/customers/${target.customerId}/accounts/${target.accountId}/statements`,
      options,
    ),
    200,
  );
  expect(list.data).toHaveLength(3);
}

describe("cross-partner isolation", () => {
  it("hides partner B's customers, accounts and statements from partner A", async () => {
    const a = await seedAccount({ statements: 1 });
    const b = await seedAccount({ statements: 1 });
    const reader = { key: a.key, ownCustomerId: a.customerId };
    const target = await expectUnseen(reader, ALL_VERSIONS, (t) => placeCustomer(t, b, "sandbox"));
    await expectOwnerSees(b, target);
  });
});

describe("cross-environment isolation", () => {
  it("hides production data from a sandbox key", async () => {
    const f = await seedAccount({ statements: 1 });
    const reader = { key: f.key, ownCustomerId: f.customerId };
    const target = await expectUnseen(reader, ALL_VERSIONS, (t) =>
      placeCustomer(t, f, "production"),
    );
    const live = await createKey(f.partnerId, "production", ["ACCOUNT_READ"]);
    await expectOwnerSees({ key: live.apiKey }, target);
  });

  it("hides sandbox data from a production key", async () => {
    const f = await seedAccount({ statements: 1 });
    const live = await createKey(f.partnerId, "production", ["ACCOUNT_READ"]);
    const liveCustomer = uniqueId("cus");
    await importData({
      customers: [
        {
          customer_id: liveCustomer,
          partner_id: f.partnerId,
          environment: "production",
          merchant_key: f.merchantKey,
        },
      ],
    });
    const reader = { key: live.apiKey, ownCustomerId: liveCustomer };
    const target = await expectUnseen(reader, RELEASED_VERSIONS, (t) =>
      placeCustomer(t, f, "sandbox"),
    );
    await expectOwnerSees({ key: f.key }, target);
  });
});

describe("cross-product isolation", () => {
  let partnerId: string;
  let gold: string;
  let classic: string;
  let key: string;
  let classicCustomer: string;
  let goldCustomer: string;

  beforeAll(async () => {
    partnerId = uniqueId("partner");
    [gold, classic, classicCustomer, goldCustomer] = [
      uniqueId("mk"),
      uniqueId("mk"),
      uniqueId("cus"),
      uniqueId("cus"),
    ];
    await importData({
      partners: [
        {
          partner_id: partnerId,
          name: "Two Cards",
          products: [
            { merchant_key: classic, name: "Classic", documents: "uploaded" },
            { merchant_key: gold, name: "Gold", documents: "uploaded" },
          ],
          saved_versions: { sandbox: OLDEST },
        },
      ],
      customers: [
        {
          customer_id: classicCustomer,
          partner_id: partnerId,
          environment: "sandbox",
          merchant_key: classic,
        },
        {
          customer_id: goldCustomer,
          partner_id: partnerId,
          environment: "sandbox",
          merchant_key: gold,
        },
      ],
    });
    key = (await createKey(partnerId, "sandbox", ["ACCOUNT_READ"])).apiKey;
  });

  it("hides a gold customer from reads that name the classic product", async () => {
    const reader = { key, merchantKey: classic, ownCustomerId: classicCustomer };
    const target = await expectUnseen(reader, ALL_VERSIONS, (t) =>
      placeCustomer(t, { partnerId, merchantKey: gold }, "sandbox"),
    );
    await expectOwnerSees({ key, merchantKey: gold }, target);
  });

  it("hides a classic customer from reads that name the gold product", async () => {
    const reader = { key, merchantKey: gold, ownCustomerId: goldCustomer };
    const target = await expectUnseen(reader, [OLDEST], (t) =>
      placeCustomer(t, { partnerId, merchantKey: classic }, "sandbox"),
    );
    await expectOwnerSees({ key, merchantKey: classic }, target);
  });
});

describe("merchant-key header rules", () => {
  interface ErrorBody {
    error: { type: string; message: string; param?: string };
  }

  it("answers 400 for a header naming another partner's product, like an unknown one", async () => {
    const a = await seedAccount({ statements: 1 });
    const b = await seedAccount();
    const path = `/v2/customers/${a.customerId}/accounts/${a.accountId}/statements`;
    const foreign = await api(path, { key: a.key, merchantKey: b.merchantKey });
    const foreignText = await foreign.text();
    expect(foreign.status).toBe(400);
    const body = JSON.parse(foreignText) as ErrorBody;
    expect(body.error.type).toBe("BAD_REQUEST_ERROR");
    expect(body.error.message).toContain("x-service-merchant-key");
    expect(foreign.headers.get("x-service-version")).toBe(OLDEST);

    const unknown = await api(path, { key: a.key, merchantKey: uniqueId("mk") });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toBe(foreignText);

    for (const route of [
      `/v2/customers/${a.customerId}`,
      `/v2/customers/${a.customerId}/accounts`,
      "/v2/customers",
    ]) {
      const res = await api(route, { key: a.key, merchantKey: b.merchantKey });
      expect((await expectJson<ErrorBody>(res, 400)).error.type, route).toBe("BAD_REQUEST_ERROR");
    }
  });

  it("answers 400 for an empty or padded header", async () => {
    const a = await seedAccount({ statements: 1 });
    const path = `/v2/customers/${a.customerId}/accounts/${a.accountId}/statements`;
    for (const merchantKey of ["", ` ${a.merchantKey}x`, a.merchantKey.toUpperCase()]) {
      const res = await api(path, { key: a.key, merchantKey });
      expect((await expectJson<ErrorBody>(res, 400)).error.type).toBe("BAD_REQUEST_ERROR");
    }
  });

  it("answers 400 without the header when the partner has two products", async () => {
    const f = await seedAccount({ statements: 1 });
    await importData({
      partners: [
        {
          partner_id: f.partnerId,
          name: "Two",
          products: [{ merchant_key: uniqueId("mk"), name: "Second" }],
        },
      ],
    });
    const path = `/v2/customers/${f.customerId}/accounts/${f.accountId}/statements`;
    const res = await api(path, { key: f.key });
    const body = await expectJson<ErrorBody>(res, 400);
    expect(body.error.type).toBe("BAD_REQUEST_ERROR");
    expect(body.error.message).toMatch(/x-service-merchant-key/);
    expect(res.headers.get("x-service-version")).toBe(OLDEST);
    const chosen = await api(path, { key: f.key, merchantKey: f.merchantKey });
    expect((await expectJson<{ data: unknown[] }>(chosen, 200)).data).toHaveLength(1);
  });

  it("uses the only product when the header is absent", async () => {
    const f = await seedAccount({ statements: 2 });
    const path = `/v2/customers/${f.customerId}/accounts/${f.accountId}/statements`;
    const res = await api(path, { key: f.key });
    expect((await expectJson<{ data: unknown[] }>(res, 200)).data).toHaveLength(2);
    const same = await api(path, { key: f.key, merchantKey: f.merchantKey });
    expect((await expectJson<{ data: unknown[] }>(same, 200)).data).toHaveLength(2);
  });
});
