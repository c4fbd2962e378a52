// The cycle's transactions as the model form (Regulation Z, G-18) groups them: payments, other
// credits (credits and refunds), purchases, then fees and interest charged, each group a table
// with its total; then the fees and interest totals for the year to date.
import type { Accent } from "./accent";
import { calendarYear, shortDate } from "./calendar";
import { type Cell, type Column, drawFlowTable } from "./flow-table";
import { type AmountFormat, amountFormat } from "./money";
import { type PageFlow, sectionHeading } from "./page-flow";
import { CONTENT_WIDTH, type Doc, type StructElement } from "./page-style";
import type { LineItem, LineItemType, StatementFigures } from "./statement-document";

export interface LineItemGroup {
  title: string;
  types: readonly LineItemType[];
  /** The label of its total: "Total purchases for this period". */
  total: string;
  /** Shown with its total even when the cycle has none (fees and interest, as the form does). */
  always?: boolean;
}

/** The groups of the transactions section, in the form's order. */
export const TRANSACTION_GROUPS: readonly LineItemGroup[] = [
  { title: "Payments", types: ["PAYMENT"], total: "Total payments for this period" },
  {
    title: "Other credits",
    types: ["CREDIT", "REFUND"],
    total: "Total other credits for this period",
  },
  { title: "Purchases", types: ["PURCHASE"], total: "Total purchases for this period" },
];

/** The groups of the fees and interest section. */
export const CHARGE_GROUPS: readonly LineItemGroup[] = [
  { title: "Fees", types: ["FEE"], total: "Total fees for this period", always: true },
  {
    title: "Interest charged",
    types: ["INTEREST"],
    total: "Total interest for this period",
    always: true,
  },
];

const DATE_WIDTH = 58;
const AMOUNT_WIDTH = 86;

/** The columns of a group's table; the foreign-amount column only when some item has one. */
function columnsOf(foreign: boolean): Column[] {
  const description = CONTENT_WIDTH - 2 * DATE_WIDTH - AMOUNT_WIDTH - (foreign ? AMOUNT_WIDTH : 0);
  return [
    { header: "Trans. date", expanded: "Transaction date", width: DATE_WIDTH, tabular: true },
    { header: "Post date", width: DATE_WIDTH, tabular: true },
    { header: "Description", width: description },
    ...(foreign
      ? [{ header: "Foreign amount", width: AMOUNT_WIDTH, align: "right" as const, tabular: true }]
      : []),
    { header: "Amount", width: AMOUNT_WIDTH, align: "right", tabular: true },
  ];
}

/** "Blue Bottle Coffee · Oakland, US · Card ending 4242": where it was made, when known. */
function detailOf(item: LineItem): string | undefined {
  const parts: string[] = [];
  const merchant = item.merchant;
  if (merchant) {
    const place = [merchant.city, merchant.country].filter(Boolean).join(", ");
    if (merchant.name !== item.description) parts.push(merchant.name);
    if (place) parts.push(place);
  }
  if (item.card_last4) parts.push(`Card ending ${item.card_last4}`);
  return parts.length > 0 ? parts.join(" · ") : undefined;
}

/** Foreign amounts by their currency's code ("EUR 45.00"), one format per currency. */
function foreignFormats(): (item: LineItem) => string | null {
  const formats = new Map<string, AmountFormat>();
  return (item) => {
    if (item.original_amount === undefined) return null;
    const code = item.original_currency ?? "";
    let format = formats.get(code);
    if (!format) {
      format = amountFormat(item.original_currency, "code");
      formats.set(code, format);
    }
    return format.format(item.original_amount);
  };
}

/** Draws the groups of `groups` that have items (or must show), each with its total. */
function drawGroups(
  doc: Doc,
  flow: PageFlow,
  section: StructElement,
  items: LineItem[],
  groups: readonly LineItemGroup[],
  money: AmountFormat,
  accent: Accent,
): void {
  const foreign = items.some((item) => item.original_amount !== undefined);
  const columns = columnsOf(foreign);
  const foreignAmount = foreignFormats();
  for (const group of groups) {
    const members = items.filter((item) => group.types.includes(item.type));
    if (members.length === 0 && !group.always) continue;
    const rows = members.map((item): Cell[] => {
      const detail = detailOf(item);
      return [
        item.transaction_date === undefined ? null : shortDate(item.transaction_date),
        shortDate(item.posted_at),
        detail ? { text: item.description, detail } : item.description,
        ...(foreign ? [foreignAmount(item)] : []),
        money.format(item.amount),
      ];
    });
    const total = members.reduce((sum, item) => sum + item.amount, 0);
    const part = doc.struct("Sect");
    section.add(part);
    drawFlowTable(
      doc,
      flow,
      part,
      {
        title: group.title,
        headingTag: "H3",
        columns,
        rows,
        totals: [{ label: group.total, amount: money.format(total) }],
      },
      accent,
    );
    part.end();
    flow.y += 14;
  }
}

/** The transactions section: payments, other credits, purchases. */
export function drawTransactions(
  doc: Doc,
  flow: PageFlow,
  root: StructElement,
  items: LineItem[],
  money: AmountFormat,
  accent: Accent,
): void {
  const section = doc.struct("Sect");
  root.add(section);
  sectionHeading(doc, flow, section, "Transactions", accent);
  drawGroups(doc, flow, section, items, TRANSACTION_GROUPS, money, accent);
  section.end();
}

/**
 * The fees and interest section: each charge with the cycle's total when the statement has line
 * items, and the totals for the year to date when it has them.
 */
export function drawCharges(
  doc: Doc,
  flow: PageFlow,
  root: StructElement,
  statement: StatementFigures,
  money: AmountFormat,
  accent: Accent,
): void {
  const items = statement.line_items ?? [];
  const ytd = statement.year_to_date;
  const ytdRows: Cell[][] = [];
  const year = calendarYear(statement.period_end_date);
  if (ytd?.fees !== undefined)
    ytdRows.push([`Total fees charged in ${year}`, money.format(ytd.fees)]);
  if (ytd?.interest !== undefined) {
    ytdRows.push([`Total interest charged in ${year}`, money.format(ytd.interest)]);
  }
  if (items.length === 0 && ytdRows.length === 0) return;
  const section = doc.struct("Sect");
  root.add(section);
  sectionHeading(doc, flow, section, "Fees and interest charged", accent);
  if (items.length > 0) drawGroups(doc, flow, section, items, CHARGE_GROUPS, money, accent);
  if (ytdRows.length > 0) {
    const part = doc.struct("Sect");
    section.add(part);
    drawFlowTable(
      doc,
      flow,
      part,
      {
        title: `${year} totals year-to-date`,
        headingTag: "H3",
        columns: [
          { header: "Charge", width: CONTENT_WIDTH - AMOUNT_WIDTH },
          { header: "Amount", width: AMOUNT_WIDTH, align: "right", tabular: true },
        ],
        rowHeaders: true,
        rows: ytdRows,
        keepTogether: true,
      },
      accent,
    );
    part.end();
    flow.y += 14;
  }
  section.end();
}
