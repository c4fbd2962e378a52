// The account summary: a real table (Table › TR › TH/TD, header cells scoped), in the card-statement
// order and sign convention, each line present only when the statement has it.
import type { Accent } from "./accent";
import { TABULAR } from "./fonts";
import type { AmountFormat } from "./money";
import {
  artifact,
  CONTENT_WIDTH,
  type Doc,
  INK,
  ink,
  PAGE,
  type StructElement,
  TYPE,
} from "./page-style";
import type { StatementFigures } from "./statement-document";

/** The summary's lines, in the order a card statement lists them, and their labels. */
export const SUMMARY_LINES = [
  ["previous_balance", "Previous balance"],
  ["payments", "Payments"],
  ["credits", "Credits"],
  ["refunds", "Refunds"],
  ["purchases", "Purchases"],
  ["fees", "Fees charged"],
  ["interest", "Interest charged"],
  ["statement_balance", "New balance"],
] as const satisfies readonly (readonly [keyof StatementFigures, string])[];

const ROW_HEIGHT = 20;
const PADDING = 8;
const AMOUNT_WIDTH = 150;

/** Draws the table from `top`; returns where it ends, or `top` when the statement has no line. */
export function drawSummaryTable(
  doc: Doc,
  parent: StructElement,
  figures: StatementFigures,
  money: AmountFormat,
  accent: Accent,
  top: number,
): number {
  const lines = SUMMARY_LINES.flatMap(([field, label]) => {
    const amount = figures[field];
    return amount === undefined ? [] : [{ field, label, amount }];
  });
  if (lines.length === 0) return top;
  const left = PAGE.margin;
  const amountLeft = left + CONTENT_WIDTH - AMOUNT_WIDTH - PADDING;
  const table = doc.struct("Table");
  parent.add(table);

  const cell = (tag: "TH" | "TD", text: string, y: number, options: CellOptions) => {
    const struct = tag === "TH" ? { scope: options.scope } : {};
    return doc.struct(tag, struct, () => {
      ink(doc, options.bold ? "bold" : "regular", TYPE.body, options.colour ?? INK.text);
      const x = options.amount ? amountLeft : left + PADDING;
      const width = options.amount ? AMOUNT_WIDTH : CONTENT_WIDTH - AMOUNT_WIDTH - 3 * PADDING;
      doc.text(text, x, y + 6, {
        width,
        align: options.amount ? "right" : "left",
        lineBreak: false,
        ...(options.amount ? TABULAR : {}),
      });
    });
  };

  let y = top;
  const header = doc.struct("TR");
  table.add(header);
  artifact(doc, "Layout", () => doc.rect(left, y, CONTENT_WIDTH, ROW_HEIGHT).fill(accent.strong));
  const white = { bold: true, colour: "#ffffff", scope: "Column" } as const;
  header.add(cell("TH", "Activity", y, white));
  header.add(cell("TH", "Amount", y, { ...white, amount: true }));
  header.end();

  for (const line of lines) {
    y += ROW_HEIGHT;
    const total = line.field === "statement_balance";
    if (total) {
      artifact(doc, "Layout", () =>
        doc.rect(left, y, CONTENT_WIDTH, 1.2).fill(accent.strong).fillColor(INK.text),
      );
    }
    const row = doc.struct("TR");
    table.add(row);
    row.add(cell("TH", line.label, y, { scope: "Row", bold: total }));
    row.add(cell("TD", money.format(line.amount), y, { amount: true, bold: total }));
    row.end();
    if (!total) {
      artifact(doc, "Layout", () =>
        doc
          .moveTo(left, y + ROW_HEIGHT)
          .lineTo(left + CONTENT_WIDTH, y + ROW_HEIGHT)
          .lineWidth(0.5)
          .stroke(INK.rule),
      );
    }
  }
  table.end();
  return y + ROW_HEIGHT;
}

interface CellOptions {
  scope?: "Row" | "Column";
  bold?: boolean;
  colour?: string;
  amount?: boolean;
}
