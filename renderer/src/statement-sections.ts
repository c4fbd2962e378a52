// The parts of page 1 above and below the summary: the product's header, the statement's dates,
// what to pay and by when (with the minimum-payment warning), and the notes on how to read it.
import type { Accent } from "./accent";
import { longDate, periodRange } from "./calendar";
import {
  drawCorrection,
  LATE_WARNING_LABEL,
  lateWarning,
  MINIMUM_WARNING,
  MINIMUM_WARNING_LABEL,
  MINIMUM_WARNING_NEVER,
} from "./disclosures";
import { TABULAR } from "./fonts";
import type { AmountFormat } from "./money";
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
import type { RepaymentDisclosure, StatementDocumentInput } from "./statement-document";

const LOGO_BOX = { width: 160, height: 48 } as const;
const LINE_HEIGHT = 17;
const COLUMN_GAP = 24;
const COLUMN_WIDTH = (CONTENT_WIDTH - COLUMN_GAP) / 2;
const PANEL_PADDING = 12;

/**
 * The logo, the title, whom the statement is for and, for a correction, the statement it
 * replaces; returns where the header ends.
 */
export function drawHeader(
  doc: Doc,
  root: StructElement,
  input: StatementDocumentInput,
  accent: Accent,
  title: string,
): number {
  artifact(doc, "Layout", () => doc.rect(0, 0, PAGE.width, 6).fill(accent.strong));
  let y = 36;
  const logo = input.product.logo;
  if (logo) {
    const { width, height } = LOGO_BOX;
    const bbox: [number, number, number, number] = [
      PAGE.margin,
      y,
      PAGE.margin + width,
      y + height,
    ];
    element(
      doc,
      root,
      "Figure",
      () => doc.image(logo.bytes, PAGE.margin, y, { fit: [width, height] }),
      {
        alt: logo.alt_text,
        bbox,
      },
    );
    y += height + 14;
  }
  element(doc, root, "H1", () => {
    ink(doc, "bold", TYPE.title, accent.strong).text(title, PAGE.margin, y, {
      width: CONTENT_WIDTH,
    });
  });
  y = doc.y + 2;
  const name = input.customer.display_name;
  if (name) {
    element(doc, root, "P", () => {
      ink(doc, "regular", 11, INK.muted).text(`Prepared for ${name}`, PAGE.margin, y, {
        width: CONTENT_WIDTH,
      });
    });
    y = doc.y;
  }
  const restates = input.statement.restates;
  if (restates) y = drawCorrection(doc, root, restates, accent, y + 10);
  return y + 20;
}

type Line = { label: string; value: string; bold?: boolean; amount?: boolean };

/** A label and its value on one line: one paragraph, read as "label value". */
function drawLine(
  doc: Doc,
  parent: StructElement,
  line: Line,
  x: number,
  y: number,
  width: number,
) {
  element(doc, parent, "P", () => {
    const weight = line.bold ? "bold" : "regular";
    ink(doc, weight, TYPE.body, INK.muted).text(`${line.label} `, x, y, {
      width,
      lineBreak: false,
    });
    ink(doc, weight, TYPE.body, INK.text).text(line.value, x, y, {
      width,
      align: "right",
      lineBreak: false,
      ...(line.amount ? TABULAR : {}),
    });
  });
}

function drawHeading(
  doc: Doc,
  parent: StructElement,
  text: string,
  accent: Accent,
  x: number,
  y: number,
) {
  element(doc, parent, "H2", () => {
    ink(doc, "bold", TYPE.heading, accent.strong).text(text, x, y, { lineBreak: false });
  });
  return y + 22;
}

/**
 * Two columns: the statement's dates on the left, what to pay on the right in a tinted panel,
 * with the late-payment and minimum-payment warnings. `below` draws what belongs to the payment
 * information under both columns (the repayment estimates) and returns where it ends.
 * Returns where the lower of the two columns, or what `below` drew, ends.
 */
