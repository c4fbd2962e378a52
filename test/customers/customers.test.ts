import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client";
import { customerPageQuery, type ReadScope } from "../../src/db/customers";
import { api, expectJson } from "../support/api";
import { ALL_VERSIONS, OLDEST, versionsWith } from "../support/bundle-versions";
import { createKey, importData, seedAccount, uniqueId } from "../support/fixtures";
import { withRequestLog } from "../support/request-log";
import { partnerDatabase } from "../support/shards";

interface CustomerList {
  data: Record<string, unknown>[];
  has_more: boolean;
}

const VERSIONS = ALL_VERSIONS;
/** Versions whose errors are all in the ApiError envelope. */
const ENVELOPED = versionsWith("useApiErrorEnvelopeForAllErrors");
const USERS = [
  { authorized_user_id: "au_1", name: "Sam Lee" },
  { authorized_user_id: "au_2", name: "Ana Ruiz" },
];

/**
 * A partner with two products: `count` sandbox customers of product A (ids in order, the first
 * linked and with authorized users), one of product B, one production customer of product A.
 */
async function partnerWithCustomers(count: number) {
  const partnerId = uniqueId("partner");
  const [mkA, mkB] = [uniqueId("mk"), uniqueId("mk")];
  const prefix = uniqueId("cus");
  const ids = Array.from({ length: count }, (_, i) => `${prefix}_${String(i).padStart(3, "0")}`);
  const [otherProduct, live] = [uniqueId("cus"), uniqueId("cus")];
  const customer = (
    customer_id: string,
    merchant_key = mkA,
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
          { merchant_key: mkA, name: "Card A" },
          { merchant_key: mkB, name: "Card B" },
        ],
      },
    ],
    customers: [
      ...ids
        .map((id, i) =>
          i === 0
            ? { ...customer(id), partner_customer_id: "p-1", authorized_users: USERS }
            : customer(id),
        )
        .reverse(),
      customer(otherProduct, mkB),
      customer(live, mkA, "production"),
    ],
  });
  const key = (await createKey(partnerId, "sandbox", [])).apiKey;
  return { partnerId, mkA, mkB, ids, otherProduct, live, key };
}

async function listAll(key: string, merchantKey: string, limit: number) {
  const pages: string[][] = [];
  let after = "";
  for (let i = 0; i < 20; i++) {
    const query = `?limit=${limit}${after ? `&starting_after=${encodeURIComponent(after)}` : ""}`;
    const res = await api(`/v2/customers${query}`, { key, merchantKey });
    const body = await expectJson<CustomerList>(res, 200);
    pages.push(body.data.map((c) => c.customer_id as string));
    if (!body.has_more) return pages;
    after = pages.at(-1)?.at(-1) ?? "";
  }
  throw new Error("the listing never ended");
}

