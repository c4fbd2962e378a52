// The periodic statement as the service renders it: a statement imported with line items, rates
// and year-to-date totals is drawn in full (every line item, each group's total, the year to date,
// the interest charge calculation); a correction names the statement it replaces; a product's
// statement terms (billing-rights address, late-payment terms, minimum-payment rule, credit
// counselling number) are set through the operator API, checked field by field, and drawn; a
// product that sets none, and a statement without line items, keep the one-page summary. A render
// reads D1 a fixed number of times, however many line items the statement carries.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readPdf } from "../../renderer/test/pdf-reader";
import { api, type ErrorBody, expectJson, operator, type StatementList } from "../support/api";
import { eventually } from "../support/eventually";
import { StorageProbe } from "../support/faulty-storage";
import {
  type Fixture,
  importData,
  monthlyStatement,
  seedAccount,
  statementsPath,
  uniqueId,
} from "../support/fixtures";
import { type LineItemInput, statementWithLineItems } from "../support/line-items";
import { consume } from "../support/renders";
import { partnerDatabase, shardDatabase, shardOf } from "../support/shards";

/** Dollars as the document writes them: "$1,234.56", "-$500.00". */
const usd = (minor: number) => {
  const dollars = (Math.abs(minor) / 100).toLocaleString("en-US", { minimumFractionDigits: 2 });
  return `${minor < 0 ? "-" : ""}$${dollars}`;
};

/** Asserts each phrase appears, in this order. */
function expectInOrder(text: string, phrases: string[]) {
  let from = 0;
  for (const phrase of phrases) {
    const at = text.indexOf(phrase, from);
    expect(at, `"${phrase}" after position ${from} in: ${text}`).toBeGreaterThanOrEqual(0);
    from = at + phrase.length;
  }
}

/** The text of a statement's document, page by page, once it is rendered. */
async function renderedText(f: Fixture, statementId: string): Promise<string[]> {
  const page = await eventually(
    async () =>
      expectJson<StatementList>(
        await api(statementsPath(f, "?limit=100"), { key: f.key, version: "latest" }),
        200,
      ),
    (body) => body.data.some((s) => s.statement_id === statementId && s.pdf !== undefined),
    30_000,
  );
  const listed = page.data.find((s) => s.statement_id === statementId);
  const url = new URL((listed?.pdf as { url: string } | undefined)?.url ?? "");
  const res = await api(url.pathname + url.search);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  return (await readPdf(new Uint8Array(await res.arrayBuffer()))).pageText;
}

const change = (merchantKey: string, body: unknown) =>
  operator("PATCH", `/products/${merchantKey}`, body);

async function refused(merchantKey: string, body: unknown): Promise<string[]> {
  const error = await expectJson<ErrorBody>(await change(merchantKey, body), 400);
  expect(error.error.type).toBe("INVALID_REQUEST_ERROR");
  return error.error.details ?? [];
}

const TERMS = {
  billing_rights_address: ["Acme Card Services", "PO Box 1234", "Wilmington, DE 19850"],
  late_payment: { late_fee: 4000, penalty_apr: "29.99" },
  minimum_payment: {
    percent_of_balance: "1",
    includes_interest_and_fees: false,
    minimum_amount: 2500,
  },
  credit_counseling_phone: "1-800-555-0100",
};

const sumOf = (items: LineItemInput[], ...types: string[]) =>
  items.filter((i) => types.includes(i.type)).reduce((n, i) => n + i.amount, 0);

