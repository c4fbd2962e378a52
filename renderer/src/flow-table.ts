// A table that flows down the page and across pages: a real table in the structure tree (Table ›
// THead › TR › TH scope Column; TBody › TR › TD; TFoot › TR › TH scope Row + TD for its totals),
// its heading kept with its first row, no row split between pages, its totals on the page of its
// last row. On each page it continues onto, its heading ("… (continued)") and header row are drawn
// again as a pagination artifact: a screen reader meets the header once, as the table's own.
import type { Accent } from "./accent";
import { TABULAR } from "./fonts";
import type { PageFlow } from "./page-flow";
import {
  artifact,
  CONTENT_WIDTH,
  type Doc,
  element,
  INK,
  ink,
  PAGE,
  type StructElement,
  TYPE,
} from "./page-style";
import {
  type Cell,
  type Column,
  drawCell,
  drawHeaderText,
  type Measured,
  measure,
  PAD,
  rule,
} from "./table-cells";

export type { Cell, Column } from "./table-cells";

export interface FlowTableSpec {
  /** The heading above the table; on a page it continues onto, "<title> (continued)". */
  title: string;
  /** The heading's tag; none draws no heading (a table introduced by the paragraph above it). */
  headingTag: "H2" | "H3" | "none";
  /** A paragraph between the heading and the table. */
  intro?: string;
  columns: Column[];
  /** The first cell of each row heads its row (TH, scope Row). */
  rowHeaders?: boolean;
  rows: Cell[][];
  /** Lines under the rows: a label over every column but the last, and its amount. */
  totals?: { label: string; amount: string }[];
  /** A short table drawn whole, on one page. */
  keepTogether?: boolean;
}

const GAP_AFTER_HEADING = 6;