describe("GET /v2/customers", () => {
  it("lists the product's customers in id order, linked ids included, 10 by default", async () => {
    const p = await partnerWithCustomers(12);
    const res = await api("/v2/customers", { key: p.key, merchantKey: p.mkA });
    const body = await expectJson<CustomerList>(res, 200);
    expect(body.has_more).toBe(true);
    expect(body.data).toHaveLength(10);
    expect(body.data[0]).toEqual({ customer_id: p.ids[0], partner_customer_id: "p-1" });
    expect(body.data[1]).toEqual({ customer_id: p.ids[1] });
    expect(body.data.map((c) => c.customer_id)).toEqual(p.ids.slice(0, 10));
  });

  it("pages by id without gaps or repeats, within one product and environment", async () => {
    const p = await partnerWithCustomers(12);
    const pages = await listAll(p.key, p.mkA, 5);
    expect(pages.map((page) => page.length)).toEqual([5, 5, 2]);
    expect(pages.flat()).toEqual(p.ids);
    expect(await listAll(p.key, p.mkB, 5)).toEqual([[p.otherProduct]]);
    const live = (await createKey(p.partnerId, "production", [])).apiKey;
    expect(await listAll(live, p.mkA, 5)).toEqual([[p.live]]);
  });

  it("never lists authorized users, even for a key holding AUTHORIZED_USER_READ", async () => {
    const p = await partnerWithCustomers(1);
    const key = (await createKey(p.partnerId, "sandbox", ["AUTHORIZED_USER_READ"])).apiKey;
    const body = await expectJson<CustomerList>(
      await api("/v2/customers", { key, merchantKey: p.mkA }),
      200,
    );
    expect(body.data).toEqual([{ customer_id: p.ids[0], partner_customer_id: "p-1" }]);
  });

  it("lists nothing of another partner", async () => {
    const mine = await seedAccount();
    await seedAccount();
    const body = await expectJson<CustomerList>(await api("/v2/customers", { key: mine.key }), 200);
    expect(body).toEqual({ data: [{ customer_id: mine.customerId }], has_more: false });
  });

  it("requires the merchant-key header when the partner has several products", async () => {
    const p = await partnerWithCustomers(1);
    const res = await api("/v2/customers", { key: p.key });
    expect(await expectJson(res, 400)).toMatchObject({
      error: { type: "BAD_REQUEST_ERROR", param: "x-service-merchant-key" },
    });
  });

  it.each(VERSIONS)("rejects a bad limit in the %s validation shape", async (version) => {
    const f = await seedAccount();
    const res = await api("/v2/customers?limit=101", { key: f.key, version });
    const body = await expectJson(res, 400);
    expect(res.headers.get("x-service-version")).toBe(version);
    if (ENVELOPED.includes(version)) {
      expect(body).toMatchObject({ error: { type: "INVALID_REQUEST_ERROR", param: "limit" } });
    } else {
      expect(body).toMatchObject({ path: "/v2/customers", error: "Bad Request", status: 400 });
    }
  });

  it("costs one D1 round trip after authentication, a range of the customers index", async () => {
    const p = await partnerWithCustomers(3);
    const { res, log } = await withRequestLog(() =>
      api(`/v2/customers?limit=2&starting_after=${p.ids[0]}`, { key: p.key, merchantKey: p.mkA }),
    );
    expect(await expectJson(res, 200)).toEqual({
      data: [{ customer_id: p.ids[1] }, { customer_id: p.ids[2] }],
      has_more: false,
    });
    expect(log.d1_queries).toBe(2);

    const shard = await partnerDatabase(p.partnerId);
    const { db } = openDatabase(shard);
    const scope: ReadScope = { partnerId: p.partnerId, environment: "sandbox", merchantKey: p.mkA };
    const query = customerPageQuery(db, scope, "cus_x", 10).toSQL();
    expect(query.sql).not.toMatch(/offset/i);
    const plan = await shard
      .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join("\n");
    const range =
      "customers_scope_idx (partner_id=? AND environment=? AND merchant_key=? AND customer_id>?)";
    expect(details).toContain(`SEARCH customers USING INDEX ${range}`);
    expect(details).not.toMatch(/TEMP B-TREE|SCAN/);
  });
});

describe("GET /v2/customers/{customer_id}", () => {
  it("returns authorized users to a key holding AUTHORIZED_USER_READ", async () => {
    const p = await partnerWithCustomers(2);
    const key = (await createKey(p.partnerId, "sandbox", ["AUTHORIZED_USER_READ"])).apiKey;
    for (const version of VERSIONS) {
      const options = { key, merchantKey: p.mkA, version };
      const res = await api(`/v2/customers/${p.ids[0]}`, options);
      expect(await expectJson(res, 200)).toEqual({
        customer_id: p.ids[0],
        partner_customer_id: "p-1",
        authorized_users: USERS,
      });
      expect(res.headers.get("x-service-version")).toBe(version);
      // A customer without authorized users has an empty list, not a missing field.
      const none = await api(`/v2/customers/${p.ids[1]}`, options);
      expect(await expectJson(none, 200)).toEqual({ customer_id: p.ids[1], authorized_users: [] });
    }
  });

  it("omits authorized users without AUTHORIZED_USER_READ, and still succeeds", async () => {
    const p = await partnerWithCustomers(1);
    const key = (await createKey(p.partnerId, "sandbox", ["ACCOUNT_READ", "PCI_DETAILS_READ"]))
      .apiKey;
    for (const version of VERSIONS) {
      const res = await api(`/v2/customers/${p.ids[0]}`, { key, merchantKey: p.mkA, version });
      expect(await expectJson(res, 200)).toEqual({
        customer_id: p.ids[0],
        partner_customer_id: "p-1",
      });
    }
  });

  it("costs one D1 round trip after authentication", async () => {
    const f = await seedAccount();
    const { res, log } = await withRequestLog(() =>
      api(`/v2/customers/${f.customerId}`, { key: f.key }),
    );
    expect(res.status).toBe(200);
    expect(log.d1_queries).toBe(2);
  });

  it("answers a customer out of reach exactly like a missing one", async () => {
    const p = await partnerWithCustomers(1);
    const stranger = await seedAccount();
    const key = (await createKey(p.partnerId, "sandbox", ["AUTHORIZED_USER_READ"])).apiKey;
    for (const version of VERSIONS) {
      for (const foreign of [p.otherProduct, p.live, stranger.customerId]) {
        const never = `cus_${"n".repeat(foreign.length - 4)}`;
        const options = { key, merchantKey: p.mkA, version };
        const a = await api(`/v2/customers/${foreign}`, options);
        const b = await api(`/v2/customers/${never}`, options);
        expect(a.status).toBe(404);
        expect(b.status).toBe(404);
        expect(await a.text()).toBe((await b.text()).replaceAll(never, foreign));
      }
    }
  });

  it.each(VERSIONS.map((v) => [v, ENVELOPED.includes(v)] as const))(
    "shapes CUSTOMER_NOT_FOUND_ERROR for %s",
    async (version, enveloped) => {
      const f = await seedAccount();
      const res = await api("/v2/customers/cus_none", { key: f.key, version });
      const error = {
        type: "CUSTOMER_NOT_FOUND_ERROR",
        message: 'No such customer: "cus_none"',
        param: "customer_id",
      };
      expect(await expectJson(res, 404)).toEqual(enveloped ? { error } : error);
    },
  );
});

