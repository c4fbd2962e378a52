// A three-page periodic statement as assistive technology meets it: every table a real table in
// the structure tree (THead › TR › TH scope Column; TBody › TR › TD; TFoot › TR › TH scope Row
// spanning to the amount), a table continued on the next page still one table, its header there
// an artifact, reading order the order of the page, every mark tagged or an artifact, the
// language and title set and the fonts embedded.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { LineItem } from "../src/statement-document";
import { rowText } from "./line-item-rows";
import { readObjects, unmarkedOperators } from "./pdf-objects";
import { periodicStatement } from "./sample-statements";
import {
  childElements,
  markedRefs,
  readTagged,
  type TaggedDocument,
  type TaggedElement,
} from "./tagged-pdf";

const THREE_PAGES = periodicStatement(20);
const ITEMS = THREE_PAGES.statement.line_items as LineItem[];
const TRANSACTION_HEADER = ["Trans. date", "Post date", "Description", "Foreign amount", "Amount"];

let bytes: Uint8Array;
let tagged: TaggedDocument;
beforeAll(async () => {
  bytes = await env.STATEMENT_RENDERER.render(THREE_PAGES);
  tagged = await readTagged(bytes);
});

const roles = (elements: TaggedElement[]) => elements.map((e) => e.role);
const texts = (elements: TaggedElement[]) => elements.map((e) => tagged.textOf(e));
const pagesOf = (element: TaggedElement) => [...new Set(markedRefs(element).map((r) => r.page))];

/** The section whose heading reads `heading`, and its table. */
function tableUnder(heading: string): TaggedElement {
  const section = tagged
    .elements()
    .find(
      (e) =>
        e.role === "Sect" &&
        childElements(e).some((h) => tagged.textOf(h) === heading && /^H\d$/.test(h.role)),
    );
  const table = section && childElements(section).find((e) => e.role === "Table");
  if (!table) throw new Error(`no table under "${heading}"`);
  return table;
}

