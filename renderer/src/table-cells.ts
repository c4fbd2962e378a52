// A table's cells: their columns, their text (with an optional muted second line), measured
// once and drawn from those measures, and the rules between rows.
import { TABULAR } from "./fonts";
import { artifact, CONTENT_WIDTH, type Doc, INK, ink, PAGE, TYPE } from "./page-style";

export interface Column {
  header: string;
  /** What an abbreviated header stands for, read aloud instead ("Transaction date"). */
  expanded?: string;
  width: number;
  align?: "left" | "right";
  /** Figures of equal width: dates and amounts. */
  tabular?: boolean;
}

/** A cell's text with an optional muted second line under it; null leaves the cell empty. */
export type Cell = string | { text: string; detail?: string } | null;

/** Space between a cell's edge and its text. */
export const PAD = 5;
export interface Measured {
  height: number;
  cells: { lines: number | "wrap"; textHeight: number; detailHeight: number }[];
}

/** The heights of a row's cells, measured once: drawing reuses them. */
export function measure(doc: Doc, row: Cell[], columns: Column[]): Measured {
  ink(doc, "regular", TYPE.table, INK.text);
  const line = doc.currentLineHeight(true);
  const cells = row.map((cell, i) => {
    const column = columns[i] as Column;
    const width = column.width - 2 * PAD;
    if (cell === null) return { lines: 1, textHeight: 0, detailHeight: 0 };
    const text = typeof cell === "string" ? cell : cell.text;
    // Dates and amounts are short: one line. Other text wraps only when it is wider than its cell.
    const oneLine = column.tabular || doc.widthOfString(text) <= width;
    const textHeight = oneLine ? line : doc.heightOfString(text, { width });
    let detailHeight = 0;
    if (typeof cell !== "string" && cell.detail) {
      doc.fontSize(TYPE.detail);
      detailHeight =
        doc.widthOfString(cell.detail) <= width
          ? doc.currentLineHeight(true)
          : doc.heightOfString(cell.detail, { width });
      doc.fontSize(TYPE.table);
    }
    return { lines: oneLine ? 1 : ("wrap" as const), textHeight, detailHeight };
  });
  const height = Math.max(...cells.map((c) => c.textHeight + c.detailHeight)) + 2 * PAD;
  return { height, cells };
}

/** A cell's text (and second line) at the place and in the lines `measure` found. */
export function drawCell(
  doc: Doc,
  cell: Exclude<Cell, null>,
  column: Column,
  layout: Measured["cells"][number],
  x: number,
  y: number,
  bold: boolean | undefined,
): void {
  const text = typeof cell === "string" ? cell : cell.text;
  const options = {
    width: column.width - 2 * PAD,
    align: column.align ?? "left",
    ...(column.tabular ? TABULAR : {}),
    ...(layout.lines === 1 ? { lineBreak: false } : {}),
  };
  ink(doc, bold ? "bold" : "regular", TYPE.table, INK.text).text(text, x + PAD, y + PAD, options);
  if (typeof cell !== "string" && cell.detail) {
    ink(doc, "regular", TYPE.detail, INK.muted).text(
      cell.detail,
      x + PAD,
      y + PAD + layout.textHeight,
      {
        width: column.width - 2 * PAD,
        align: column.align ?? "left",
      },
    );
  }
}

/** A header cell's text, white on the header band. */
export function drawHeaderText(doc: Doc, column: Column, x: number, y: number): void {
  ink(doc, "bold", TYPE.table, "#ffffff").text(column.header, x + PAD, y + PAD, {
    width: column.width - 2 * PAD,
    align: column.align ?? "left",
  });
}

/** A horizontal rule across the content width, as decoration. */
export function rule(doc: Doc, y: number, width: number, colour: string): void {
  artifact(doc, "Layout", () =>
    doc
      .moveTo(PAGE.margin, y)
      .lineTo(PAGE.margin + CONTENT_WIDTH, y)
      .lineWidth(width)
      .stroke(colour),
  );
}
