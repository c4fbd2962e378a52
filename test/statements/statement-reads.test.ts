// One statement, and its line items (CONTRACT §9), in every version: the statement in the list's
// shape with a fresh as_of and link; its line items in document order, paged by signed tokens
// bound to the statement and the type filter, without duplicates or gaps while other statements'
// line items are imported; the customer and account checked as the list checks them; a
// statement of another account, or hidden, not found as if it never existed.
import { beforeAll, describe, expect, it } from "vitest";
import { api, type ErrorBody, expectJson, operator } from "../support/api";
import { ALL_VERSIONS } from "../support/bundle-versions";
import {
  type Fixture,
  importData,
  pdfBytes,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import type { Json } from "../support/json";
import {
  allLineItems,
  type LineItemPage,
  postedAt,
  statementPath,
  statementWithLineItems,
} from "../support/line-items";
import { ENVELOPE, FLAT_ERRORS, WITH_PDF_URL } from "../support/reference-versions";

const TYPES = ["PURCHASE", "PAYMENT", "CREDIT", "REFUND", "INTEREST", "FEE"];

let f: Fixture;
/** Month 2 carries 40 purchases and one item of four other types; month 1 carries none. */
let rich: ReturnType<typeof statementWithLineItems>;
const plainId = () => `${f.accountId}_st_001`;

beforeAll(async () => {
  f = await seedAccount({ statements: 1 });
  rich = statementWithLineItems(f.accountId, 2, { purchases: 40 });
  await importData({ statements: [rich] });
});

const lineItemsOf = (statementId: string, query = "", key = f.key, fixture = f) =>
  api(statementPath(fixture, statementId, `/line_items${query}`), { key });

/** The line items as the document lists them: by posted_at, then line_item_id. */
function documentOrder(items: { line_item_id: string; posted_at: string }[]) {
  return [...items]
    .sort((a, b) =>
      a.posted_at === b.posted_at
        ? a.line_item_id < b.line_item_id
          ? -1
          : 1
        : a.posted_at < b.posted_at
          ? -1
          : 1,
    )
    .map((i) => i.line_item_id);
}

describe("GET …/statements/{statement_id}", () => {
  it("answers the statement exactly as the list shows it, with its own as_of and link", async () => {
    const upload = await operator("PUT", `/statements/${rich.statement_id}/pdf`, pdfBytes(), {
      "content-type": "application/pdf",
    });
    expect(upload.status).toBe(204);
    for (const version of ALL_VERSIONS) {
      const list = await expectJson<{ data: Json[] }>(
        await api(statementsPath(f), { key: f.key, version }),
        200,
      );
      for (const listed of list.data) {
        const res = await api(statementPath(f, listed.statement_id), { key: f.key, version });
        expect(res.headers.get("x-service-version")).toBe(version);
        const one = await expectJson<Json>(res, 200);
        const link = WITH_PDF_URL.includes(version) ? "pdf_url" : "pdf";
        const { as_of, [link]: pdf, ...rest } = one;
        const { as_of: listedAsOf, [link]: listedPdf, ...listedRest } = listed;
        expect(rest, version).toEqual(listedRest);
        expect(Object.keys(one)).toEqual(Object.keys(listed));
        expect(Date.parse(as_of)).toBeGreaterThanOrEqual(Date.parse(listedAsOf));
        expect(pdf === undefined).toBe(listedPdf === undefined);
      }
    }
  });

  it("shows rates and year-to-date totals only when recorded, in every version", async () => {
    for (const version of ALL_VERSIONS) {
      const withData = await expectJson<Json>(
        await api(statementPath(f, rich.statement_id), { key: f.key, version }),
        200,
      );
      expect(withData.interest_rates).toEqual(rich.interest_rates);
      expect(withData.year_to_date).toEqual({ fees: 100, interest: 300 });
      const plain = await expectJson<Json>(
        await api(statementPath(f, plainId()), { key: f.key, version }),
        200,
      );
      for (const field of ["interest_rates", "year_to_date", "restated_by", "restates"]) {
        expect(plain, `${version} ${field}`).not.toHaveProperty(field);
      }
    }
  });

  it("gives a fresh link each time, valid for an hour from its as_of", async () => {
    const version = WITH_PDF_URL[0] as string;
    const one = await expectJson<Json>(
      await api(statementPath(f, rich.statement_id), { key: f.key, version }),
      200,
    );
    const url = new URL(one.pdf_url);
    expect(Number(url.searchParams.get("expires"))).toBe(Date.parse(one.as_of) + 3600_000);
    const pdf = await fetchPdf(one.pdf_url);
    expect(pdf.status).toBe(200);
  });
});

async function fetchPdf(link: string): Promise<Response> {
  const { request } = await import("../support/worker");
  const url = new URL(link);
  return request(url.pathname + url.search);
}

describe("not found", () => {
  let other: Fixture;
  beforeAll(async () => {
    other = await seedAccount({ statements: 1 });
  });

  const routes = (statementId: string) => [
    (fx: { customerId: string; accountId: string }) => statementPath(fx, statementId),
    (fx: { customerId: string; accountId: string }) =>
      statementPath(fx, statementId, "/line_items"),
  ];

  it("answers a statement of another account, another partner, or none, as never existing", async () => {
    const second = uniqueId("acc");
    await importData({
      accounts: [{ account_id: second, customer_id: f.customerId }],
      statements: [statementWithLineItems(second, 3, { id: `${second}_st` })],
    });
    for (const version of ALL_VERSIONS) {
      const bodies = new Set<string>();
      for (const [label, fixture, id] of [
        ["another account of the customer", f, `${second}_st`],
        ["another partner's", f, `${other.accountId}_st_001`],
        ["an id that never existed", f, "st_never"],
      ] as const) {
        for (const path of routes(id)) {
          const res = await api(path(fixture), { key: f.key, version });
          const text = await res.text();
          expect(res.status, `${label} ${version}`).toBe(404);
          const body = JSON.parse(text);
          const error = FLAT_ERRORS.includes(version) ? body : body.error;
          expect(error.type).toBe("STATEMENT_NOT_FOUND_ERROR");
          expect(error.param).toBe("statement_id");
          bodies.add(text.replaceAll(id, "<id>"));
        }
      }
      // The same bytes, but for the id it names, whoever holds it.
      expect(bodies.size, version).toBe(1);
    }
  });

  it("answers a statement hidden since, even on a continuation page", async () => {
    const s = statementWithLineItems(f.accountId, 4);
    await importData({ statements: [s] });
    const first = await expectJson<LineItemPage>(
      await lineItemsOf(s.statement_id, "?limit=2"),
      200,
    );
    expect((await operator("POST", `/statements/${s.statement_id}/hide`)).status).toBe(204);
    for (const res of [
      await api(statementPath(f, s.statement_id), { key: f.key, version: ENVELOPE }),
      await lineItemsOf(s.statement_id),
      await lineItemsOf(s.statement_id, `?starting_after=${first.next_page_token}`),
    ]) {
      const body = await expectJson<Json>(res, 404);
      expect(body.error?.type ?? body.type).toBe("STATEMENT_NOT_FOUND_ERROR");
    }
  });

  it("checks the customer and the account as the statements list does", async () => {
    for (const path of routes(rich.statement_id)) {
      const customer = await expectJson<ErrorBody>(
        await api(path({ customerId: other.customerId, accountId: f.accountId }), {
          key: f.key,
          version: ENVELOPE,
        }),
        404,
      );
      expect(customer.error).toMatchObject({
        type: "CUSTOMER_NOT_FOUND_ERROR",
        param: "customer_id",
      });
      const account = await expectJson<ErrorBody>(
        await api(path({ customerId: f.customerId, accountId: other.accountId }), {
          key: f.key,
          version: ENVELOPE,
        }),
        404,
      );
      expect(account.error).toMatchObject({ type: "ACCOUNT_NOT_FOUND_ERROR", param: "account_id" });
      // Another partner's key: the customer is not found, as the list answers it.
      const foreign = await expectJson<ErrorBody>(
        await api(path(f), { key: other.key, version: ENVELOPE }),
        404,
      );
      expect(foreign.error.type).toBe("CUSTOMER_NOT_FOUND_ERROR");
    }
  });

  it("needs ACCOUNT_READ", async () => {
    const { createKey } = await import("../support/fixtures");
    const { apiKey } = await createKey(f.partnerId, "sandbox", []);
    for (const path of routes(rich.statement_id)) {
      const res = await api(path(f), { key: apiKey });
      expect(res.status).toBe(403);
    }
  });
});

describe("GET …/statements/{statement_id}/line_items", () => {
  it("lists every line item once, in document order, ten by default", async () => {
    const first = await expectJson<LineItemPage>(await lineItemsOf(rich.statement_id), 200);
    expect(first.data).toHaveLength(10);
    expect(first.has_more).toBe(true);
    expect(first.next_page_token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    for (const limit of [1, 7, 100]) {
      const { items, pages } = await allLineItems(f, rich.statement_id, `limit=${limit}`);
      expect(items.map((i) => i.line_item_id)).toEqual(documentOrder(rich.line_items ?? []));
      expect(pages).toBe(Math.ceil(44 / limit));
    }
  });

  it("shows each line item as imported, absent fields omitted", async () => {
    const { items } = await allLineItems(f, rich.statement_id);
    const byId = new Map(items.map((i) => [i.line_item_id, i]));
    for (const imported of rich.line_items ?? []) {
      const served = byId.get(imported.line_item_id);
      expect(served).toEqual({
        ...imported,
        posted_at: new Date(imported.posted_at).toISOString(),
        ...(imported.transaction_date
          ? { transaction_date: new Date(imported.transaction_date).toISOString() }
          : {}),
      });
    }
    const refund = byId.get(`${rich.statement_id}_li_9001`);
    expect(Object.keys(refund ?? {})).toEqual([
      "line_item_id",
      "type",
      "posted_at",
      "description",
      "amount",
      "merchant",
      "original_amount",
      "original_currency",
    ]);
  });

  it("answers an empty list for a statement without line items", async () => {
    const page = await expectJson<LineItemPage>(await lineItemsOf(plainId()), 200);
    expect(page).toEqual({ data: [], has_more: false });
  });

  it("pages without duplicates or gaps while other statements' line items are imported", async () => {
    const statementId = rich.statement_id;
    const seen: string[] = [];
    let token: string | undefined;
    let round = 0;
    do {
      const after = token ? `&starting_after=${token}` : "";
      const page = await expectJson<LineItemPage>(
        await lineItemsOf(statementId, `?limit=6${after}`),
        200,
      );
      seen.push(...page.data.map((i) => i.line_item_id));
      token = page.next_page_token;
      // Between pages, another statement of the account gets line items posted at the same
      // instants, with ids that sort between this statement's.
      round += 1;
      const between = statementWithLineItems(f.accountId, 2, {
        id: `${f.accountId}_between_${round}`,
        purchases: 40,
      });
      await importData({ statements: [between] });
    } while (token);
    expect(seen).toEqual(documentOrder(rich.line_items ?? []));
  });

  it("filters by one type or several, merged in document order", { timeout: 30_000 }, async () => {
    const all = documentOrder(rich.line_items ?? []);
    const typeOf = new Map((rich.line_items ?? []).map((i) => [i.line_item_id, i.type]));
    for (const filter of [
      ["FEE"],
      ["PURCHASE"],
      ["REFUND", "PAYMENT"],
      ["FEE", "INTEREST", "PURCHASE"],
      ["CREDIT"],
      TYPES,
    ]) {
      for (const limit of [1, 7, 100]) {
        const { items } = await allLineItems(
          f,
          rich.statement_id,
          `limit=${limit}&type=${filter.join(",")}`,
        );
        expect(
          items.map((i) => i.line_item_id),
          `${filter} @${limit}`,
        ).toEqual(all.filter((id) => filter.includes(typeOf.get(id) as string)));
      }
    }
  });

  it("refuses an unknown type, naming it, and a malformed filter", async () => {
    for (const [query, fragment] of [
      ["?type=PURCHASE,CHARGEBACK", '"CHARGEBACK" is not a line item type'],
      ["?type=purchase", '"purchase" is not a line item type'],
      ["?type=", '"" is not a line item type'],
      ["?type=FEE,", '"" is not a line item type'],
      ["?type=FEE&type=PAYMENT", "type must be sent once"],
    ] as const) {
      for (const version of ALL_VERSIONS) {
        const body = await expectJson<Json>(
          await api(statementPath(f, rich.statement_id, `/line_items${query}`), {
            key: f.key,
            version,
          }),
          400,
        );
        const details: string[] = body.details ?? body.error.details;
        expect(details.join(" "), `${query} ${version}`).toContain(fragment);
      }
    }
  });

  it("refuses a limit outside 1..100", async () => {
    for (const limit of ["0", "101", "x", "1.5"]) {
      const res = await lineItemsOf(rich.statement_id, `?limit=${limit}`);
      expect(res.status).toBe(400);
    }
  });
});

describe("line items page tokens", () => {
  let token: string;
  beforeAll(async () => {
    const page = await expectJson<LineItemPage>(
      await lineItemsOf(rich.statement_id, "?limit=2"),
      200,
    );
    token = page.next_page_token as string;
  });

  const refused = async (res: Response, why: string) => {
    const body = await expectJson<Json>(res, 400);
    expect(JSON.stringify(body), why).toContain("starting_after must be a next_page_token");
  };

  it("continues only the listing it was issued for", async () => {
    const ok = await lineItemsOf(rich.statement_id, `?limit=2&starting_after=${token}`);
    expect(ok.status).toBe(200);
    // Another statement of the same account.
    const another = statementWithLineItems(f.accountId, 5);
    await importData({ statements: [another] });
    await refused(await lineItemsOf(another.statement_id, `?starting_after=${token}`), "statement");
    // Another filter, or a filter where there was none.
    await refused(
      await lineItemsOf(rich.statement_id, `?type=PURCHASE&starting_after=${token}`),
      "filter",
    );
    const filtered = await expectJson<LineItemPage>(
      await lineItemsOf(rich.statement_id, "?type=PURCHASE&limit=2"),
      200,
    );
    await refused(
      await lineItemsOf(rich.statement_id, `?starting_after=${filtered.next_page_token}`),
      "unfiltered",
    );
    await refused(
      await lineItemsOf(
        rich.statement_id,
        `?type=PURCHASE,FEE&starting_after=${filtered.next_page_token}`,
      ),
      "other types",
    );
    // The same types in another order are the same filter.
    const same = await lineItemsOf(
      rich.statement_id,
      `?type=FEE,PURCHASE&starting_after=${(await expectJson<LineItemPage>(await lineItemsOf(rich.statement_id, "?type=PURCHASE,FEE&limit=2"), 200)).next_page_token}`,
    );
    expect(same.status).toBe(200);
  });

  it("refuses a forged, altered or truncated token, and one of the statements list", async () => {
    const [payload, mac, keyId] = token.split(".") as [string, string, string];
    const forged = btoa(JSON.stringify(["2000-01-01T00:00:00.000Z", "a", "00"]))
      .replace(/=+$/, "")
      .replaceAll("+", "-")
      .replaceAll("/", "_");
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith("A") ? "B" : "A"}`;
    for (const bad of [
      `${forged}.${mac}.${keyId}`,
      `${payload}.${flip(mac)}.${keyId}`,
      `${payload}.${mac}.${flip(keyId)}`,
      token.slice(0, 20),
      "not-a-token",
    ]) {
      await refused(await lineItemsOf(rich.statement_id, `?starting_after=${bad}`), bad);
    }
    const list = await expectJson<{ next_page_token: string }>(
      await api(statementsPath(f, "?limit=1"), { key: f.key }),
      200,
    );
    await refused(
      await lineItemsOf(rich.statement_id, `?starting_after=${list.next_page_token}`),
      "statements list token",
    );
  });

  it("refuses a token under another partner's key or product", async () => {
    const other = await seedAccount();
    await refused(
      await lineItemsOf(rich.statement_id, `?starting_after=${token}`, other.key, {
        ...f,
        customerId: other.customerId,
        accountId: other.accountId,
      }),
      "other partner",
    );
  });
});

describe("a statement carrying a posting on the period's last instant", () => {
  it("lists it last", async () => {
    const s = statementWithLineItems(f.accountId, 6);
    const last = {
      line_item_id: "zz_last",
      type: "FEE" as const,
      posted_at: s.period_end_date,
      description: "ANNUAL FEE",
      amount: 0,
    };
    const first = { ...last, line_item_id: "aa_first", posted_at: postedAt(6, 0, 0) };
    await importData({
      statements: [{ ...s, line_items: [last, first, ...(s.line_items ?? [])] }],
    });
    const { items } = await allLineItems(f, s.statement_id);
    expect(items.at(-1)?.line_item_id).toBe("zz_last");
    expect(items.map((i) => i.line_item_id).indexOf("aa_first")).toBeLessThan(3);
  });
});
