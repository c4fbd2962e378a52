// The operator import of a statement's line items, rates and year-to-date totals (CONTRACT §9):
// every field checked, the figures checked to add up, each refusal a 400 naming the statement,
// the field and the difference, and nothing of the import stored; re-imports are no-ops when
// identical (line items included) and 409 otherwise; the bounds per statement and per import.
import { beforeEach, describe, expect, it } from "vitest";
import { MAX_LINE_ITEMS_PER_IMPORT } from "../../src/domain/line-item";
import { api, expectJson } from "../support/api";
import { type Fixture, importData, seedAccount } from "../support/fixtures";
import { expectConflict, expectInvalid, listStatements, postImport } from "../support/imports";
import {
  type LineItemInput,
  postedAt,
  statementPath,
  statementWithLineItems,
} from "../support/line-items";
import { countOnEveryShard } from "../support/shards";

let f: Fixture;
beforeEach(async () => {
  f = await seedAccount({ statements: 1 });
});

/** The statement of month 2 with its line items changed by `change`, the rest as built. */
function withItems(change: (items: LineItemInput[]) => LineItemInput[], id?: string) {
  const s = statementWithLineItems(f.accountId, 2, id ? { id } : {});
  return { ...s, line_items: change(structuredClone(s.line_items ?? [])) };
}

/** Nothing of the refused import is stored: no statement, no line item, no event. */
async function expectNothingStored(statementId: string): Promise<void> {
  const count = (table: string) =>
    countOnEveryShard(`SELECT count(*) AS n FROM ${table} WHERE statement_id = ?`, statementId);
  expect(await count("statements")).toBe(0);
  expect(await count("statement_line_items")).toBe(0);
  expect(await count("events")).toBe(0);
  const listed = await listStatements(f);
  expect(listed.data.map((s) => s.statement_id)).not.toContain(statementId);
}

/** Imports the statement (with a second, valid one beside it) and expects the refusal. */
async function refused(statement: Record<string, unknown>, ...fragments: string[]) {
  const other = statementWithLineItems(f.accountId, 3);
  const body = await expectInvalid({ statements: [other, statement] }, ...fragments);
  await expectNothingStored(String(statement.statement_id));
  await expectNothingStored(other.statement_id);
  return body;
}

describe("line items that do not add up", () => {
  it("refuses a type whose line items miss its total, naming the statement, total and difference", async () => {
    const s = withItems((items) =>
      items.map((i) => (i.line_item_id.endsWith("_0001") ? { ...i, amount: i.amount - 7 } : i)),
    );
    await refused(
      s,
      `statements[1] ("${s.statement_id}").purchases: is ${s.purchases} but its PURCHASE line ` +
        `items sum to ${(s.purchases as number) - 7}: a difference of 7`,
      `statements[1] ("${s.statement_id}").statement_balance: is ${s.statement_balance} but ` +
        `previous_balance (9000) plus the line items`,
    );
  });

  it("refuses line items of a type whose total is absent", async () => {
    const { fees: _fees, ...s } = withItems((items) => items);
    const body = await refused(
      s,
      `statements[1] ("${s.statement_id}").fees: is absent, which means no FEE line items, but ` +
        "they sum to 50: a difference of -50",
    );
    expect(body.error.details).toHaveLength(1);
  });

  it("refuses a total without the line items to make it", async () => {
    const s = withItems((items) => items.filter((i) => i.type !== "REFUND"));
    await refused(
      { ...s, statement_balance: (s.statement_balance as number) + 200 },
      `statements[1] ("${s.statement_id}").refunds: is -200 but its REFUND line items sum to 0: ` +
        "a difference of -200",
    );
  });

  it("refuses a statement balance that is not the previous balance plus every line item", async () => {
    const s = withItems((items) => items);
    await refused(
      { ...s, statement_balance: (s.statement_balance as number) + 1 },
      `statements[1] ("${s.statement_id}").statement_balance: is ${(s.statement_balance as number) + 1} ` +
        `but previous_balance (9000) plus the line items (${(s.statement_balance as number) - 9000}) ` +
        `is ${s.statement_balance}: a difference of 1`,
    );
  });

  it("checks the balance only when both balances are given", async () => {
    const { previous_balance: _p, ...s } = withItems((items) => items);
    await importData({ statements: [{ ...s, statement_balance: 1 }] });
    const served = await expectJson<Record<string, unknown>>(
      await api(statementPath(f, s.statement_id), { key: f.key }),
      200,
    );
    expect(served.statement_balance).toBe(1);
  });

  it("refuses rates whose interest is not the statement's, and a year to date below the cycle", async () => {
    const s = withItems((items) => items);
    await refused(
      {
        ...s,
        interest_rates: [
          {
            balance_type: "PURCHASES",
            annual_percentage_rate: "24.99",
            balance_subject_to_interest: 7200,
            interest: 100,
          },
          {
            balance_type: "CASH_ADVANCES",
            annual_percentage_rate: "29.99",
            balance_subject_to_interest: 500,
            interest: 20,
          },
        ],
        year_to_date: { fees: 49, interest: 150 },
      },
      `statements[1] ("${s.statement_id}").interest_rates: interest sums to 120 but the ` +
        "statement's interest is 150: a difference of 30",
      `statements[1] ("${s.statement_id}").year_to_date.fees: is 49, less than the cycle's own ` +
        "fees (50)",
    );
  });

  it("refuses rates with interest on a statement without interest", async () => {
    const { interest: _i, line_items, ...s } = statementWithLineItems(f.accountId, 2);
    await refused(
      {
        ...s,
        statement_balance: (s.statement_balance as number) - 150,
        line_items: (line_items ?? []).filter((i) => i.type !== "INTEREST"),
      },
      `statements[1] ("${s.statement_id}").interest_rates: interest sums to 150 but the ` +
        "statement's interest is absent (none): a difference of -150",
    );
  });
});

