// What one statement and a page of its line items cost in D1, on every shard, read from the
// Worker's per-request log line: one round trip each (the reads ride in the key lookup's
// statement), a statement in 4 rows, and a page of line items in at most limit + 5 rows without a
// filter or with one type (exactly as many 800 line items deep as on the first page), and
// k × (limit + 2) + 4 with k types, at any depth. The figures measured are printed for the record.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, expectJson } from "../support/api";
import { type Fixture, importData, seedAccount } from "../support/fixtures";
import { type LineItemPage, statementPath, statementWithLineItems } from "../support/line-items";
import { type RequestLog, withRequestLog } from "../support/request-log";
import { SHARDS, shardOf } from "../support/shards";

/** 996 purchases and one payment, refund, interest charge and fee: the most a statement holds. */
const PURCHASES = 996;
/** The deep pages start after this many line items (of the listing, or of the filter). */
const DEEP = 800;

const FILTERS: { name: string; query: string; types: number }[] = [
  { name: "no filter", query: "", types: 1 },
  { name: "one type", query: "&type=PURCHASE", types: 1 },
  { name: "three types", query: "&type=PURCHASE,FEE,REFUND", types: 3 },
  { name: "five types", query: "&type=PURCHASE,PAYMENT,REFUND,INTEREST,FEE", types: 5 },
  { name: "every type", query: "&type=PURCHASE,PAYMENT,CREDIT,REFUND,INTEREST,FEE", types: 1 },
];

/** The bound each filter is held to: its branches' rows, the key, its partner, the account and statement. */
const bound = (limit: number, types: number) => (types === 1 ? limit + 5 : types * (limit + 1) + 4);

const measured: Record<string, number | string> = {};
afterAll(() => {
  console.info(
    `rows read per line items page (shard filter limit first/deep): ${JSON.stringify(measured)}`,
  );
});

async function pageWithLog(
  f: Fixture,
  statementId: string,
  query: string,
): Promise<{ page: LineItemPage; log: RequestLog }> {
  const { res, log } = await withRequestLog(() =>
    api(statementPath(f, statementId, `/line_items?${query}`), { key: f.key }),
  );
  return { page: await expectJson<LineItemPage>(res, 200), log };
}

describe.each(SHARDS)("cost of one statement and its line items on shard %s", (shard) => {
  let f: Fixture;
  let statementId: string;
  /** Per filter, a token DEEP line items into its listing (at limit 100). */
  const deep = new Map<string, string>();

  beforeAll(async () => {
    f = await seedAccount({ shard, statements: 1 });
    expect(await shardOf(f.partnerId)).toBe(shard);
    const s = statementWithLineItems(f.accountId, 2, { purchases: PURCHASES });
    statementId = s.statement_id;
    // Another statement of the account with as many line items, so that no read can stop at the
    // end of the table.
    const beside = statementWithLineItems(f.accountId, 3, { purchases: PURCHASES });
    await importData({ statements: [s, beside] });
    for (const filter of FILTERS) {
      let token: string | undefined;
      for (let seen = 0; seen < DEEP; seen += 100) {
        const after = token ? `&starting_after=${token}` : "";
        const { page } = await pageWithLog(f, statementId, `limit=100${filter.query}${after}`);
        expect(page.data).toHaveLength(100);
        token = page.next_page_token;
      }
      deep.set(filter.name, token as string);
    }
  }, 120_000);

  it("reads one statement in one round trip and 4 rows", async () => {
    const { res, log } = await withRequestLog(() =>
      api(statementPath(f, statementId), { key: f.key }),
    );
    expect(res.status).toBe(200);
    expect(log.d1_queries).toBe(1);
    expect(log.d1_rows_read).toBeLessThanOrEqual(4);
    measured[`${shard} retrieve`] = log.d1_rows_read;
  });

  for (const filter of FILTERS) {
    for (const limit of [10, 100]) {
      it(`reads a page with ${filter.name} at limit=${limit} in one round trip, first and ${DEEP} deep`, async () => {
        const first = await pageWithLog(f, statementId, `limit=${limit}${filter.query}`);
        const later = await pageWithLog(
          f,
          statementId,
          `limit=${limit}${filter.query}&starting_after=${deep.get(filter.name)}`,
        );
        measured[`${shard} ${filter.name} ${limit}`] =
          `${first.log.d1_rows_read}/${later.log.d1_rows_read}`;
        for (const { page, log } of [first, later]) {
          expect(page.data).toHaveLength(limit);
          expect(page.has_more).toBe(true);
          expect(log.d1_queries).toBe(1);
          expect(log.d1_rows_read).toBeLessThanOrEqual(bound(limit, filter.types));
        }
        // One keyset branch: depth costs nothing, the keyset starts where the token says.
        if (filter.types === 1) expect(later.log.d1_rows_read).toBe(first.log.d1_rows_read);
      });
    }
  }

  it("reads no line item for a key that is not live", async () => {
    const { res, log } = await withRequestLog(() =>
      api(statementPath(f, statementId, "/line_items?limit=100"), { key: "sk_sandbox_wrong" }),
    );
    expect(res.status).toBe(401);
    expect(log.d1_rows_read).toBeLessThanOrEqual(1);
  });
});
