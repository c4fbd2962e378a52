// A statement's rewards: taken by the import (categories summing to what was earned, each one of
// the account's product's, cash back in the statement's currency), never changed once stored, and
// served by the list and the retrieve in every version, omitted when not recorded.
import { describe, expect, it } from "vitest";
import { readPdf } from "../../renderer/test/pdf-reader";
import { api, type ErrorBody, expectJson, operator, type StatementList } from "../support/api";
import { ALL_VERSIONS } from "../support/bundle-versions";
import { eventually } from "../support/eventually";
import {
  createKey,
  importData,
  monthlyStatement,
  newAccountImport,
  seedAccount,
  statementsPath,
} from "../support/fixtures";
import { expectConflict, expectInvalid } from "../support/imports";

const CATEGORIES = [
  {
    category_id: "dining",
    name: "Dining",
    merchant_category_codes: ["5812"],
    earn_rate: "3",
    earn_unit: "POINTS_PER_DOLLAR" as const,
  },
  {
    category_id: "everything",
    name: "Everything else",
    merchant_category_codes: [],
    earn_rate: "1",
    earn_unit: "POINTS_PER_DOLLAR" as const,
  },
];

const REWARDS = {
  unit: "POINTS",
  earned: 120,
  redeemed: 50,
  balance: 1070,
  by_category: [
    { category_id: "dining", earned: 90 },
    { category_id: "everything", earned: 30 },
  ],
};

/** An account whose product has CATEGORIES. */
async function rewardsAccount() {
  const f = await seedAccount();
  const res = await operator("PATCH", `/products/${f.merchantKey}`, {
    rewards_categories: CATEGORIES,
  });
  expect(res.status).toBe(200);
  return f;
}

