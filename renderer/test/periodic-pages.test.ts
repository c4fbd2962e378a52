// Long statements: transactions flow across pages, each page numbered "Page N of M", a table's
// heading and header repeated with "(continued)" on each page it continues onto, no row split
// between pages, and each group's total on the page where the group ends; the largest statement
// the import accepts renders.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type LineItem, MAX_LINE_ITEMS } from "../src/statement-document";
import { rowText, usd } from "./line-item-rows";
import { type ReadDocument, readPdf } from "./pdf-reader";
import { periodicStatement } from "./sample-statements";

const RUNNING_HEAD = "Acme Card statement · Account •••• 4242 · Closing date September 30, 2026";
const FOOTER = "Acme Card statement · Closing date September 30, 2026";
const HEADER = "Trans. date Post date Description Foreign amount Amount";

const GROUPS = [
  ["Payments", ["PAYMENT"], "Total payments for this period"],
  ["Other credits", ["CREDIT", "REFUND"], "Total other credits for this period"],
  ["Purchases", ["PURCHASE"], "Total purchases for this period"],
  ["Fees", ["FEE"], "Total fees for this period"],
  ["Interest charged", ["INTEREST"], "Total interest for this period"],
] as const;

/** The 1-based page whose text holds `text`, failing unless exactly one does. */
function pageOf(pdf: ReadDocument, text: string): number {
  const pages = pdf.pageText.flatMap((page, i) => (page.includes(text) ? [i + 1] : []));
  expect(pages, `the pages holding "${text}"`).toHaveLength(1);
  return pages[0] as number;
}

describe("a statement of 300 line items", () => {
  const input = periodicStatement(300);
  const items = input.statement.line_items as LineItem[];
  let pdf: ReadDocument;
  beforeAll(async () => {
    pdf = await readPdf(await env.STATEMENT_RENDERER.render(input));
  });

  it("runs to 17 pages, each numbered Page N of 17", () => {
    expect(pdf.pages).toBe(17);
    for (const [i, text] of pdf.pageText.entries()) {
      expect(text.endsWith(`${FOOTER} Page ${i + 1} of 17`), text).toBe(true);
    }
  });

  it("names the account at the top of every page after the first", () => {
    expect(pdf.pageText[0]?.startsWith("Acme Card statement Prepared for Sam Lee")).toBe(true);
    for (const text of pdf.pageText.slice(1)) expect(text.startsWith(RUNNING_HEAD)).toBe(true);
  });

  it("repeats a continued table's heading and header at the top of each page it continues onto", () => {
    const purchases = items.filter((item) => item.type === "PURCHASE").map((i) => rowText(i, true));
    const first = pageOf(pdf, purchases[0] as string);
    const last = pageOf(pdf, purchases.at(-1) as string);
    expect(last - first).toBeGreaterThanOrEqual(10);
    for (let page = first + 1; page <= last; page++) {
      expect(
        pdf.pageText[page - 1]?.startsWith(`${RUNNING_HEAD} Purchases (continued) ${HEADER}`),
      ).toBe(true);
    }
    // Pages the table does not continue onto say nothing of it.
    const continued = pdf.pageText.flatMap((text, i) =>
      text.includes("(continued)") ? [i + 1] : [],
    );
    expect(continued).toEqual(Array.from({ length: last - first }, (_, i) => first + 1 + i));
  });

  it("splits no row between pages, and keeps the rows in the document's order", () => {
    for (const [, types] of GROUPS) {
      const pages = items
        .filter((item) => (types as readonly string[]).includes(item.type))
        .map((item) => pageOf(pdf, rowText(item, true)));
      expect(pages).toEqual([...pages].sort((a, b) => a - b));
    }
  });

  it("prints each group's total on the page where the group ends", () => {
    for (const [title, types, label] of GROUPS) {
      const members = items.filter((item) => (types as readonly string[]).includes(item.type));
      expect(members.length, title).toBeGreaterThan(0);
      const total = members.reduce((n, item) => n + item.amount, 0);
      expect(pageOf(pdf, `${label} ${usd(total)}`)).toBe(
        pageOf(pdf, rowText(members.at(-1) as LineItem, true)),
      );
    }
  });
});

describe("the largest statement the import accepts", () => {
  it(`renders ${MAX_LINE_ITEMS.toLocaleString("en-US")} line items, every one of them`, async () => {
    const input = periodicStatement(MAX_LINE_ITEMS);
    const items = input.statement.line_items as LineItem[];
    expect(items).toHaveLength(MAX_LINE_ITEMS);
    const pdf = await readPdf(await env.STATEMENT_RENDERER.render(input));
    expect(pdf.pages).toBeGreaterThan(40);
    expect(pdf.pageText.at(-1)).toContain(`Page ${pdf.pages} of ${pdf.pages}`);
    const text = pdf.pageText.join(" ");
    for (const item of items) expect(text).toContain(rowText(item, true));
  });
});