export function drawOverview(
  doc: Doc,
  root: StructElement,
  input: StatementDocumentInput,
  money: AmountFormat,
  accent: Accent,
  top: number,
  repayment?: RepaymentDisclosure,
  below?: (panel: StructElement, y: number) => number,
): number {
  const { statement, account } = input;
  const due = statement.due_date === undefined ? undefined : longDate(statement.due_date);

  const details: Line[] = [
    {
      label: "Statement period",
      value: periodRange(statement.period_start_date, statement.period_end_date),
    },
    { label: "Closing date", value: longDate(statement.period_end_date) },
    ...(due ? [{ label: "Payment due date", value: due }] : []),
    { label: "Account", value: account.masked_number ?? account.account_id },
  ];
  const left = PAGE.margin;
  const section = doc.struct("Sect");
  root.add(section);
  let y = drawHeading(doc, section, "Statement details", accent, left, top);
  for (const line of details) {
    drawLine(doc, section, line, left, y, COLUMN_WIDTH);
    y += LINE_HEIGHT;
  }
  section.end();
  const detailsEnd = y;

  const payment: Line[] = [];
  const add = (label: string, amount: number | undefined, bold = false) => {
    if (amount !== undefined)
      payment.push({ label, value: money.format(amount), bold, amount: true });
  };
  add("New balance", statement.statement_balance, true);
  add("Minimum payment due", statement.minimum_due, true);
  if (due) payment.push({ label: "Payment due date", value: due });
  if (statement.overdue_amount) add("Overdue amount", statement.overdue_amount);
  const minimumDue = statement.minimum_due !== undefined && statement.minimum_due > 0;
  const warnings: { label: string; text: string }[] = [];
  const late = minimumDue ? lateWarning(input.product, money) : undefined;
  if (late) warnings.push({ label: LATE_WARNING_LABEL, text: late });
  if (minimumDue || repayment) {
    const never = repayment?.minimum_payment.months === null;
    warnings.push({
      label: MINIMUM_WARNING_LABEL,
      text: never ? MINIMUM_WARNING_NEVER : MINIMUM_WARNING,
    });
  }
  if (payment.length === 0 && warnings.length === 0) return detailsEnd;

  const x = left + COLUMN_WIDTH + COLUMN_GAP;
  const inner = COLUMN_WIDTH - 2 * PANEL_PADDING;
  ink(doc, "regular", TYPE.small, INK.text);
  const heights = warnings.map((w) => doc.heightOfString(w.label + w.text, { width: inner }) + 8);
  const height =
    PANEL_PADDING +
    22 +
    payment.length * LINE_HEIGHT +
    heights.reduce((a, b) => a + b, 0) +
    PANEL_PADDING -
    4;
  artifact(doc, "Layout", () => {
    doc.rect(x, top - PANEL_PADDING, COLUMN_WIDTH, height).fill(accent.tint);
    doc.rect(x, top - PANEL_PADDING, 3, height).fill(accent.strong);
  });
  const panel = doc.struct("Sect");
  root.add(panel);
  y = drawHeading(doc, panel, "Payment information", accent, x + PANEL_PADDING, top);
  for (const line of payment) {
    drawLine(doc, panel, line, x + PANEL_PADDING, y, inner);
    y += LINE_HEIGHT;
  }
  for (const [i, warning] of warnings.entries()) {
    const at = { x: x + PANEL_PADDING, y: y + 4 };
    element(doc, panel, "P", () => {
      ink(doc, "bold", TYPE.small, INK.text).text(warning.label, at.x, at.y, {
        width: inner,
        continued: true,
      });
      ink(doc, "regular", TYPE.small, INK.text).text(warning.text);
    });
    y += heights[i] as number;
  }
  const end = Math.max(detailsEnd, top - PANEL_PADDING + height);
  const after = below ? below(panel, end) : end;
  panel.end();
  return after;
}

/**
 * How to read the amounts, and the references a cardholder quotes when they call; returns where
 * they end.
 */
export function drawNotes(
  doc: Doc,
  root: StructElement,
  input: StatementDocumentInput,
  money: AmountFormat,
  top: number,
): number {
  const currency = money.description ? `Currency: ${money.description}. ` : "";
  const notes =
    `${currency}Charges are shown as positive amounts; payments, credits and refunds as ` +
    "negative amounts. A negative new balance is a credit in your favour.";
  const reference =
    `Statement ${input.statement.statement_id} · Account ${input.account.account_id} · ` +
    `Customer ${input.customer.customer_id}`;
  let y = top;
  for (const text of [notes, reference]) {
    element(doc, root, "P", () => {
      ink(doc, "regular", TYPE.small, INK.muted).text(text, PAGE.margin, y, {
        width: CONTENT_WIDTH,
      });
    });
    y = doc.y + 6;
  }
  return y;
}
