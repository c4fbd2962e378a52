// The disclosures a periodic statement carries besides its figures: the late-payment and
// minimum-payment warnings with the repayment estimates, the interest charge calculation, the
// address for billing-error notices, and the mark of a corrected statement.
import type { Accent } from "./accent";
import { longDate } from "./calendar";
import { type Cell, drawFlowTable } from "./flow-table";
import type { AmountFormat } from "./money";
import { type PageFlow, sectionHeading } from "./page-flow";
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
import type {
  BalanceType,
  InterestRate,
  ProductPresentation,
  RepaymentDisclosure,
  RestatedStatement,
} from "./statement-document";

export const MINIMUM_WARNING_LABEL = "Minimum Payment Warning: ";
export const MINIMUM_WARNING =
  "If you make only the minimum payment each period, you will pay more in interest and it will " +
  "take you longer to pay off your balance.";
/** When no minimum payment is more than its month's interest. */
export const MINIMUM_WARNING_NEVER =
  "Even if you make no more charges using this card, if you make only the minimum payment each " +
  "month we estimate you will never pay off the balance shown on this statement, because your " +
  "payment will be less than the interest charged each month. If you make more than the minimum " +
  "payment each period, you will pay less in interest and pay off your balance sooner.";
export const LATE_WARNING_LABEL = "Late Payment Warning: ";

/** The late-payment warning for the product's terms, or undefined when it has none. */
export function lateWarning(product: ProductPresentation, money: AmountFormat): string | undefined {
  const terms = product.late_payment;
  const consequences = [
    ...(terms?.late_fee === undefined
      ? []
      : [`you may have to pay a late fee of up to ${money.format(terms.late_fee)}`]),
    ...(terms?.penalty_apr === undefined
      ? []
      : [`your APRs may be increased up to the Penalty APR of ${terms.penalty_apr}%`]),
  ];
  if (consequences.length === 0) return undefined;
  return (
    "If we do not receive your minimum payment by the date listed above, " +
    `${consequences.join(" and ")}.`
  );
}

/** "11 months", "1 month", or whole years from two years on ("4 years"), as the rule says. */
export function repaymentTime(months: number): string {
  if (months < 24) return months === 1 ? "1 month" : `${months} months`;
  return `${Math.round(months / 12)} years`;
}

/** The repayment estimates as the model form's table, with the counselling line under it. */
export function drawRepayment(
  doc: Doc,
  flow: PageFlow,
  section: StructElement,
  repayment: RepaymentDisclosure,
  product: ProductPresentation,
  money: AmountFormat,
  accent: Accent,
): void {
  const rows: Cell[][] = [];
  const { months, total_cost } = repayment.minimum_payment;
  if (months !== null && total_cost !== undefined) {
    rows.push(["Only the minimum payment", repaymentTime(months), money.whole(total_cost)]);
  }
  const three = repayment.three_years;
  if (three) {
    const total = money.whole(three.total_cost);
    rows.push([
      money.whole(three.monthly_payment),
      "3 years",
      three.savings === undefined ? total : `${total} (Savings = ${money.whole(three.savings)})`,
    ]);
  }
  if (rows.length > 0) {
    drawFlowTable(
      doc,
      flow,
      section,
      {
        title: "Repayment estimates",
        headingTag: "none",
        // Tabular figures throughout: proportional ones kern "7," apart in extracted text.
        columns: [
          {
            header: "If you make no additional charges using this card and each month you pay…",
            width: 204,
            tabular: true,
          },
          {
            header: "You will pay off the balance shown on this statement in about…",
            width: 150,
            tabular: true,
          },
          {
            header: "And you will end up paying an estimated total of…",
            width: CONTENT_WIDTH - 354,
            tabular: true,
          },
        ],
        rowHeaders: true,
        rows,
        keepTogether: true,
      },
      accent,
    );
  }
  const phone = product.credit_counseling_phone;
  if (phone) {
    const text = `If you would like information about credit counseling services, call ${phone}.`;
    ink(doc, "regular", TYPE.small, INK.text);
    flow.keep(doc.heightOfString(text, { width: CONTENT_WIDTH }) + 6);
    const y = flow.y + 6;
    element(doc, section, "P", () => {
      ink(doc, "regular", TYPE.small, INK.text).text(text, PAGE.margin, y, {
        width: CONTENT_WIDTH,
      });
    });
    flow.y = doc.y;
  }
}

