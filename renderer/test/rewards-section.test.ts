// The Rewards section read back from the document: what the cycle earned per category (named as
// the product names them), redeemed and held, as a real table (header, body rows, totals in the
// footer); cash back written as money; no section at all for a statement without rewards.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { StatementDocumentInput } from "../src/statement-document";
import { readPdf } from "./pdf-reader";
import { EVERY_LINE, withRewards } from "./sample-statements";
import { childElements, readTagged, type TaggedDocument, type TaggedElement } from "./tagged-pdf";

const POINTS = withRewards(EVERY_LINE);

async function textOf(input: StatementDocumentInput): Promise<string> {
  const pdf = await readPdf(await env.STATEMENT_RENDERER.render(input));
  return pdf.pageText.join("\n");
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

describe("the Rewards section", () => {
  let tagged: TaggedDocument;
  beforeAll(async () => {
    tagged = await readTagged(await env.STATEMENT_RENDERER.render(POINTS));
  });

  it("shows what each category earned, then the totals, after the account summary", async () => {
    expectInOrder(await textOf(POINTS), [
      "Account summary",
      "Rewards",
      "Points your card earned this period, by rewards category.",
      "Rewards category Earned this period",
      "Dining 3,600 points",
      "Groceries 1,250 points",
      "Everything else 1 point",
      "Earned this period 4,851 points",
      "Redeemed this period 2,000 points",
      "Rewards balance 12,345 points",
    ]);
  });

  it("is a section with its heading and a table of header, body and footer rows", () => {
    const section = tagged
      .elements()
      .find(
        (e) =>
          e.role === "Sect" &&
          childElements(e).some((h) => h.role === "H2" && tagged.textOf(h) === "Rewards"),
      );
    const table = section && childElements(section).find((e) => e.role === "Table");
    if (!table) throw new Error("no table under the Rewards heading");
    const [head, body, foot] = childElements(table) as [
      TaggedElement,
      TaggedElement,
      TaggedElement,
    ];
    expect([head.role, body.role, foot.role]).toEqual(["THead", "TBody", "TFoot"]);
    const headers = childElements(childElements(head)[0] as TaggedElement);
    expect(headers.map((h) => [h.role, h.scope, tagged.textOf(h)])).toEqual([
      ["TH", "Column", "Rewards category"],
      ["TH", "Column", "Earned this period"],
    ]);
    const rows = childElements(body).map((row) => childElements(row));
    expect(rows.map((cells) => cells.map((c) => [c.role, tagged.textOf(c)]))).toEqual([
      [
        ["TH", "Dining"],
        ["TD", "3,600 points"],
      ],
      [
        ["TH", "Groceries"],
        ["TD", "1,250 points"],
      ],
      [
        ["TH", "Everything else"],
        ["TD", "1 point"],
      ],
    ]);
    const totals = childElements(foot).map((row) => childElements(row));
    expect(totals.map((cells) => cells.map((c) => [c.role, c.scope, tagged.textOf(c)]))).toEqual([
      [
        ["TH", "Row", "Earned this period"],
        ["TD", undefined, "4,851 points"],
      ],
      [
        ["TH", "Row", "Redeemed this period"],
        ["TD", undefined, "2,000 points"],
      ],
      [
        ["TH", "Row", "Rewards balance"],
        ["TD", undefined, "12,345 points"],
      ],
    ]);
  });

  it("writes cash back as money of the statement's currency", async () => {
    const cash = withRewards(EVERY_LINE, { unit: "USD", earned: 245 });
    expectInOrder(await textOf(cash), [
      "Rewards",
      "Cash back your card earned this period, by rewards category.",
      "All purchases $2.45",
      "Earned this period $2.45",
    ]);
    expect(await textOf(cash)).not.toContain("Rewards balance");
  });

  it("is left out of a statement without rewards", async () => {
    const text = await textOf(EVERY_LINE);
    expect(text).not.toContain("Rewards");
    expect(text).not.toContain("points");
  });

  it("refuses rewards in another currency than the statement's", async () => {
    const euros = withRewards(EVERY_LINE, { unit: "EUR", earned: 1 });
    // Awaited here: an RPC promise handed to `expect` goes unhandled.
    const error = await env.STATEMENT_RENDERER.render(euros).then(
      () => new Error("the render succeeded"),
      (thrown: Error) => thrown,
    );
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toBe(
      'rewards.unit must be POINTS or the statement\'s currency; got "EUR"',
    );
  });
});