describe("each line item field", () => {
  const item = (change: Partial<LineItemInput> | ((i: LineItemInput) => unknown)) =>
    withItems((items) =>
      items.map((i) =>
        i.line_item_id.endsWith("_0000")
          ? typeof change === "function"
            ? (change(i) as LineItemInput)
            : { ...i, ...change }
          : i,
      ),
    );
  const where = (s: { statement_id: string }, field: string) =>
    `statements[1] ("${s.statement_id}").line_items[0] ("${s.statement_id}_li_0000")` +
    (field ? `.${field}` : "");

  const cases: [string, Partial<LineItemInput> | ((i: LineItemInput) => unknown), string][] = [
    ["an unknown type", { type: "CHARGEBACK" as "FEE" }, "type: must be one of"],
    [
      "a purchase of negative amount",
      { amount: -100 },
      "amount: must not be negative: a PURCHASE is a charge",
    ],
    ["a fractional amount", { amount: 1.5 }, "amount: must be an integer, not a fraction (1.5)"],
    [
      "a posting before the period",
      { posted_at: "2024-01-31T23:59:59Z" },
      "posted_at: must be inside the statement's period",
    ],
    [
      "a posting after the period",
      { posted_at: "2024-03-01T00:00:00Z" },
      "posted_at: must be inside the statement's period",
    ],
    [
      "a posting that is no timestamp",
      { posted_at: "2024-02-30" },
      "posted_at: must be an RFC 3339 timestamp",
    ],
    [
      "a transaction after its posting",
      { transaction_date: "2024-02-28T00:00:00Z" },
      "transaction_date: must not be after posted_at",
    ],
    ["an empty description", { description: "" }, "description: must not be empty or blank"],
    ["a blank description", { description: "   " }, "description: must not be empty or blank"],
    [
      "a description of 201 characters",
      { description: "é".repeat(201) },
      "description: must be at most 200 characters long",
    ],
    [
      "a description with a control character",
      { description: "COFFEE\u0007" },
      "description: must not hold control characters",
    ],
    [
      "a 3-digit MCC",
      (i) => ({ ...i, merchant: { name: "Shop", category_code: "581" } }),
      "merchant.category_code: must be a 4-digit merchant category code",
    ],
    [
      "a country that is not ISO 3166-1",
      (i) => ({ ...i, merchant: { name: "Shop", category_code: "5411", country: "XX" } }),
      "merchant.country: must be an ISO 3166-1 alpha-2 country code",
    ],
    [
      "a country in lower case",
      (i) => ({ ...i, merchant: { name: "Shop", category_code: "5411", country: "us" } }),
      "merchant.country: must be an ISO 3166-1 alpha-2 country code",
    ],
    [
      "a merchant without a name",
      (i) => ({ ...i, merchant: { category_code: "5411" } }),
      "merchant.name: is required",
    ],
    [
      "an original amount without its currency",
      { original_amount: 95 },
      "original_currency: is required with original_amount or original_currency",
    ],
    [
      "an original currency without its amount",
      { original_currency: "EUR" },
      "original_amount: is required with original_amount or original_currency",
    ],
    [
      "an original amount of the other sign",
      { original_amount: -95, original_currency: "EUR" },
      "original_amount: must have the sign of amount",
    ],
    [
      "an original currency that is no code",
      { original_amount: 95, original_currency: "euro" },
      "original_currency: must be 3 capital letters",
    ],
    ["a card ending that is not 4 digits", { card_last4: "42a4" }, "card_last4: must be 4 digits"],
    ["an unknown field", { note: "x" } as Partial<LineItemInput>, ': unknown field(s) "note"'],
  ];
  for (const [name, change, fragment] of cases) {
    it(`refuses ${name}, naming the line item and field`, async () => {
      const s = item(change);
      const [field, ...message] = fragment.split(": ");
      await refused(s, `${where(s, field as string)}: ${message.join(": ")}`);
    });
  }

  it("refuses each money-back type with a positive amount", async () => {
    for (const type of ["PAYMENT", "CREDIT", "REFUND"] as const) {
      const s = withItems((items) => [
        ...items,
        { line_item_id: "li_extra", type, posted_at: postedAt(2, 3), description: "X", amount: 1 },
      ]);
      await refused(
        s,
        `("li_extra").amount: must not be positive: a ${type} is money credited back`,
      );
    }
  });

  it("refuses a line item id used twice in one statement, but not in two statements", async () => {
    const s = withItems((items) => [
      ...items,
      { ...(items[0] as LineItemInput), amount: 0, transaction_date: undefined },
    ]);
    const last = (s.line_items?.length ?? 0) - 1;
    await refused(
      s,
      `statements[1] ("${s.statement_id}").line_items[${last}] ("${s.statement_id}_li_0000")` +
        ".line_item_id: repeats line_items[0]",
    );
    // The same ids in another statement are its own.
    const a = statementWithLineItems(f.accountId, 4, { id: "st_same_ids_a" });
    const b = {
      ...statementWithLineItems(f.accountId, 4, { id: "st_same_ids_b" }),
      line_items: a.line_items,
    };
    await importData({
      statements: [
        { ...a, statement_id: `${f.accountId}_a` },
        { ...b, statement_id: `${f.accountId}_b` },
      ],
    });
  });

  it("refuses an APR that is not a decimal string, and a balance type listed twice", async () => {
    const rate = (annual_percentage_rate: unknown, balance_type = "PURCHASES") => ({
      balance_type,
      annual_percentage_rate,
      balance_subject_to_interest: 7200,
      interest: 150,
    });
    for (const apr of ["024.99", "24.99999", "-1", "1000", "24,99", 24.99, ""]) {
      const s = { ...withItems((i) => i), interest_rates: [rate(apr)] };
      await refused(s, `("${s.statement_id}").interest_rates[0].annual_percentage_rate: must be a`);
    }
    const s = {
      ...withItems((i) => i),
      interest_rates: [rate("24.99"), { ...rate("19.99"), interest: 0 }],
    };
    await refused(s, "interest_rates[1].balance_type: repeats PURCHASES");
    const unknown = { ...withItems((i) => i), interest_rates: [rate("24.99", "RETAIL")] };
    await refused(unknown, "interest_rates[0].balance_type: must be one of");
  });

  it("accepts the APR forms it documents", async () => {
    for (const [i, apr] of ["0", "7.5", "24.99", "999.9999"].entries()) {
      const s = statementWithLineItems(f.accountId, 5 + i);
      await importData({
        statements: [
          {
            ...s,
            interest_rates: (s.interest_rates ?? []).map((r) => ({
              ...r,
              annual_percentage_rate: apr,
            })),
          },
        ],
      });
    }
  });
});

