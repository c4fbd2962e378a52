// What the service hands the renderer Worker for one statement: its figures exactly as the API
// shows them, its account and customer, and its product's presentation with the defaults filled.
import type {
  ProductPresentation,
  StatementDocumentInput,
  StatementFigures,
} from "../../renderer/src/statement-document";
import { type LineItemRecord, toLineItem } from "../domain/line-item";
import type { LatePaymentTerms, MinimumPaymentRule } from "../domain/product";
import type { RewardsCategory } from "../domain/rewards";
import { type Statement, type StatementRecord, toStatement } from "../domain/statement";

/** The renderer Worker over its Service Binding (RPC; renderer/src/index.ts). */
export interface StatementRenderer {
  /** The statement's PDF; a `RangeError` for input it cannot draw. */
  render(input: StatementDocumentInput): Promise<Uint8Array>;
}

/** The accent colour of a product that has chosen none. */
export const DEFAULT_ACCENT_COLOUR = "#1d4f91";

/** How a product presents its documents, as stored (null: not chosen). */
export interface ProductLook {
  name: string;
  displayName: string | null;
  accentColour: string | null;
  logoKey: string | null;
  logoMediaType: "image/png" | "image/jpeg" | null;
  logoAltText: string | null;
  /** The terms its documents disclose (null: not set, the section is left out). */
  billingRightsAddress: string[] | null;
  latePayment: LatePaymentTerms | null;
  minimumPayment: MinimumPaymentRule | null;
  creditCounselingPhone: string | null;
  /** Its rewards categories (null: none): the Rewards section names them. */
  rewardsCategories: RewardsCategory[] | null;
}

/** One statement to render, as the render consumer reads it. */
export interface RenderJob {
  statement: Omit<StatementRecord, "hasPdf">;
  customerId: string;
  product: ProductLook;
  /** The statement this one corrects, with its closing date; null when it corrects none. */
  restates: { statementId: string; periodEndDate: string } | null;
  /** Its line items in document order (none: the document is the one-page summary). */
  lineItems: LineItemRecord[];
  /** Failed attempts so far, and when this render was asked for (its retry window's start). */
  attempts: number;
  requestedAt: string;
}

/** The renderer's input for `job`; `logo` is the logo's bytes when the product has one. */
export function renderInputOf(job: RenderJob, logo: Uint8Array | null): StatementDocumentInput {
  const {
    customer_id,
    account_id,
    as_of,
    pdf,
    period_end_date,
    restated_by,
    restates,
    ...figures
  } = toStatement(job.statement, job.customerId, "", undefined);
  const { product } = job;
  return {
    statement: {
      ...figures,
      period_end_date: period_end_date ?? job.statement.periodEndDate,
      ...(job.lineItems.length > 0 ? { line_items: job.lineItems.map(toLineItem) } : {}),
      ...(job.restates
        ? {
            restates: {
              statement_id: job.restates.statementId,
              period_end_date: job.restates.periodEndDate,
            },
          }
        : {}),
    },
    account: { account_id },
    customer: { customer_id },
    product: {
      display_name: product.displayName ?? product.name,
      accent_colour: product.accentColour ?? DEFAULT_ACCENT_COLOUR,
      ...(logo && product.logoMediaType && product.logoAltText
        ? {
            logo: { bytes: logo, media_type: product.logoMediaType, alt_text: product.logoAltText },
          }
        : {}),
      ...statementTermsOf(product),
    },
  };
}

/** The product's disclosed terms and category names the renderer takes: only those it has set. */
function statementTermsOf(product: ProductLook): Partial<ProductPresentation> {
  const terms: Partial<ProductPresentation> = {};
  if (product.billingRightsAddress) terms.billing_rights_address = product.billingRightsAddress;
  if (product.latePayment) terms.late_payment = product.latePayment;
  if (product.minimumPayment) terms.minimum_payment = product.minimumPayment;
  if (product.creditCounselingPhone) {
    terms.credit_counseling_phone = product.creditCounselingPhone;
  }
  if (product.rewardsCategories && product.rewardsCategories.length > 0) {
    terms.rewards_categories = product.rewardsCategories.map(({ category_id, name }) => ({
      category_id,
      name,
    }));
  }
  return terms;
}

// The renderer declares the figures it draws (it is a Worker of its own, importing nothing of
// the service): they must be the API's, which this fails to compile without.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type DrawnFigures = Omit<
  StatementFigures,
  "period_end_date" | "line_items" | "interest_rates" | "year_to_date" | "restates" | "repayment"
>;
const drift: Same<DrawnFigures, Pick<Statement, keyof DrawnFigures>> = true;
void drift;
