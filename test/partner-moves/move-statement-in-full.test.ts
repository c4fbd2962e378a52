// A partner's line items, rates and correction links move with it to another shard: the same
// statements, line items and links are read from the new shard, and none is left on the old.
import { describe, expect, it } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { importData, seedAccount, statementsPath } from "../support/fixtures";
import type { Json } from "../support/json";
import { allLineItems, statementPath, statementWithLineItems } from "../support/line-items";
import { moveToTheEnd } from "../support/moves";
import { SHARDS, shardDatabase, shardOf } from "../support/shards";

describe("moving a partner with line items and corrections", () => {
  it("reads the same statements, line items and links from the new shard", {
    timeout: 60_000,
  }, async () => {
    const [from, to] = [SHARDS[0] as string, SHARDS[1] as string];
    const f = await seedAccount({ shard: from, statements: 1 });
    const original = statementWithLineItems(f.accountId, 2, { purchases: 300 });
    await importData({ statements: [original] });
    const correction = statementWithLineItems(f.accountId, 2, {
      id: `${f.accountId}_fix`,
      purchases: 301,
    });
    const res = await operator(
      "POST",
      `/statements/${original.statement_id}/restatements`,
      correction,
    );
    expect(res.status).toBe(201);

    const read = async () => ({
      list: await expectJson<Json>(await api(statementsPath(f), { key: f.key }), 200),
      original: await expectJson<Json>(
        await api(statementPath(f, original.statement_id), { key: f.key }),
        200,
      ),
      items: [
        (await allLineItems(f, original.statement_id)).items,
        (await allLineItems(f, correction.statement_id)).items,
      ],
    });
    const strip = (value: Json) =>
      JSON.parse(JSON.stringify(value, (k, v) => (k === "as_of" ? undefined : v)));
    const before = strip(await read());
    expect(before.items[0]).toHaveLength(304);
    expect(before.items[1]).toHaveLength(305);

    await moveToTheEnd(f.partnerId, to);
    expect(await shardOf(f.partnerId)).toBe(to);
    expect(strip(await read())).toEqual(before);
    const left = await shardDatabase(from)
      .prepare("SELECT count(*) AS n FROM statement_line_items WHERE statement_id IN (?, ?)")
      .bind(original.statement_id, correction.statement_id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});
