// The document's text, read back as a viewer or screen reader extracts it: every figure of the
// statement appears formatted as the document shows it, and lines the statement omits stay out.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { StatementDocumentInput } from "../src/statement-document";
import { JPEG_LOGO, PNG_LOGO } from "./logo-fixtures";
import { readPdf } from "./pdf-reader";
import {
  DINAR,
  EVERY_LINE,
  QUIET_CYCLE,
  UNKNOWN_CURRENCY,
  withLogo,
  YEN,
} from "./sample-statements";

const WARNING =
  "Minimum Payment Warning: If you make only the minimum payment each period, you will pay more " +
  "in interest and it will take you longer to pay off your balance.";

async function textOf(input: StatementDocumentInput): Promise<string> {
  const pdf = await readPdf(await env.STATEMENT_RENDERER.render(input));
  expect(pdf.pages).toBe(1);
  return pdf.pageText[0] as string;
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

describe("a statement with every line (USD)", () => {
  it("shows each figure in dollars and cents, the dates, and the summary in card order", async () => {
    const text = await textOf(EVERY_LINE);
    expectInOrder(text, [
      "Acme Card statement",
      "Prepared for Sam Lee",
      "Statement details",
      "Statement period September 1 – 30, 2026",
      "Closing date September 30, 2026",
      "Payment due date October 25, 2026",
      "Account •••• 4242",
      "Payment information",
      "New balance $1,234.56",
      "Minimum payment due $45.00",
      "Payment due date October 25, 2026",
      "Overdue amount $25.00",
      WARNING,
      "Account summary",
      "Activity Amount",
      "Previous balance $987.65",
      "Payments -$200.00",
      "Credits -$15.00",
      "Refunds -$25.99",
      "Purchases $432.10",
      "Fees charged $39.00",
      "Interest charged $19.80",
      "New balance $1,234.56",
      "Currency: US Dollar (USD).",
      "Statement st_2026_09 · Account acc_visa_01 · Customer cus_0001",
      "Acme Card statement · Closing date September 30, 2026",
      "Page 1 of 1",
    ]);
  });

  it("reads the same with a PNG or a JPEG logo", async () => {
    const plain = await textOf(EVERY_LINE);
    expect(await textOf(withLogo(EVERY_LINE, PNG_LOGO))).toBe(plain);
    expect(await textOf(withLogo(EVERY_LINE, JPEG_LOGO))).toBe(plain);
  });
});

describe("a quiet cycle", () => {
  it("shows only the lines the statement has: no due date, minimum, warning or activity", async () => {
    const text = await textOf(QUIET_CYCLE);
    expectInOrder(text, [
      "Quiet Card statement",
      "Statement period October 31, 2026",
      "Closing date October 31, 2026",
      "Account acc_quiet",
      "New balance $0.00",
      "Previous balance $0.00",
      "New balance $0.00",
      "Page 1 of 1",
    ]);
    for (const absent of [
      "Prepared for",
      "Payment due date",
      "Minimum payment due",
      "Minimum Payment Warning",
      "Overdue amount",
      "Payments",
      "Credits",
      "Refunds",
      "Purchases",
      "Fees charged",
      "Interest charged",
    ]) {
      expect(text).not.toContain(absent);
    }
  });
});

describe("currencies and their minor units", () => {
  it("writes yen without decimals, on the dates written in the statement's own offset", async () => {
    const text = await textOf(YEN);
    expectInOrder(text, [
      "Statement period August 16 – September 15, 2026",
      "Closing date September 15, 2026",
      "Payment due date October 10, 2026",
      "New balance ¥1,234,567",
      "Minimum payment due ¥50,000",
      WARNING,
      "Previous balance ¥300,000",
      "Payments -¥100,000",
      "Purchases ¥1,034,567",
      "New balance ¥1,234,567",
      "Currency: Japanese Yen (JPY).",
    ]);
  });

  it("writes Kuwaiti dinars with three decimals", async () => {
    const text = await textOf(DINAR);
    expectInOrder(text, [
      "New balance KWD 250.125",
      "Minimum payment due KWD 12.506",
      "Overdue amount KWD 10.000",
      "Previous balance KWD 240.000",
      "Credits -KWD 5.000",
      "Purchases KWD 15.000",
      "Fees charged KWD 0.125",
      "New balance KWD 250.125",
      "Currency: Kuwaiti Dinar (KWD).",
    ]);
  });

  it("keeps two decimals and shows the code of a currency ISO 4217 does not list", async () => {
    const text = await textOf(UNKNOWN_CURRENCY);
    expectInOrder(text, ["New balance XBT 10.50", "Purchases XBT 10.50", "Currency: XBT."]);
  });

  it("writes plain amounts with two decimals when the statement has no currency", async () => {
    const { currency: _, ...statement } = EVERY_LINE.statement;
    const text = await textOf({ ...EVERY_LINE, statement });
    expectInOrder(text, ["New balance 1,234.56", "Payments -200.00", "Refunds -25.99"]);
    expect(text).not.toContain("Currency:");
  });
});

describe("the overdue amount", () => {
  it("appears when it is not zero", async () => {
    expect(await textOf(EVERY_LINE)).toContain("Overdue amount $25.00");
  });

  it("stays out when it is zero or absent", async () => {
    const zero = { ...EVERY_LINE, statement: { ...EVERY_LINE.statement, overdue_amount: 0 } };
    expect(await textOf(zero)).not.toContain("Overdue amount");
    const { overdue_amount: _, ...statement } = EVERY_LINE.statement;
    expect(await textOf({ ...EVERY_LINE, statement })).not.toContain("Overdue amount");
  });
});

describe("rendering again", () => {
  it("renders the same bytes for the same statement, so a retried render stores one object", async () => {
    const input = withLogo(EVERY_LINE, PNG_LOGO);
    const first = await env.STATEMENT_RENDERER.render(input);
    const second = await env.STATEMENT_RENDERER.render(input);
    expect(second).toEqual(first);
  });
});