describe("POST /v2/customers/{customer_id}/link", () => {
  const link = (path: string, key: string, body: unknown, version?: string) =>
    api(path, { key, method: "POST", body, ...(version ? { version } : {}) });

  it("links a partner customer id and answers the customer, with no scope needed", async () => {
    const f = await seedAccount({ scopes: [] });
    const path = `/v2/customers/${f.customerId}/link`;
    const res = await link(path, f.key, { partner_customer_id: "crm-42" });
    expect(await expectJson(res, 200)).toEqual({
      customer_id: f.customerId,
      partner_customer_id: "crm-42",
    });
    const read = await api(`/v2/customers/${f.customerId}`, { key: f.key });
    expect(await expectJson(read, 200)).toEqual({
      customer_id: f.customerId,
      partner_customer_id: "crm-42",
    });
  });

  it("is idempotent: linking the same id again answers the same customer", async () => {
    const f = await seedAccount();
    const path = `/v2/customers/${f.customerId}/link`;
    const first = await expectJson(await link(path, f.key, { partner_customer_id: "crm-1" }), 200);
    const again = await expectJson(await link(path, f.key, { partner_customer_id: "crm-1" }), 200);
    expect(again).toEqual(first);
  });

  it("re-links to a new partner customer id, replacing the old one", async () => {
    const f = await seedAccount();
    const path = `/v2/customers/${f.customerId}/link`;
    await expectJson(await link(path, f.key, { partner_customer_id: "crm-old" }), 200);
    const res = await link(path, f.key, { partner_customer_id: "crm-new" });
    expect(await expectJson(res, 200)).toMatchObject({ partner_customer_id: "crm-new" });
    const list = await expectJson<CustomerList>(await api("/v2/customers", { key: f.key }), 200);
    expect(list.data).toEqual([{ customer_id: f.customerId, partner_customer_id: "crm-new" }]);
  });

  it("includes authorized users in the answer only for AUTHORIZED_USER_READ", async () => {
    const p = await partnerWithCustomers(1);
    const path = `/v2/customers/${p.ids[0]}/link`;
    const withScope = (await createKey(p.partnerId, "sandbox", ["AUTHORIZED_USER_READ"])).apiKey;
    const body = { partner_customer_id: "crm-7" };
    const options = { method: "POST", body, merchantKey: p.mkA };
    const shown = await api(path, { key: withScope, ...options });
    expect(await expectJson(shown, 200)).toEqual({
      customer_id: p.ids[0],
      partner_customer_id: "crm-7",
      authorized_users: USERS,
    });
    const hidden = await api(path, { key: p.key, ...options });
    expect(await expectJson(hidden, 200)).toEqual({
      customer_id: p.ids[0],
      partner_customer_id: "crm-7",
    });
  });

  it("accepts exactly 255 characters, counting each emoji once", async () => {
    const f = await seedAccount();
    const path = `/v2/customers/${f.customerId}/link`;
    for (const value of [
      "x",
      "a".repeat(255),
      "😀".repeat(255),
      " spaced id ",
      "ünïcødé/+?&#",
      "a\u0000b",
    ]) {
      const res = await link(path, f.key, { partner_customer_id: value });
      expect(await expectJson(res, 200)).toMatchObject({ partner_customer_id: value });
      const read = await expectJson(
        await api(`/v2/customers/${f.customerId}`, { key: f.key }),
        200,
      );
      expect(read.partner_customer_id).toBe(value);
    }
  });

  const invalid: [string, unknown][] = [
    ["an empty string", { partner_customer_id: "" }],
    ["256 characters", { partner_customer_id: "a".repeat(256) }],
    ["256 emoji", { partner_customer_id: "😀".repeat(256) }],
    ["a number", { partner_customer_id: 42 }],
    ["null", { partner_customer_id: null }],
    ["an array", { partner_customer_id: ["a"] }],
    ["a missing field", {}],
    ["an unknown field", { partner_customer_id: "a", scopes: [] }],
    ["a lone surrogate", '{"partner_customer_id":"a\\ud800"}'],
    ["a JSON array body", "[]"],
    ["a JSON string body", '"crm-1"'],
    ["a JSON null body", "null"],
    ["malformed JSON", '{"partner_customer_id":'],
    ["an empty body", ""],
  ];

  it.each(invalid)("refuses %s in the oldest version's validation shape", async (_, body) => {
    const f = await seedAccount();
    const path = `/v2/customers/${f.customerId}/link`;
    const res = await api(path, { key: f.key, method: "POST", body: body as string });
    const error = await expectJson(res, 400);
    expect(res.headers.get("x-service-version")).toBe(OLDEST);
    expect(error).toEqual({
      path,
      details: [expect.any(String)],
      error: "Bad Request",
      status: 400,
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    // Nothing was linked.
    const read = await expectJson(await api(`/v2/customers/${f.customerId}`, { key: f.key }), 200);
    expect(read).toEqual({ customer_id: f.customerId });
  });

  it.each(VERSIONS)("refuses a 256-character id in the %s shape", async (version) => {
    const f = await seedAccount();
    const path = `/v2/customers/${f.customerId}/link`;
    const res = await link(path, f.key, { partner_customer_id: "a".repeat(256) }, version);
    const body = await expectJson(res, 400);
    expect(res.headers.get("x-service-version")).toBe(version);
    if (ENVELOPED.includes(version)) {
      expect(body).toEqual({
        error: {
          type: "INVALID_REQUEST_ERROR",
          message: "partner_customer_id must be 1 to 255 characters long; got 256",
          param: "partner_customer_id",
          details: ["partner_customer_id must be 1 to 255 characters long; got 256"],
        },
      });
    } else {
      expect(body).toMatchObject({
        details: ["partner_customer_id must be 1 to 255 characters long; got 256"],
        error: "Bad Request",
      });
    }
  });

  it("cannot link nor reveal a customer out of reach", async () => {
    const p = await partnerWithCustomers(1);
    const stranger = await seedAccount();
    for (const foreign of [p.otherProduct, p.live, stranger.customerId]) {
      const never = `cus_${"n".repeat(foreign.length - 4)}`;
      const options = {
        key: p.key,
        merchantKey: p.mkA,
        method: "POST",
        body: { partner_customer_id: "x" },
      };
      const a = await api(`/v2/customers/${foreign}/link`, options);
      const b = await api(`/v2/customers/${never}/link`, options);
      expect(a.status).toBe(404);
      expect(await a.text()).toBe((await b.text()).replaceAll(never, foreign));
    }
    // The stranger's customer is untouched.
    const read = await api(`/v2/customers/${stranger.customerId}`, { key: stranger.key });
    expect(await expectJson(read, 200)).toEqual({ customer_id: stranger.customerId });
  });

  it("validates the body before looking for the customer", async () => {
    const f = await seedAccount();
    const res = await link("/v2/customers/cus_none/link", f.key, { partner_customer_id: "" });
    expect(res.status).toBe(400);
  });

  it("costs one D1 round trip after authentication", async () => {
    const f = await seedAccount();
    const { res, log } = await withRequestLog(() =>
      link(`/v2/customers/${f.customerId}/link`, f.key, { partner_customer_id: "crm-9" }),
    );
    expect(res.status).toBe(200);
    expect(log.d1_queries).toBe(2);
  });
});