describe("a rendered periodic statement", { timeout: 60_000 }, () => {
  it("lists every line item by group with its total, the year to date and the interest charged", async () => {
    const f = await seedAccount({ documents: "rendered" });
    const statement = statementWithLineItems(f.accountId, 9, { purchases: 6 });
    await importData({ statements: [statement] });
    const text = (await renderedText(f, statement.statement_id)).join(" ");
    const items = statement.line_items as LineItemInput[];
    const inOrder = (...types: string[]) =>
      items
        .filter((i) => types.includes(i.type))
        .sort((a, b) => a.posted_at.localeCompare(b.posted_at))
        .flatMap((i) => [i.description, usd(i.amount)]);
    const rate = statement.interest_rates?.[0];
    const ytd = statement.year_to_date as { fees: number; interest: number };
    expectInOrder(text, [
      "Transactions",
      "Payments",
      ...inOrder("PAYMENT"),
      `Total payments for this period ${usd(sumOf(items, "PAYMENT"))}`,
      "Other credits",
      ...inOrder("CREDIT", "REFUND"),
      `Total other credits for this period ${usd(sumOf(items, "CREDIT", "REFUND"))}`,
      "Purchases",
      ...inOrder("PURCHASE"),
      `Total purchases for this period ${usd(statement.purchases as number)}`,
      "Fees and interest charged",
      ...inOrder("FEE"),
      `Total fees for this period ${usd(statement.fees as number)}`,
      ...inOrder("INTEREST"),
      `Total interest for this period ${usd(statement.interest as number)}`,
      "2024 totals year-to-date",
      `Total fees charged in 2024 ${usd(ytd.fees)}`,
      `Total interest charged in 2024 ${usd(ytd.interest)}`,
      "Interest charge calculation",
      `Purchases 24.99% ${usd(rate?.balance_subject_to_interest as number)} ${usd(rate?.interest as number)}`,
    ]);
    // The groups' totals are the statement's own figures.
    expect(sumOf(items, "PURCHASE")).toBe(statement.purchases);
    expect(text).toContain("HOTEL DU LAC REFUND Hotel du Lac · CH -CHF 1.90 -$2.00");
    expect(text).not.toContain("Corrected statement");
  });

  it("says on page 1 of a correction which statement it replaces; the original's stays as it was", async () => {
    const f = await seedAccount({ documents: "rendered" });
    const original = statementWithLineItems(f.accountId, 9);
    await importData({ statements: [original] });
    const before = await renderedText(f, original.statement_id);
    const correction = statementWithLineItems(f.accountId, 9, {
      id: `${f.accountId}_fix_${uniqueId("c")}`,
      purchases: 7,
    });
    const res = await operator(
      "POST",
      `/statements/${original.statement_id}/restatements`,
      correction,
    );
    expect(res.status).toBe(201);
    const [first] = await renderedText(f, correction.statement_id);
    expect(first).toContain(
      `Corrected statement — replaces statement ${original.statement_id} of September 30, 2024`,
    );
    // The original's document is the one it had: the restatement rendered only the correction.
    const db = await partnerDatabase(f.partnerId);
    const rendered = await db
      .prepare("SELECT status, generation FROM statement_renders WHERE statement_id = ?")
      .bind(original.statement_id)
      .first();
    expect(rendered).toEqual({ status: "rendered", generation: 0 });
    expect(before.join(" ")).not.toContain("Corrected statement");
  });

  it("keeps the one-page summary for a product without terms and a statement without line items", async () => {
    const f = await seedAccount({ documents: "rendered" });
    const statement = monthlyStatement(f.accountId, 3);
    await importData({ statements: [statement] });
    const pages = await renderedText(f, statement.statement_id);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain("Account summary");
    for (const absent of [
      "Transactions",
      "Late Payment Warning",
      "You will pay off the balance",
      "Billing rights",
      "credit counseling",
      "Interest charge calculation",
    ]) {
      expect(pages[0]).not.toContain(absent);
    }
  });

  it("reads D1 a fixed number of times per render, whatever the number of line items", async () => {
    const f = await seedAccount({ documents: "uploaded" });
    const shard = await shardOf(f.partnerId);
    const calls: number[] = [];
    for (const statement of [
      monthlyStatement(f.accountId, 1),
      statementWithLineItems(f.accountId, 2, { purchases: 300 }),
    ]) {
      await importData({ statements: [statement] });
      const now = new Date().toISOString();
      await shardDatabase(shard)
        .prepare(
          `INSERT INTO statement_renders (statement_id, partner_id, environment, merchant_key,
           status, generation, attempts, requested_at, next_attempt_at)
           VALUES (?, ?, 'sandbox', ?, 'pending', 0, 0, ?, ?)`,
        )
        .bind(statement.statement_id, f.partnerId, f.merchantKey, now, now)
        .run();
      const probe = new StorageProbe();
      const ref = {
        shard,
        partner_id: f.partnerId,
        environment: "sandbox" as const,
        statement_id: statement.statement_id,
        generation: 0,
      };
      const told = await consume(ref, env.STATEMENT_RENDERER, undefined, {
        [`DB_${shard}`]: probe.db(shardDatabase(shard)),
        DIRECTORY: probe.db(env.DIRECTORY),
      });
      expect(told.acked).toBe(true);
      calls.push(probe.calls.filter((call) => call.binding === "DB").length);
    }
    // The partner's row, the job with its line items (one batch), the document's batch.
    expect(calls).toEqual([3, 3]);
  });
});

