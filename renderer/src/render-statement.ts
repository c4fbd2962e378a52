// One statement's document: a tagged PDF (PDF/UA-1) a cardholder can read and a screen reader can
// follow. Pure: the same input gives the same bytes, so a retried render stores the same object.
import PDFDocument from "pdfkit";
import { accentOf } from "./accent";
import { longDate } from "./calendar";
import { drawBillingRights, drawInterestCalculation, drawRepayment } from "./disclosures";
import { fonts } from "./fonts";
import { inputProblem } from "./input-problems";
import { amountFormat } from "./money";
import { PageFlow } from "./page-flow";
import { CONTENT_WIDTH, type Doc, element, INK, ink, PAGE, TYPE } from "./page-style";
import { statementRepayment } from "./repayment";
import { drawRewards } from "./rewards";
import type { StatementDocumentInput } from "./statement-document";
import { drawHeader, drawNotes, drawOverview } from "./statement-sections";
import { drawSummaryTable } from "./summary-table";
import { drawCharges, drawTransactions } from "./transactions";
import { escapeXmpInfo } from "./xmp-text";

/** The document's language; labels and formats are en-US. */
export const DOCUMENT_LANGUAGE = "en-US";

/** The document's title, shown as the viewer's window title: "Acme Card statement". */
export function statementTitle(input: StatementDocumentInput): string {
  return `${input.product.display_name} statement`;
}

/** The statement's PDF. Throws a RangeError naming the field when the input cannot be drawn. */
export async function renderStatementDocument(input: StatementDocumentInput): Promise<Uint8Array> {
  const problem = inputProblem(input);
  if (problem) throw new RangeError(problem);
  const accent = accentOf(input.product.accent_colour);
  const money = amountFormat(input.statement.currency);
  const title = statementTitle(input);
  const closed = new Date(input.statement.period_end_date);
  const { regular, bold } = fonts();
  const doc = new PDFDocument({
    size: PAGE.size,
    margin: PAGE.margin,
    pdfVersion: "1.7",
    tagged: true,
    lang: DOCUMENT_LANGUAGE,
    displayTitle: true,
    bufferPages: true,
    // Dated by the statement, not the clock, so that rendering again gives the same bytes.
    info: {
      Title: title,
      Subject: `Statement for the period ending ${longDate(input.statement.period_end_date)}`,
      Author: input.product.display_name,
      CreationDate: closed,
      ModDate: closed,
    },
    // pdfkit 0.20 takes these; @types/pdfkit 0.17 declares neither. The font given here is the
    // default one, so that no standard (unembedded) font is ever loaded.
    ...({ subset: "PDF/UA", font: regular } as object),
  });
  escapeXmpInfo(doc);
  const bytes = collect(doc);
  // pdfkit keeps a document's fonts under their PostScript names; the default (regular) one is
  // already kept, and asking for a font by any other name makes pdfkit load it again and compare
  // it with the one it has, every time (most of a long document's CPU once shaping is shared).
  doc.registerFont(bold.postscriptName, bold);

  const { statement, product } = input;
  const closing = longDate(statement.period_end_date);
  const account = input.account.masked_number ?? input.account.account_id;
  const root = doc.struct("Document");
  doc.addStructure(root);
  let y = drawHeader(doc, root, input, accent, title);
  const flow = new PageFlow(doc, y, {
    text: `${title} · Account ${account} · Closing date ${closing}`,
    colour: accent.strong,
  });
  const repayment = statementRepayment(statement, product.minimum_payment, money.digits);
  y = drawOverview(doc, root, input, money, accent, y, repayment, (panel, end) => {
    if (!repayment) return end;
    flow.y = end + 14;
    drawRepayment(doc, flow, panel, repayment, product, money, accent);
    return flow.y;
  });
  const summary = doc.struct("Sect");
  root.add(summary);
  element(doc, summary, "H2", () => {
    ink(doc, "bold", TYPE.heading, accent.strong).text("Account summary", PAGE.margin, y + 28);
  });
  y = drawSummaryTable(doc, summary, statement, money, accent, y + 52);
  summary.end();
  flow.y = drawNotes(doc, root, input, money, y + 14) + 14;

  const items = statement.line_items ?? [];
  if (items.length > 0) drawTransactions(doc, flow, root, items, money, accent);
  drawCharges(doc, flow, root, statement, money, accent);
  if (statement.interest_rates && statement.interest_rates.length > 0) {
    drawInterestCalculation(doc, flow, root, statement.interest_rates, money, accent);
  }
  if (statement.rewards) {
    drawRewards(doc, flow, root, statement.rewards, product, money, accent);
  }
  if (product.billing_rights_address && product.billing_rights_address.length > 0) {
    drawBillingRights(doc, flow, root, product.billing_rights_address, accent);
  }
  root.end();
  numberPages(doc, `${title} · Closing date ${closing}`);
  doc.end();
  return bytes;
}

/** "Page n of N" and the document's name at the foot of every page, as pagination artifacts. */
function numberPages(doc: Doc, footer: string): void {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would otherwise start a new page.
    doc.page.margins.bottom = 0;
    const y = PAGE.height - PAGE.margin + 18;
    doc.markContent("Artifact", { type: "Pagination", attached: ["Bottom"] });
    ink(doc, "regular", TYPE.small, INK.muted);
    doc.text(footer, PAGE.margin, y, { width: CONTENT_WIDTH, lineBreak: false });
    doc.text(`Page ${i + 1} of ${count}`, PAGE.margin, y, {
      width: CONTENT_WIDTH,
      align: "right",
      lineBreak: false,
    });
    doc.endMarkedContent();
  }
}

/** The document's bytes, once pdfkit has written them all. */
function collect(doc: Doc): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  return new Promise((resolve, reject) => {
    doc.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    doc.on("error", reject);
    doc.on("end", () => {
      const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
      let offset = 0;
      for (const chunk of chunks) {
        out.set(chunk, offset);
        offset += chunk.byteLength;
      }
      resolve(out);
    });
  });
}