/** Draws the table at the flow's place (moving to a new page first if its start would not fit). */
export function drawFlowTable(
  doc: Doc,
  flow: PageFlow,
  parent: StructElement,
  spec: FlowTableSpec,
  accent: Accent,
): void {
  const { columns } = spec;
  const lefts: number[] = [];
  let left = PAGE.margin;
  for (const column of columns) {
    lefts.push(left);
    left += column.width;
  }
  const headingSize = spec.headingTag === "H2" ? TYPE.heading : TYPE.subheading;
  ink(doc, "bold", headingSize, accent.strong);
  const headingHeight =
    spec.headingTag === "none" ? 0 : doc.currentLineHeight(true) + GAP_AFTER_HEADING;
  ink(doc, "regular", TYPE.body, INK.text);
  const introHeight = spec.intro
    ? doc.heightOfString(spec.intro, { width: CONTENT_WIDTH }) + GAP_AFTER_HEADING
    : 0;
  ink(doc, "bold", TYPE.table, INK.text);
  const headerHeight =
    Math.max(...columns.map((c) => doc.heightOfString(c.header, { width: c.width - 2 * PAD }))) +
    2 * PAD;
  const rows = spec.rows.map((row) => measure(doc, row, columns));
  const lineHeight = doc.currentLineHeight(true) + 2 * PAD;
  const totalsHeight = (spec.totals?.length ?? 0) * lineHeight;

  const first = rows[0]?.height ?? 0;
  flow.keep(
    spec.keepTogether
      ? headingHeight +
          introHeight +
          headerHeight +
          rows.reduce((n, r) => n + r.height, 0) +
          totalsHeight
      : headingHeight + introHeight + headerHeight + first + (rows.length <= 1 ? totalsHeight : 0),
  );

  if (spec.headingTag !== "none") {
    element(doc, parent, spec.headingTag, () => {
      ink(doc, "bold", headingSize, accent.strong).text(spec.title, PAGE.margin, flow.y, {
        width: CONTENT_WIDTH,
        lineBreak: false,
      });
    });
    flow.y += headingHeight;
  }
  if (spec.intro) {
    const intro = spec.intro;
    element(doc, parent, "P", () => {
      ink(doc, "regular", TYPE.body, INK.text).text(intro, PAGE.margin, flow.y, {
        width: CONTENT_WIDTH,
      });
    });
    flow.y += introHeight;
  }

  const table = doc.struct("Table");
  parent.add(table);
  const head = doc.struct("THead");
  table.add(head);
  const headerRow = doc.struct("TR");
  head.add(headerRow);
  drawHeaderBand(doc, flow.y, headerHeight, accent);
  for (const [i, column] of columns.entries()) {
    const options = {
      scope: "Column" as const,
      ...(column.expanded ? { expanded: column.expanded } : {}),
    };
    headerRow.add(
      doc.struct("TH", options, () => drawHeaderText(doc, column, lefts[i] as number, flow.y)),
    );
  }
  headerRow.end();
  head.end();
  flow.y += headerHeight;

  /** The heading and header row again, at the top of a page the table continues onto. */
  const continued = () => {
    artifact(doc, "Pagination", () => {
      ink(doc, "bold", headingSize, accent.strong).text(
        `${spec.title} (continued)`,
        PAGE.margin,
        flow.y,
        { width: CONTENT_WIDTH, lineBreak: false },
      );
      flow.y += headingHeight || doc.currentLineHeight(true) + GAP_AFTER_HEADING;
      // Inside this artifact already: an artifact opened within it would close it.
      doc.rect(PAGE.margin, flow.y, CONTENT_WIDTH, headerHeight).fill(accent.strong);
      for (const [i, column] of columns.entries()) {
        drawHeaderText(doc, column, lefts[i] as number, flow.y);
      }
      flow.y += headerHeight;
    });
  };

  if (rows.length > 0) {
    const body = doc.struct("TBody");
    table.add(body);
    for (const [r, row] of spec.rows.entries()) {
      const size = rows[r] as Measured;
      const last = r === rows.length - 1;
      if (flow.keep(size.height + (last ? totalsHeight : 0))) continued();
      const tr = doc.struct("TR");
      body.add(tr);
      for (const [i, cell] of row.entries()) {
        const heads = spec.rowHeaders && i === 0;
        const tag = heads ? "TH" : "TD";
        const column = columns[i] as Column;
        const layout = size.cells[i] as Measured["cells"][number];
        const x = lefts[i] as number;
        const y = flow.y;
        if (cell === null) tr.add(doc.struct(tag, heads ? { scope: "Row" } : {}));
        else {
          tr.add(
            doc.struct(tag, heads ? { scope: "Row" } : {}, () =>
              drawCell(doc, cell, column, layout, x, y, heads),
            ),
          );
        }
      }
      tr.end();
      flow.y += size.height;
      if (!last || !spec.totals) rule(doc, flow.y, 0.5, INK.rule);
    }
    body.end();
  }

  if (spec.totals && spec.totals.length > 0) {
    const foot = doc.struct("TFoot");
    table.add(foot);
    rule(doc, flow.y, 1.2, accent.strong);
    const amountColumn = columns[columns.length - 1] as Column;
    const labelWidth = CONTENT_WIDTH - amountColumn.width;
    for (const total of spec.totals) {
      const tr = doc.struct("TR");
      foot.add(tr);
      const y = flow.y + PAD;
      const label = doc.struct("TH", { scope: "Row" }, () => {
        ink(doc, "bold", TYPE.table, INK.text).text(total.label, PAGE.margin + PAD, y, {
          width: labelWidth - 2 * PAD,
          lineBreak: false,
        });
      });
      // The label spans every column but the amount's (pdfkit writes no ColSpan of its own).
      label.dictionary.data.A = { ...label.dictionary.data.A, ColSpan: columns.length - 1 };
      tr.add(label);
      tr.add(
        doc.struct("TD", {}, () => {
          ink(doc, "bold", TYPE.table, INK.text).text(
            total.amount,
            PAGE.margin + labelWidth + PAD,
            y,
            { width: amountColumn.width - 2 * PAD, align: "right", lineBreak: false, ...TABULAR },
          );
        }),
      );
      tr.end();
      flow.y += lineHeight;
    }
    foot.end();
  }
  table.end();
}

function drawHeaderBand(doc: Doc, y: number, height: number, accent: Accent): void {
  artifact(doc, "Layout", () =>
    doc.rect(PAGE.margin, y, CONTENT_WIDTH, height).fill(accent.strong),
  );
}