describe("bounds", () => {
  it("takes 1,000 line items in a statement and refuses 1,001", async () => {
    const thousand = statementWithLineItems(f.accountId, 6, { purchases: 996 });
    expect(thousand.line_items).toHaveLength(1000);
    await importData({ statements: [thousand] });
    expect(
      await countOnEveryShard(
        "SELECT count(*) AS n FROM statement_line_items WHERE statement_id = ?",
        thousand.statement_id,
      ),
    ).toBe(1000);
    const more = statementWithLineItems(f.accountId, 7, { purchases: 997 });
    await refused(
      more,
      `statements[1] ("${more.statement_id}").line_items: must hold at most 1000 items`,
    );
  });

  it(`refuses more than ${MAX_LINE_ITEMS_PER_IMPORT} line items in one import`, async () => {
    const per = 1000;
    const count = Math.floor(MAX_LINE_ITEMS_PER_IMPORT / per) + 1;
    const statements = Array.from({ length: count }, (_, i) =>
      statementWithLineItems(f.accountId, 1, {
        id: `${f.accountId}_bulk_${i}`,
        purchases: per - 4,
      }),
    );
    const body = await expectInvalid(
      { statements },
      `statements: carry at most ${MAX_LINE_ITEMS_PER_IMPORT} line items in all (${count * per} sent)`,
    );
    expect(body.error.details).toHaveLength(1);
    expect(
      await countOnEveryShard(
        "SELECT count(*) AS n FROM statements WHERE statement_id LIKE ?",
        `${f.accountId}_bulk_%`,
      ),
    ).toBe(0);
  });
});