describe("a product's statement terms", { timeout: 60_000 }, () => {
  it("are set, read back, cleared with null, and drawn on the statement", async () => {
    const f = await seedAccount({ documents: "rendered" });
    const set = await expectJson<Record<string, unknown>>(await change(f.merchantKey, TERMS), 200);
    expect(set).toMatchObject(TERMS);
    const listed = await expectJson<{ data: Record<string, unknown>[] }>(
      await operator("GET", `/partners/${f.partnerId}/products`),
      200,
    );
    expect(listed.data[0]).toMatchObject(TERMS);

    const statement = statementWithLineItems(f.accountId, 9);
    await importData({ statements: [statement] });
    const pages = await renderedText(f, statement.statement_id);
    expect(pages[0]).toContain(
      "Late Payment Warning: If we do not receive your minimum payment by the date listed above, " +
        "you may have to pay a late fee of up to $40.00 and your APRs may be increased up to the " +
        "Penalty APR of 29.99%.",
    );
    const text = pages.join(" ");
    expectInOrder(text, [
      "Minimum Payment Warning",
      "You will pay off the balance shown on this statement in about…",
      "Only the minimum payment 3 months $68",
      "call 1-800-555-0100",
      "Billing rights",
      "Send notices of billing errors to:",
      TERMS.billing_rights_address.join(" "),
    ]);

    // Audited as a presentation change, naming the fields.
    const audit = await expectJson<{ data: { action: string; details: { fields: string[] } }[] }>(
      await operator("GET", `/partners/${f.partnerId}/audit?limit=1`),
      200,
    );
    expect(audit.data[0]?.action).toBe("product.presentation_changed");
    expect(audit.data[0]?.details.fields.sort()).toEqual(Object.keys(TERMS).sort());

    const cleared = await change(f.merchantKey, {
      billing_rights_address: null,
      late_payment: null,
      minimum_payment: null,
      credit_counseling_phone: null,
    });
    expect(await expectJson(cleared, 200)).toMatchObject({
      billing_rights_address: null,
      late_payment: null,
      minimum_payment: null,
      credit_counseling_phone: null,
    });
  });

  it("refuses each field out of bounds with a 400 naming it, and stores nothing", async () => {
    const f = await seedAccount();
    await expectJson(
      await change(f.merchantKey, { credit_counseling_phone: "1-800-555-0100" }),
      200,
    );
    const cases: [unknown, string][] = [
      [{ billing_rights_address: [] }, "billing_rights_address: "],
      [{ billing_rights_address: Array(7).fill("Line") }, "billing_rights_address: "],
      [{ billing_rights_address: ["Acme", "  "] }, "billing_rights_address[1]: must not be blank"],
      [{ billing_rights_address: ["x".repeat(101)] }, "billing_rights_address[0]: "],
      [
        { billing_rights_address: ["PO Box 1\nCity"] },
        "billing_rights_address[0]: must be one line",
      ],
      [{ billing_rights_address: "PO Box 1" }, "billing_rights_address: "],
      [{ late_payment: {} }, "late_payment: must set late_fee, penalty_apr or both"],
      [{ late_payment: { late_fee: -1 } }, "late_payment.late_fee: "],
      [{ late_payment: { late_fee: 40.5 } }, "late_payment.late_fee: "],
      [{ late_payment: { penalty_apr: "29.99%" } }, "late_payment.penalty_apr: must be a decimal"],
      [{ late_payment: { penalty_apr: 29.99 } }, "late_payment.penalty_apr: "],
      [{ late_payment: { late_fee: 100, grace_days: 3 } }, "late_payment: "],
      [
        { minimum_payment: { ...TERMS.minimum_payment, percent_of_balance: "0" } },
        "minimum_payment.percent_of_balance: must be more than 0 and at most 100",
      ],
      [
        { minimum_payment: { ...TERMS.minimum_payment, percent_of_balance: "101" } },
        "minimum_payment.percent_of_balance: must be more than 0 and at most 100",
      ],
      [
        { minimum_payment: { percent_of_balance: "1", minimum_amount: 2500 } },
        "minimum_payment.includes_interest_and_fees: ",
      ],
      [
        { minimum_payment: { ...TERMS.minimum_payment, minimum_amount: -5 } },
        "minimum_payment.minimum_amount: ",
      ],
      [{ credit_counseling_phone: "call us" }, "credit_counseling_phone: must be a telephone"],
      [{ credit_counseling_phone: "12345" }, "credit_counseling_phone: "],
      [{ credit_counseling_phone: "+1 (800) 555-0100 0000 0000" }, "credit_counseling_phone: "],
    ];
    for (const [body, detail] of cases) {
      const details = await refused(f.merchantKey, body);
      expect(
        details.some((d) => d.startsWith(detail)),
        `${JSON.stringify(body)}: ${details.join("; ")}`,
      ).toBe(true);
    }
    // A valid field beside an invalid one is not stored either.
    await refused(f.merchantKey, { late_payment: { late_fee: 100 }, credit_counseling_phone: "x" });
    const listed = await expectJson<{ data: Record<string, unknown>[] }>(
      await operator("GET", `/partners/${f.partnerId}/products`),
      200,
    );
    expect(listed.data[0]).toMatchObject({
      late_payment: null,
      credit_counseling_phone: "1-800-555-0100",
    });
  });
});