describe("a three-page statement", () => {
  it("has three pages, each drawn with every mark tagged or an artifact", async () => {
    const { catalog, fonts, contents } = await readObjects(bytes);
    expect(tagged.pages).toHaveLength(3);
    expect(contents).toHaveLength(3);
    for (const content of contents) expect(unmarkedOperators(content)).toEqual([]);
    expect(catalog).toMatchObject({
      marked: true,
      lang: "en-US",
      displayDocTitle: true,
      title: "Acme Card statement",
      tabs: ["/S", "/S", "/S"],
    });
    expect(fonts.map((f) => f.name.replace(/^\/[A-Z]{6}\+/, "")).sort()).toEqual([
      "Inter-Regular",
      "Inter-SemiBold",
    ]);
    for (const font of fonts) expect(font).toMatchObject({ embedded: true, hasToUnicode: true });
  });

  it("reads in the model form's order: summary, transactions, fees and interest, rates, billing rights", () => {
    const [document] = tagged.roots;
    expect(tagged.roots).toHaveLength(1);
    expect(document?.role).toBe("Document");
    const headings = tagged.elements().filter((e) => /^H\d$/.test(e.role));
    expect(headings.map((h) => `${h.role} ${tagged.textOf(h)}`)).toEqual([
      "H1 Acme Card statement",
      "H2 Statement details",
      "H2 Payment information",
      "H2 Account summary",
      "H2 Transactions",
      "H3 Payments",
      "H3 Other credits",
      "H3 Purchases",
      "H2 Fees and interest charged",
      "H3 Fees",
      "H3 Interest charged",
      "H3 2026 totals year-to-date",
      "H2 Interest charge calculation",
      "H2 Billing rights",
    ]);
  });

  it("holds every table as header, body and footer rows, header cells scoped", () => {
    const tables = tagged.elements().filter((e) => e.role === "Table");
    // Repayment estimates, account summary, three transaction groups, fees, interest, the year to
    // date, the interest charge calculation.
    expect(tables).toHaveLength(9);
    for (const table of tables) {
      const parts = childElements(table);
      if (parts[0]?.role === "TR") continue; // the account summary: its own test holds it
      expect(roles(parts).slice(0, 2)).toEqual(["THead", "TBody"]);
      const [head, body, foot] = parts as [TaggedElement, TaggedElement, TaggedElement?];
      const headerRows = childElements(head);
      expect(roles(headerRows)).toEqual(["TR"]);
      const headers = childElements(headerRows[0] as TaggedElement);
      expect(headers.map((h) => [h.role, h.scope])).toEqual(headers.map(() => ["TH", "Column"]));
      for (const row of childElements(body)) {
        expect(row.role).toBe("TR");
        expect(childElements(row)).toHaveLength(headers.length);
      }
      if (foot) {
        expect(foot.role).toBe("TFoot");
        for (const row of childElements(foot)) {
          const [label, amount, ...rest] = childElements(row);
          expect(rest).toEqual([]);
          expect([label?.role, label?.scope, label?.colSpan]).toEqual([
            "TH",
            "Row",
            headers.length - 1,
          ]);
          expect(amount?.role).toBe("TD");
        }
      }
    }
  });

  it("gives each transaction group its header, its line items as rows and its total", () => {
    const groups = [
      ["Payments", ["PAYMENT"], "Total payments for this period"],
      ["Other credits", ["CREDIT", "REFUND"], "Total other credits for this period"],
      ["Purchases", ["PURCHASE"], "Total purchases for this period"],
      ["Fees", ["FEE"], "Total fees for this period"],
      ["Interest charged", ["INTEREST"], "Total interest for this period"],
    ] as const;
    for (const [heading, types, total] of groups) {
      const [head, body, foot] = childElements(tableUnder(heading)) as TaggedElement[];
      const headers = childElements(childElements(head as TaggedElement)[0] as TaggedElement);
      expect(texts(headers)).toEqual(TRANSACTION_HEADER);
      expect(headers[0]?.expanded).toBe("Transaction date");
      const items = ITEMS.filter((item) => (types as readonly string[]).includes(item.type));
      const rows = childElements(body as TaggedElement);
      expect(texts(rows)).toEqual(items.map((item) => rowText(item, true)));
      for (const row of rows) expect(roles(childElements(row))).toEqual(Array(5).fill("TD"));
      expect(tagged.textOf(foot as TaggedElement)).toMatch(
        new RegExp(`^${total} -?\\$[\\d,]+\\.\\d\\d$`),
      );
    }
  });

  it("marks the row headers of the estimates, the year to date and the rates tables", () => {
    for (const heading of ["2026 totals year-to-date", "Interest charge calculation"]) {
      const body = childElements(tableUnder(heading))[1] as TaggedElement;
      for (const row of childElements(body)) {
        const [first, ...rest] = childElements(row);
        expect([first?.role, first?.scope]).toEqual(["TH", "Row"]);
        expect(roles(rest)).toEqual(rest.map(() => "TD"));
      }
    }
    const estimates = tagged.elements().filter((e) => e.role === "Table")[0] as TaggedElement;
    const rows = childElements(childElements(estimates)[1] as TaggedElement);
    expect(rows.map((r) => childElements(r)[0]?.scope)).toEqual(["Row", "Row"]);
    expect(tagged.textOf(rows[0] as TaggedElement)).toMatch(
      /^Only the minimum payment \d+ years \$[\d,]+$/,
    );
  });

  it("keeps a table that continues onto the next page one table, its header there an artifact", () => {
    const purchases = tableUnder("Purchases");
    const [head, body] = childElements(purchases) as TaggedElement[];
    expect(pagesOf(head as TaggedElement)).toEqual([2]);
    expect(pagesOf(body as TaggedElement)).toEqual([2, 3]);
    const page3 = tagged.pages[2] ?? [];
    const artifacts = page3.filter((run) => run.artifact).map((run) => run.text);
    expect(artifacts).toContain(`Purchases (continued) ${TRANSACTION_HEADER.join(" ")}`);
    // The first content of page 3 after the repeated header is the table's next row.
    const firstOnPage3 = page3.find((run) => !run.artifact);
    const bodyOnPage3 = markedRefs(body as TaggedElement).filter((r) => r.page === 3);
    expect(firstOnPage3?.mcid).toBe(bodyOnPage3[0]?.mcid);
    expect(page3.filter((run) => !run.artifact).map((run) => run.text)).not.toContain(
      "Purchases (continued)",
    );
    // Page furniture: the running head above and the page number below, artifacts too.
    expect(artifacts[0]).toBe(
      "Acme Card statement · Account •••• 4242 · Closing date September 30, 2026",
    );
    expect(artifacts.at(-1)).toBe(
      "Acme Card statement · Closing date September 30, 2026 Page 3 of 3",
    );
  });

  it("reads each page in the order it is drawn, top to bottom after page 1's two columns", () => {
    const refs = tagged.roots.flatMap(markedRefs);
    for (const [i, runs] of tagged.pages.entries()) {
      const page = i + 1;
      const inTreeOrder = refs.filter((r) => r.page === page).map((r) => r.mcid);
      const onPage = runs.filter((run) => run.mcid !== undefined).map((run) => run.mcid);
      // Every piece of content on the page belongs to one element, and the tree reads it in the
      // order the page draws it.
      expect(inTreeOrder).toEqual(onPage);
      expect(inTreeOrder).toEqual([...inTreeOrder].sort((a, b) => a - b));
      if (page === 1) continue;
      const tops = runs
        .filter((run) => run.mcid !== undefined && run.text !== "")
        .map((run) => run.top);
      for (let n = 1; n < tops.length; n++) {
        expect(tops[n], `page ${page}, content ${n}`).toBeGreaterThanOrEqual(
          (tops[n - 1] as number) - 3,
        );
      }
    }
  });
});