describe("re-importing a statement with line items", () => {
  it("is a no-op when identical, line items in any order, and refused when they differ", async () => {
    const s = statementWithLineItems(f.accountId, 2);
    await importData({ statements: [s] });
    const events = () =>
      countOnEveryShard("SELECT count(*) AS n FROM events WHERE statement_id = ?", s.statement_id);
    expect(await events()).toBe(1);
    // The same statement, its line items and rates listed in another order: the same statement.
    await importData({ statements: [{ ...s, line_items: [...(s.line_items ?? [])].reverse() }] });
    expect(await events()).toBe(1);

    const conflict = `statements[0] ("${s.statement_id}"): a closed statement's figures never change`;
    const changedItem = (s.line_items ?? []).map((i, n) =>
      n === 0 ? { ...i, description: "ANOTHER SHOP" } : i,
    );
    await expectConflict({ statements: [{ ...s, line_items: changedItem }] }, conflict);
    const { line_items: _items, ...withoutItems } = s;
    await expectConflict({ statements: [withoutItems] }, conflict);
    await expectConflict(
      { statements: [{ ...s, year_to_date: { fees: 1000, interest: 1000 } }] },
      conflict,
    );
    const { interest_rates: _rates, ...withoutRates } = s;
    await expectConflict({ statements: [withoutRates] }, conflict);

    // A statement stored without line items is not given some by a re-import.
    const plain = `${f.accountId}_st_001`;
    const res = await postImport({
      statements: [{ ...statementWithLineItems(f.accountId, 1, { id: plain }) }],
    });
    expect(res.status).toBe(409);
    expect(
      await countOnEveryShard(
        "SELECT count(*) AS n FROM statement_line_items WHERE statement_id = ?",
        plain,
      ),
    ).toBe(0);
  });

  it("refuses a line item update in the database itself", async () => {
    const s = statementWithLineItems(f.accountId, 2);
    await importData({ statements: [s] });
    const { partnerDatabase } = await import("../support/shards");
    const db = await partnerDatabase(f.partnerId);
    await expect(
      db
        .prepare("UPDATE statement_line_items SET amount = amount + 1 WHERE statement_id = ?")
        .bind(s.statement_id)
        .run(),
    ).rejects.toThrow(/statement_figures_immutable/);
    await expect(
      db
        .prepare("UPDATE statements SET ytd_fees = 0 WHERE statement_id = ?")
        .bind(s.statement_id)
        .run(),
    ).rejects.toThrow(/statement_figures_immutable/);
  });
});
