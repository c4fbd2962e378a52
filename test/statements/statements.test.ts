// GET /v2/customers/{customer_id}/accounts/{account_id}/statements (SPEC "List an account's statements").
import { describe, expect, it } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { OLDEST } from "../support/bundle-versions";
import {
  importData,
  monthlyStatement,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";

interface Page {
  data: Record<string, unknown>[];
  has_more: boolean;
  next_page_token?: string;
}

const ids = (page: Page) => page.data.map((s) => s.statement_id);

/** Pages through the whole listing, returning statement ids in order. */
async function listAll(f: Parameters<typeof statementsPath>[0] & { key: string }, limit: number) {
  const seen: unknown[] = [];
  let token: string | undefined;
  for (let i = 0; i < 50; i++) {
    const query = `?limit=${limit}${token ? `&starting_after=${token}` : ""}`;
    const page = await expectJson<Page>(await api(statementsPath(f, query), { key: f.key }), 200);
    seen.push(...ids(page));
    if (!page.has_more) return seen;
    token = page.next_page_token;
  }
  throw new Error("pagination did not end");
}

describe("listing statements", () => {
  it("returns closed statements newest first with the default limit of 10", async () => {
    const f = await seedAccount({ statements: 12 });
    const page = await expectJson<Page>(await api(statementsPath(f), { key: f.key }), 200);
    expect(ids(page)).toEqual(
      Array.from({ length: 10 }, (_, i) => `${f.accountId}_st_${String(12 - i).padStart(3, "0")}`),
    );
    expect(page.has_more).toBe(true);
    expect(typeof page.next_page_token).toBe("string");
  });

  it("returns every field of a statement in the oldest version's shape", async () => {
    const f = await seedAccount({ statements: 1 });
    const page = await expectJson<Page>(await api(statementsPath(f), { key: f.key }), 200);
    expect(page).toEqual({
      data: [
        {
          statement_id: `${f.accountId}_st_001`,
          customer_id: f.customerId,
          account_id: f.accountId,
          as_of: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          period_start_date: "2024-01-01T00:00:00.000Z",
          period_end_date: "2024-01-31T23:59:59.000Z",
          due_date: "2024-02-25T00:00:00.000Z",
          currency: "USD",
          statement_balance: 10001,
          minimum_due: 2500,
          previous_balance: 9000,
          purchases: 4000,
          payments: -3000,
          refunds: -200,
          interest: 150,
          fees: 50,
          overdue_amount: 0,
        },
      ],
      has_more: false,
    });
  });

  it("omits absent figures instead of reporting null or 0", async () => {
    const f = await seedAccount();
    await importData({
      statements: [
        {
          statement_id: `${f.accountId}_quiet`,
          account_id: f.accountId,
          period_end_date: "2024-03-31T23:59:59Z",
          statement_balance: 0,
        },
      ],
    });
    const page = await expectJson<Page>(await api(statementsPath(f), { key: f.key }), 200);
    expect(page.data[0]).toEqual({
      statement_id: `${f.accountId}_quiet`,
      customer_id: f.customerId,
      account_id: f.accountId,
      as_of: expect.any(String),
      period_end_date: "2024-03-31T23:59:59.000Z",
      statement_balance: 0,
    });
  });

  it("never shows internal fields", async () => {
    const f = await seedAccount({ statements: 2 });
    const text = await (await api(statementsPath(f), { key: f.key })).text();
    for (const word of ["hidden", "pdf_key", "partner", "environment", "merchant", "created_at"]) {
      expect(text).not.toContain(word);
    }
  });

  it("uses one as_of for the whole page, the instant the request was served", async () => {
    const f = await seedAccount({ statements: 5 });
    const before = Date.now();
    const page = await expectJson<Page>(await api(statementsPath(f), { key: f.key }), 200);
    const asOfs = new Set(page.data.map((s) => s.as_of));
    expect(asOfs.size).toBe(1);
    const asOf = Date.parse([...asOfs][0] as string);
    expect(asOf).toBeGreaterThanOrEqual(before - 1000);
    expect(asOf).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("answers an empty page for an account without statements", async () => {
    const f = await seedAccount();
    const page = await expectJson<Page>(await api(statementsPath(f), { key: f.key }), 200);
    expect(page).toEqual({ data: [], has_more: false });
  });

  it("orders statements closing at the same instant by statement id, descending", async () => {
    const f = await seedAccount();
    const end = "2024-05-31T23:59:59Z";
    await importData({
      statements: ["b", "c", "a"].map((s) => ({
        statement_id: `${f.accountId}_${s}`,
        account_id: f.accountId,
        period_end_date: end,
      })),
    });
    const page = await expectJson<Page>(await api(statementsPath(f), { key: f.key }), 200);
    expect(ids(page)).toEqual([`${f.accountId}_c`, `${f.accountId}_b`, `${f.accountId}_a`]);
  });

  it("excludes hidden statements", async () => {
    const f = await seedAccount({ statements: 3 });
    await operator("POST", `/statements/${f.accountId}_st_002/hide`);
    const page = await expectJson<Page>(await api(statementsPath(f), { key: f.key }), 200);
    expect(ids(page)).toEqual([`${f.accountId}_st_003`, `${f.accountId}_st_001`]);
  });
});

describe("pagination", () => {
  it("walks every statement exactly once, page by page", async () => {
    const f = await seedAccount({ statements: 25 });
    const all = await listAll(f, 7);
    expect(all).toHaveLength(25);
    expect(new Set(all).size).toBe(25);
    expect(all[0]).toBe(`${f.accountId}_st_025`);
    expect(all[24]).toBe(`${f.accountId}_st_001`);
  });

  it("sends next_page_token only when has_more is true", async () => {
    const f = await seedAccount({ statements: 4 });
    const first = await expectJson<Page>(
      await api(statementsPath(f, "?limit=2"), { key: f.key }),
      200,
    );
    expect(first.has_more).toBe(true);
    const last = await expectJson<Page>(
      await api(statementsPath(f, `?limit=2&starting_after=${first.next_page_token}`), {
        key: f.key,
      }),
      200,
    );
    expect(last.has_more).toBe(false);
    expect(last).not.toHaveProperty("next_page_token");
    expect(ids(last)).toEqual([`${f.accountId}_st_002`, `${f.accountId}_st_001`]);
  });

  it("issues opaque, URL-safe tokens that are not statement ids", async () => {
    const f = await seedAccount({ statements: 3 });
    const page = await expectJson<Page>(
      await api(statementsPath(f, "?limit=1"), { key: f.key }),
      200,
    );
    const token = page.next_page_token as string;
    expect(token).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(token).not.toBe(page.data[0]?.statement_id);
    expect(token).not.toContain(String(page.data[0]?.statement_id));
  });

  it("neither repeats nor skips when statements are hidden or added between pages", async () => {
    const f = await seedAccount({ statements: 10 });
    const first = await expectJson<Page>(
      await api(statementsPath(f, "?limit=4"), { key: f.key }),
      200,
    );
    expect(ids(first)).toEqual(
      [10, 9, 8, 7].map((m) => `${f.accountId}_st_${String(m).padStart(3, "0")}`),
    );
    // Between pages: hide one already seen and one not yet seen, add a newer and an older one.
    await operator("POST", `/statements/${f.accountId}_st_009/hide`);
    await operator("POST", `/statements/${f.accountId}_st_005/hide`);
    await importData({
      statements: [
        monthlyStatement(f.accountId, 11),
        { ...monthlyStatement(f.accountId, 0), statement_id: `${f.accountId}_st_000` },
      ],
    });
    const rest: unknown[] = [];
    let token = first.next_page_token;
    while (token) {
      const page = await expectJson<Page>(
        await api(statementsPath(f, `?limit=4&starting_after=${token}`), { key: f.key }),
        200,
      );
      rest.push(...ids(page));
      token = page.has_more ? page.next_page_token : undefined;
    }
    expect(rest).toEqual(
      [6, 4, 3, 2, 1, 0].map((m) => `${f.accountId}_st_${String(m).padStart(3, "0")}`),
    );
  });
});

describe("limit", () => {
  it("accepts 1 and 100", async () => {
    const f = await seedAccount({ statements: 3 });
    const one = await expectJson<Page>(
      await api(statementsPath(f, "?limit=1"), { key: f.key }),
      200,
    );
    expect(one.data).toHaveLength(1);
    const hundred = await expectJson<Page>(
      await api(statementsPath(f, "?limit=100"), { key: f.key }),
      200,
    );
    expect(hundred.data).toHaveLength(3);
  });

  it.each([
    ["0", "?limit=0"],
    ["101", "?limit=101"],
    ["negative", "?limit=-1"],
    ["a fraction", "?limit=1.5"],
    ["a word", "?limit=ten"],
    ["empty", "?limit="],
    ["padded", "?limit=%2010"],
    ["repeated", "?limit=5&limit=6"],
    ["huge", "?limit=99999999999999999999"],
  ])("rejects a limit that is %s with the InvalidRequestError shape", async (_, query) => {
    const f = await seedAccount({ statements: 1 });
    const path = statementsPath(f, query);
    const body = await expectJson(await api(path, { key: f.key }), 400);
    expect(body).toEqual({
      path: statementsPath(f),
      details: [expect.stringContaining("limit")],
      error: "Bad Request",
      status: 400,
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });
});

describe("starting_after", () => {
  async function tokenFor(f: Awaited<ReturnType<typeof seedAccount>>) {
    const page = await expectJson<Page>(
      await api(statementsPath(f, "?limit=1"), { key: f.key }),
      200,
    );
    return page.next_page_token as string;
  }

  async function expectBadCursor(f: Awaited<ReturnType<typeof seedAccount>>, token: string) {
    const res = await api(statementsPath(f, `?starting_after=${encodeURIComponent(token)}`), {
      key: f.key,
    });
    const body = await expectJson(res, 400);
    expect(body).toMatchObject({ error: "Bad Request", status: 400, path: statementsPath(f) });
    expect((body.details as string[])[0]).toContain("starting_after");
  }

  it("rejects a statement id", async () => {
    const f = await seedAccount({ statements: 3 });
    await expectBadCursor(f, `${f.accountId}_st_002`);
  });

  it("rejects a tampered, truncated or extended token", async () => {
    const f = await seedAccount({ statements: 3 });
    const token = await tokenFor(f);
    const [payload, mac] = token.split(".") as [string, string];
    const flipped = (s: string) => (s[0] === "A" ? `B${s.slice(1)}` : `A${s.slice(1)}`);
    await expectBadCursor(f, `${flipped(payload)}.${mac}`);
    await expectBadCursor(f, `${payload}.${flipped(mac)}`);
    await expectBadCursor(f, token.slice(0, -3));
    await expectBadCursor(f, payload);
    await expectBadCursor(f, `${token}.x`);
    await expectBadCursor(f, "");
    await expectBadCursor(f, "%%%");
  });

  it("rejects a forged token whose payload names another position", async () => {
    const f = await seedAccount({ statements: 3 });
    const [, mac] = (await tokenFor(f)).split(".") as [string, string];
    const forged = btoa(JSON.stringify(["2024-02-29T23:59:59.000Z", `${f.accountId}_st_002`]))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    await expectBadCursor(f, `${forged}.${mac}`);
  });

  it("rejects a token issued for another account of the same customer", async () => {
    const f = await seedAccount({ statements: 3 });
    const otherAccount = uniqueId("acc");
    await importData({
      accounts: [{ account_id: otherAccount, customer_id: f.customerId }],
      statements: [1, 2, 3].map((m) => monthlyStatement(otherAccount, m)),
    });
    const other = { ...f, accountId: otherAccount };
    await expectBadCursor(other, await tokenFor(f));
  });

  it("rejects a token issued to another partner for the same ids", async () => {
    const a = await seedAccount({ statements: 3 });
    const b = await seedAccount({ statements: 3 });
    // b's key on a's path is not found; a's token on b's path is rejected as foreign.
    await expectBadCursor(b, await tokenFor(a));
  });

  it("rejects a repeated starting_after", async () => {
    const f = await seedAccount({ statements: 3 });
    const token = await tokenFor(f);
    const res = await api(statementsPath(f, `?starting_after=${token}&starting_after=${token}`), {
      key: f.key,
    });
    expect(res.status).toBe(400);
  });
});

describe("not found", () => {
  it("answers CUSTOMER_NOT_FOUND_ERROR for an unknown customer", async () => {
    const f = await seedAccount({ statements: 1 });
    const res = await api(statementsPath({ ...f, customerId: "cus_missing" }), { key: f.key });
    expect(await expectJson(res, 404)).toEqual({
      type: "CUSTOMER_NOT_FOUND_ERROR",
      message: expect.any(String),
      param: "customer_id",
    });
  });

  it("answers ACCOUNT_NOT_FOUND_ERROR for an account of another customer", async () => {
    const f = await seedAccount({ statements: 1 });
    const g = await seedAccount({ statements: 1 });
    const res = await api(statementsPath({ customerId: f.customerId, accountId: g.accountId }), {
      key: f.key,
    });
    expect(await expectJson(res, 404)).toEqual({
      type: "ACCOUNT_NOT_FOUND_ERROR",
      message: expect.any(String),
      param: "account_id",
    });
  });

  it("treats ids with odd characters as simply not found", async () => {
    const f = await seedAccount({ statements: 1 });
    for (const odd of ["%27%20OR%201%3D1--", "%E2%9C%93", "a%2Fb", "..", "%00"]) {
      const res = await api(`/v2/customers/${odd}/accounts/${f.accountId}/statements`, {
        key: f.key,
      });
      expect(res.status).toBe(404);
    }
  });
});

describe("scope", () => {
  it("answers 403 FORBIDDEN_ERROR to a key without ACCOUNT_READ", async () => {
    const f = await seedAccount({ statements: 1, scopes: ["ORDER_READ"] });
    const res = await api(statementsPath(f), { key: f.key });
    expect(await expectJson(res, 403)).toEqual({
      error: { type: "FORBIDDEN_ERROR", message: "forbidden" },
    });
    expect(res.headers.get("x-service-version")).toBe(OLDEST);
  });
});