describe("a statement's rewards", () => {
  it("are served by the list and the retrieve in every version, as imported", async () => {
    const f = await rewardsAccount();
    const withRewards = { ...monthlyStatement(f.accountId, 2), rewards: REWARDS };
    const without = monthlyStatement(f.accountId, 1);
    await importData({ statements: [without, withRewards] });
    for (const version of ALL_VERSIONS) {
      const list = await expectJson<StatementList>(
        await api(statementsPath(f), { key: f.key, version }),
        200,
      );
      expect(list.data.map((s) => s.rewards)).toEqual([REWARDS, undefined]);
      expect(list.data[1]).not.toHaveProperty("rewards");
      const one = await expectJson(
        await api(statementsPath(f, `/${withRewards.statement_id}`), { key: f.key, version }),
        200,
      );
      expect(one.rewards).toEqual(REWARDS);
    }
  });

  it("may be cash back in the statement's currency, with only what was earned", async () => {
    const f = await rewardsAccount();
    const rewards = { unit: "USD", earned: 245 };
    await importData({ statements: [{ ...monthlyStatement(f.accountId, 1), rewards }] });
    const list = await expectJson<StatementList>(await api(statementsPath(f), { key: f.key }), 200);
    expect(list.data[0]?.rewards).toEqual(rewards);
  });

  it("name categories the same import gives the product", async () => {
    const { ids, payload } = newAccountImport();
    const product = payload.partners?.[0]?.products?.[0];
    if (!product) throw new Error("the fixture has no product");
    product.rewards_categories = CATEGORIES;
    payload.statements = [{ ...monthlyStatement(ids.accountId, 1), rewards: REWARDS }];
    await importData(payload);
    const { apiKey } = await createKey(ids.partnerId, "sandbox", ["ACCOUNT_READ"]);
    const list = await expectJson<StatementList>(
      await api(statementsPath(ids), { key: apiKey }),
      200,
    );
    expect(list.data[0]?.rewards).toEqual(REWARDS);
  });

  it("refuses categories that do not sum to what was earned, naming the statement", async () => {
    const f = await rewardsAccount();
    const statement = monthlyStatement(f.accountId, 1);
    await expectInvalid(
      { statements: [{ ...statement, rewards: { ...REWARDS, earned: 121 } }] },
      `statements[0] ("${statement.statement_id}").rewards.by_category: earned sums to 120 but ` +
        "the statement's rewards earned 121: a difference of 1",
    );
    await expectInvalid(
      {
        statements: [
          {
            ...statement,
            rewards: {
              ...REWARDS,
              earned: 180,
              by_category: [...REWARDS.by_category, { category_id: "dining", earned: 60 }],
            },
          },
        ],
      },
      'rewards.by_category[2] ("dining").category_id: repeats by_category[0]',
    );
    const list = await expectJson<StatementList>(await api(statementsPath(f), { key: f.key }), 200);
    expect(list.data).toEqual([]);
  });

  it("refuses a category the account's product does not have", async () => {
    const f = await rewardsAccount();
    const other = await seedAccount();
    const statement = monthlyStatement(f.accountId, 1);
    const rewards = {
      unit: "POINTS",
      earned: 10,
      by_category: [{ category_id: "travel", earned: 10 }],
    };
    await expectInvalid(
      { statements: [{ ...statement, rewards }] },
      `statements[0] ("${statement.statement_id}").rewards.by_category[0] ("travel").category_id: ` +
        "is not one of the rewards categories of the account's product",
    );
    // Another product's categories are not this one's: the other has none.
    await expectInvalid(
      { statements: [{ ...monthlyStatement(other.accountId, 1), rewards: REWARDS }] },
      'rewards.by_category[0] ("dining").category_id: is not one of the rewards categories',
    );
  });

  it.each([
    [
      "a currency other than the statement's",
      { unit: "EUR", earned: 5 },
      "must be POINTS or the statement's currency (USD), not EUR",
    ],
    [
      "a unit that is neither",
      { unit: "miles", earned: 5 },
      "rewards.unit: must be POINTS or a currency code",
    ],
    [
      "a negative balance",
      { unit: "POINTS", earned: 5, balance: -1 },
      "rewards.balance: must not be negative",
    ],
    ["an unknown field", { unit: "POINTS", earned: 5, bonus: 1 }, "rewards"],
  ])("refuses %s", async (_what, rewards, fragment) => {
    const f = await rewardsAccount();
    await expectInvalid(
      { statements: [{ ...monthlyStatement(f.accountId, 1), rewards }] },
      fragment,
    );
  });

  it("never change once stored: a re-import with other rewards is a conflict", async () => {
    const f = await rewardsAccount();
    const statement = { ...monthlyStatement(f.accountId, 1), rewards: REWARDS };
    await importData({ statements: [statement] });
    // The same rewards again are the same statement.
    await importData({ statements: [statement] });
    await expectConflict(
      { statements: [{ ...statement, rewards: { ...REWARDS, redeemed: 0 } }] },
      "a closed statement's figures never change",
    );
    await expectConflict(
      { statements: [monthlyStatement(f.accountId, 1)] },
      "a closed statement's figures never change",
    );
  });

  it("in a restatement, name only the product's categories", async () => {
    const f = await rewardsAccount();
    const original = monthlyStatement(f.accountId, 1);
    await importData({ statements: [original] });
    const restate = (rewards: unknown) =>
      operator("POST", `/statements/${original.statement_id}/restatements`, {
        ...original,
        statement_id: `${original.statement_id}_r`,
        rewards,
      });
    const refused = await expectJson<ErrorBody>(
      await restate({ unit: "POINTS", earned: 1, by_category: [{ category_id: "x", earned: 1 }] }),
      400,
    );
    expect(refused.error.details).toEqual([
      'rewards.by_category[0] ("x").category_id: is not one of the rewards categories of the ' +
        "account's product",
    ]);
    expect(await expectJson(await restate(REWARDS), 201)).toMatchObject({
      restates: original.statement_id,
    });
    const list = await expectJson<StatementList>(await api(statementsPath(f), { key: f.key }), 200);
    expect(list.data[0]?.rewards).toEqual(REWARDS);
  });

  it("are drawn in the rendered document's Rewards section, categories by name", async () => {
    const f = await seedAccount({ documents: "rendered" });
    const set = await operator("PATCH", `/products/${f.merchantKey}`, {
      rewards_categories: CATEGORIES,
    });
    expect(set.status).toBe(200);
    const plain = monthlyStatement(f.accountId, 1);
    const rewarded = { ...monthlyStatement(f.accountId, 2), rewards: REWARDS };
    await importData({ statements: [plain, rewarded] });
    const page = await eventually(
      async () =>
        expectJson<StatementList>(
          await api(statementsPath(f), { key: f.key, version: "latest" }),
          200,
        ),
      (body) => body.data.every((s) => s.pdf !== undefined),
    );
    const textOf = async (statement: Record<string, unknown> | undefined) => {
      const url = new URL((statement?.pdf as { url: string } | undefined)?.url ?? "");
      const pdf = new Uint8Array(await (await api(url.pathname + url.search)).arrayBuffer());
      return (await readPdf(pdf)).pageText.join("\n");
    };
    const text = await textOf(page.data[0]);
    for (const phrase of [
      "Rewards category Earned this period",
      "Dining 90 points",
      "Everything else 30 points",
      "Earned this period 120 points",
      "Redeemed this period 50 points",
      "Rewards balance 1,070 points",
    ]) {
      expect(text).toContain(phrase);
    }
    expect(await textOf(page.data[1])).not.toContain("Rewards");
  });
});
