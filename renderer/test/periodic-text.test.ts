// A periodic statement's text, read back as a viewer or screen reader extracts it: every line item
// with its dates, description, where it was made, foreign amount and amount, grouped as the model
// form groups them with each group's total; the fees and interest totals for the year to date;
// the interest charge calculation; the late-payment warning; the billing-rights address; and a
// correction naming the statement it replaces.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { LineItem, StatementDocumentInput } from "../src/statement-document";
import { rowText, usd } from "./line-item-rows";
import { readPdf } from "./pdf-reader";
import { EVERY_LINE, periodicStatement, SAMPLE_TERMS } from "./sample-statements";

async function documentText(input: StatementDocumentInput) {
  const pdf = await readPdf(await env.STATEMENT_RENDERER.render(input));
  return { ...pdf, text: pdf.pageText.join(" ") };
}

/** Asserts each phrase appears, in this order. */
function expectInOrder(text: string, phrases: string[]) {
  let from = 0;
  for (const phrase of phrases) {
    const at = text.indexOf(phrase, from);
    expect(at, `"${phrase}" after position ${from} in: ${text}`).toBeGreaterThanOrEqual(0);
    from = at + phrase.length;
  }
}

const SAMPLE = periodicStatement(30);
const ITEMS = SAMPLE.statement.line_items as LineItem[];
const sum = (...types: LineItem["type"][]) =>
  ITEMS.filter((item) => types.includes(item.type)).reduce((n, item) => n + item.amount, 0);

describe("a statement with 30 line items", () => {
  it("holds every line item, with its dates, description, merchant, foreign amount and amount", async () => {
    const { text } = await documentText(SAMPLE);
    expect(ITEMS).toHaveLength(30);
    expect(ITEMS.some((item) => item.original_amount !== undefined)).toBe(true);
    for (const item of ITEMS) expect(text).toContain(rowText(item, true));
  });

  it("groups them as the model form does, each group with its total, equal to the statement's", async () => {
    const { statement } = SAMPLE;
    // The sample's figures add up as the import requires: each group's total is the statement's.
    expect(sum("PAYMENT")).toBe(statement.payments);
    expect(sum("CREDIT", "REFUND")).toBe((statement.credits ?? 0) + (statement.refunds ?? 0));
    expect(sum("PURCHASE")).toBe(statement.purchases);
    expect(sum("FEE")).toBe(statement.fees);
    expect(sum("INTEREST")).toBe(statement.interest);
    const { text } = await documentText(SAMPLE);
    const header = "Trans. date Post date Description Foreign amount Amount";
    const rows = (...types: LineItem["type"][]) =>
      ITEMS.filter((item) => types.includes(item.type)).map((item) => rowText(item, true));
    expectInOrder(text, [
      "Transactions",
      `Payments ${header}`,
      ...rows("PAYMENT"),
      `Total payments for this period ${usd(statement.payments as number)}`,
      `Other credits ${header}`,
      ...rows("CREDIT", "REFUND"),
      `Total other credits for this period ${usd((statement.credits as number) + (statement.refunds as number))}`,
      `Purchases ${header}`,
      ...rows("PURCHASE").slice(0, 3),
      `Total purchases for this period ${usd(statement.purchases as number)}`,
      "Fees and interest charged",
      `Fees ${header}`,
      ...rows("FEE"),
      `Total fees for this period ${usd(statement.fees as number)}`,
      `Interest charged ${header}`,
      ...rows("INTEREST"),
      `Total interest for this period ${usd(statement.interest as number)}`,
    ]);
  });

  it("totals fees and interest for the year to date, then shows the interest charge calculation", async () => {
    const { statement } = SAMPLE;
    const ytd = statement.year_to_date as { fees: number; interest: number };
    const [purchases, cash] = statement.interest_rates ?? [];
    const { text } = await documentText(SAMPLE);
    expectInOrder(text, [
      `Total interest for this period ${usd(statement.interest as number)}`,
      "2026 totals year-to-date Charge Amount",
      `Total fees charged in 2026 ${usd(ytd.fees)}`,
      `Total interest charged in 2026 ${usd(ytd.interest)}`,
      "Interest charge calculation",
      "Your Annual Percentage Rate (APR) is the annual interest rate on your account.",
      "Type of balance Annual percentage rate (APR) Balance subject to interest rate Interest charge",
      `Purchases 24.99% ${usd(purchases?.balance_subject_to_interest as number)} ${usd(purchases?.interest as number)}`,
      `Cash advances 29.99% ${usd(cash?.balance_subject_to_interest as number)} ${usd(cash?.interest as number)}`,
    ]);
    // The rates' interest is the statement's.
    expect((purchases?.interest ?? 0) + (cash?.interest ?? 0)).toBe(statement.interest);
  });

  it("warns of a late payment's cost on page 1, and ends with where to send billing-error notices", async () => {
    const { pageText, text } = await documentText(SAMPLE);
    expect(pageText[0]).toContain(
      "Late Payment Warning: If we do not receive your minimum payment by the date listed above, " +
        "you may have to pay a late fee of up to $40.00 and your APRs may be increased up to the " +
        "Penalty APR of 29.99%.",
    );
    expectInOrder(text, [
      "Interest charge calculation",
      "Billing rights",
      "Send notices of billing errors to:",
      SAMPLE_TERMS.billing_rights_address.join(" "),
    ]);
  });

  it("keeps page 1's summary first: the transactions follow the account summary and its notes", async () => {
    const { text } = await documentText(SAMPLE);
    expectInOrder(text, [
      "Acme Card statement",
      "Payment information",
      "Account summary",
      `New balance ${usd(SAMPLE.statement.statement_balance as number)}`,
      "Statement st_2026_09 · Account acc_visa_01 · Customer cus_0001",
      "Transactions",
    ]);
  });
});