const BALANCE_LABELS: Record<BalanceType, string> = {
  PURCHASES: "Purchases",
  CASH_ADVANCES: "Cash advances",
  BALANCE_TRANSFERS: "Balance transfers",
};

/** Each balance type's APR, the balance it applied to and the interest it charged. */
export function drawInterestCalculation(
  doc: Doc,
  flow: PageFlow,
  root: StructElement,
  rates: InterestRate[],
  money: AmountFormat,
  accent: Accent,
): void {
  const section = doc.struct("Sect");
  root.add(section);
  drawFlowTable(
    doc,
    flow,
    section,
    {
      title: "Interest charge calculation",
      headingTag: "H2",
      intro: "Your Annual Percentage Rate (APR) is the annual interest rate on your account.",
      columns: [
        { header: "Type of balance", width: 150 },
        {
          header: "Annual percentage rate (APR)",
          width: 110,
          align: "right",
          tabular: true,
        },
        {
          header: "Balance subject to interest rate",
          width: 130,
          align: "right",
          tabular: true,
        },
        { header: "Interest charge", width: CONTENT_WIDTH - 390, align: "right", tabular: true },
      ],
      rowHeaders: true,
      rows: rates.map((rate) => [
        BALANCE_LABELS[rate.balance_type],
        `${rate.annual_percentage_rate}%`,
        money.format(rate.balance_subject_to_interest),
        money.format(rate.interest),
      ]),
      keepTogether: true,
    },
    accent,
  );
  section.end();
  flow.y += 14;
}

const BILLING_RIGHTS =
  "If you think there is an error on your statement, write to us within 60 days after we sent " +
  "you the first statement on which the error appeared. Send notices of billing errors to:";

/** Where to send billing-error notices: the product's address. */
export function drawBillingRights(
  doc: Doc,
  flow: PageFlow,
  root: StructElement,
  address: string[],
  accent: Accent,
): void {
  ink(doc, "regular", TYPE.body, INK.text);
  const intro = doc.heightOfString(BILLING_RIGHTS, { width: CONTENT_WIDTH });
  const line = doc.currentLineHeight(true);
  const section = doc.struct("Sect");
  root.add(section);
  sectionHeading(doc, flow, section, "Billing rights", accent, intro + 6 + address.length * line);
  const top = flow.y;
  element(doc, section, "P", () => {
    ink(doc, "regular", TYPE.body, INK.text).text(BILLING_RIGHTS, PAGE.margin, top, {
      width: CONTENT_WIDTH,
    });
  });
  const at = top + intro + 6;
  element(doc, section, "P", () => {
    ink(doc, "bold", TYPE.body, INK.text);
    for (const [i, text] of address.entries()) {
      doc.text(text, PAGE.margin, at + i * line, { width: CONTENT_WIDTH, lineBreak: false });
    }
  });
  section.end();
  flow.y = at + address.length * line + 14;
}

/**
 * "Corrected statement — replaces statement <id> of <closing date>", in a tinted band under the
 * title; returns where it ends.
 */
export function drawCorrection(
  doc: Doc,
  root: StructElement,
  restates: RestatedStatement,
  accent: Accent,
  top: number,
): number {
  const text =
    `Corrected statement — replaces statement ${restates.statement_id} of ` +
    `${longDate(restates.period_end_date)}`;
  ink(doc, "bold", TYPE.body, INK.text);
  const height = doc.heightOfString(text, { width: CONTENT_WIDTH - 24 }) + 16;
  artifact(doc, "Layout", () => {
    doc.rect(PAGE.margin, top, CONTENT_WIDTH, height).fill(accent.tint);
    doc.rect(PAGE.margin, top, 3, height).fill(accent.strong);
  });
  element(doc, root, "P", () => {
    ink(doc, "bold", TYPE.body, INK.text).text(text, PAGE.margin + 12, top + 8, {
      width: CONTENT_WIDTH - 24,
    });
  });
  return top + height;
}
