// Date filters of the statements list: period_end_date_gte (inclusive) and period_end_date_lt
// (exclusive), RFC 3339 only, in every version, with page tokens bound to the filters.
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import { api, expectJson } from "../support/api";
import { OLDEST } from "../support/bundle-versions";
import { type Fixture, seedAccount, statementsPath } from "../support/fixtures";

interface Page {
  data: { statement_id: string; period_end_date: string }[];
  has_more: boolean;
  next_page_token?: string;
}

/** Month numbers (1 = January 2024) of a page's statements. */
const months = (f: Fixture, page: Page) =>
  page.data.map((s) => Number(s.statement_id.slice(`${f.accountId}_st_`.length)));

async function list(f: Fixture, query: string, version?: string) {
  return expectJson<Page>(
    await api(statementsPath(f, query), { key: f.key, ...(version ? { version } : {}) }),
    200,
  );
}

describe("period end date filters", () => {
  // Month m closes at the end of that month, 23:59:59 UTC (test/support/fixtures.ts).
  it("bounds the statement date: the lower bound included, the upper bound excluded", async () => {
    const f = await seedAccount({ statements: 24 });
    // 2024-03-31T23:59:59Z is month 3's statement date exactly; month 6's is 2024-06-30T23:59:59Z.
    const q = "?period_end_date_gte=2024-03-31T23:59:59Z&period_end_date_lt=2024-06-30T23:59:59Z";
    for (const version of bundle.supported("sandbox")) {
      expect(months(f, await list(f, q, version))).toEqual([5, 4, 3]);
    }
    expect(months(f, await list(f, "?period_end_date_gte=2025-10-01T00:00:00Z"))).toEqual([
      24, 23, 22,
    ]);
    expect(months(f, await list(f, "?period_end_date_lt=2024-03-01T00:00:00Z"))).toEqual([2, 1]);
    // Offsets are instants: 01:00+02:00 is 23:00 UTC the day before.
    expect(
      months(f, await list(f, "?period_end_date_gte=2024-02-01T01:00:00%2B02:00&limit=100")).at(-1),
    ).toBe(1);
  });

  it("pages a filtered listing with tokens that only that filter accepts", async () => {
    const f = await seedAccount({ statements: 30 });
    const filter =
      "period_end_date_gte=2024-04-01T00:00:00Z&period_end_date_lt=2025-04-01T00:00:00Z";
    const seen: number[] = [];
    let token: string | undefined;
    do {
      const page = await list(f, `?limit=5&${filter}${token ? `&starting_after=${token}` : ""}`);
      seen.push(...months(f, page));
      token = page.next_page_token;
    } while (token);
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => 15 - i));

    const first = await list(f, `?limit=5&${filter}`);
    for (const other of [
      "", // no filter at all
      "&period_end_date_gte=2024-04-01T00:00:00Z", // one bound dropped
      "&period_end_date_gte=2024-05-01T00:00:00Z&period_end_date_lt=2025-04-01T00:00:00Z",
    ]) {
      const res = await api(statementsPath(f, `?starting_after=${first.next_page_token}${other}`), {
        key: f.key,
        version: "latest",
      });
      expect(await expectJson(res, 400)).toMatchObject({
        error: { type: "INVALID_REQUEST_ERROR", param: "starting_after" },
      });
    }
    // The same instants written another way are the same filter.
    const same =
      "period_end_date_gte=2024-04-01T02:00:00%2B02:00&period_end_date_lt=2025-04-01T00:00:00.000Z";
    const next = await list(f, `?limit=5&${same}&starting_after=${first.next_page_token}`);
    expect(months(f, next)).toEqual([10, 9, 8, 7, 6]);
  });

  it("answers an unfiltered token only without filters", async () => {
    const f = await seedAccount({ statements: 4 });
    const first = await list(f, "?limit=2");
    const res = await api(
      statementsPath(
        f,
        `?starting_after=${first.next_page_token}&period_end_date_lt=2030-01-01T00:00:00Z`,
      ),
      { key: f.key },
    );
    expect(res.status).toBe(400);
    expect(months(f, await list(f, `?limit=2&starting_after=${first.next_page_token}`))).toEqual([
      2, 1,
    ]);
  });

  it.each([
    ["a date without a time", "period_end_date_gte=2024-01-01"],
    ["a time without an offset", "period_end_date_gte=2024-01-01T00:00:00"],
    ["a day the calendar lacks", "period_end_date_lt=2024-02-30T00:00:00Z"],
    ["a Unix timestamp", "period_end_date_lt=1704067200"],
    ["an empty value", "period_end_date_gte="],
    [
      "a repeated bound",
      "period_end_date_gte=2024-01-01T00:00:00Z&period_end_date_gte=2024-02-01T00:00:00Z",
    ],
    [
      "an empty range",
      "period_end_date_gte=2024-05-01T00:00:00Z&period_end_date_lt=2024-05-01T00:00:00Z",
    ],
    [
      "a reversed range",
      "period_end_date_gte=2024-06-01T00:00:00Z&period_end_date_lt=2024-05-01T00:00:00Z",
    ],
  ])("refuses %s with 400 InvalidRequestError", async (_, query) => {
    const f = await seedAccount({ statements: 2 });
    const old = await api(statementsPath(f, `?${query}`), { key: f.key, version: OLDEST });
    const body = await expectJson<{ error: string; details: string[] }>(old, 400);
    expect(body.error).toBe("Bad Request");
    expect(body.details[0]).toMatch(/period_end_date_(gte|lt)/);
    const latest = await api(statementsPath(f, `?${query}`), { key: f.key, version: "latest" });
    expect(await expectJson(latest, 400)).toMatchObject({
      error: { type: "INVALID_REQUEST_ERROR", param: expect.stringMatching(/^period_end_date_/) },
    });
  });
});