describe("a statement's own terms", () => {
  it("warns only of the late-payment terms the product has, and only when a minimum is due", async () => {
    const feeOnly = {
      ...EVERY_LINE,
      product: { ...EVERY_LINE.product, late_payment: { late_fee: 2900 } },
    };
    expect((await documentText(feeOnly)).text).toContain(
      "Late Payment Warning: If we do not receive your minimum payment by the date listed above, " +
        "you may have to pay a late fee of up to $29.00.",
    );
    const aprOnly = {
      ...EVERY_LINE,
      product: { ...EVERY_LINE.product, late_payment: { penalty_apr: "27.24" } },
    };
    expect((await documentText(aprOnly)).text).toContain(
      "by the date listed above, your APRs may be increased up to the Penalty APR of 27.24%.",
    );
    const nothingDue = { ...feeOnly, statement: { ...feeOnly.statement, minimum_due: 0 } };
    expect((await documentText(nothingDue)).text).not.toContain("Late Payment Warning");
  });

  it("shows the year to date and the rates without line items, and no transactions", async () => {
    const input = periodicStatement(0);
    expect(input.statement.line_items).toBeUndefined();
    const { text } = await documentText(input);
    expectInOrder(text, [
      "Account summary",
      "Fees and interest charged",
      "2026 totals year-to-date",
      "Interest charge calculation",
      "Billing rights",
    ]);
    for (const absent of ["Transactions", "Total fees for this period", "Trans. date"]) {
      expect(text).not.toContain(absent);
    }
  });

  it("writes foreign amounts by their currency's code and minor units", async () => {
    const item = (id: string, original_amount: number, original_currency: string): LineItem => ({
      line_item_id: id,
      type: "PURCHASE",
      posted_at: "2026-09-10T12:00:00Z",
      description: `PURCHASE ${id}`,
      amount: 1000,
      original_amount,
      original_currency,
    });
    const items = [item("a", 1234, "EUR"), item("b", 1500, "JPY"), item("c", 12345, "KWD")];
    const input = {
      ...EVERY_LINE,
      statement: { ...EVERY_LINE.statement, purchases: 3000, line_items: items },
    };
    const { text } = await documentText(input);
    expectInOrder(text, [
      "Sep 10 PURCHASE a EUR 12.34 $10.00",
      "Sep 10 PURCHASE b JPY 1,500 $10.00",
      "Sep 10 PURCHASE c KWD 12.345 $10.00",
    ]);
  });
});

describe("a corrected statement", () => {
  it("says on page 1 which statement it replaces, by its id and closing date", async () => {
    const corrected = {
      ...SAMPLE,
      statement: {
        ...SAMPLE.statement,
        statement_id: "st_2026_09_r1",
        restates: { statement_id: "st_2026_09", period_end_date: "2026-09-30T23:59:59-07:00" },
      },
    };
    const { pageText } = await documentText(corrected);
    expectInOrder(pageText[0] as string, [
      "Acme Card statement",
      "Prepared for Sam Lee",
      "Corrected statement — replaces statement st_2026_09 of September 30, 2026",
      "Statement details",
    ]);
    expect((await documentText(SAMPLE)).text).not.toContain("Corrected statement");
  });
});
