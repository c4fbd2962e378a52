// How a product presents its statement documents, and the rules a change must pass before it is
// stored: the renderer's own (logoProblem: a logo's bytes are the image its media type says, its
// alternative text is not blank; ACCENT_COLOUR: a colour is `#RRGGBB`), and limits that keep every
// render within a Worker's memory (a logo is one well-formed image whose decoding is bounded,
// logo-image.ts). The operator API and the dashboard check changes with this one schema (parsed
// asynchronously: a PNG's image data is inflated, counted), so a render never fails on settings
// accepted. The terms a periodic statement discloses (billing-rights address, late-payment terms,
// minimum-payment rule, credit-counselling number) are set the same way, within the renderer's
// bounds.
import * as z from "zod";
import {
  ACCENT_COLOUR,
  BILLING_ADDRESS_LINES,
  logoProblem,
} from "../../renderer/src/statement-document";
import { DOCUMENT_SOURCES } from "../domain/import-payload";
import type { LatePaymentTerms, MinimumPaymentRule } from "../domain/product";
import { RewardsCategories, type RewardsCategory } from "../domain/rewards";
import { APR_PATTERN } from "../domain/statement";
import { imageProblem } from "./logo-image";

/** A logo file is at most this large, */
export const MAX_LOGO_BYTES = 256 * 1024;
/**
 * and at most this many pixels wide and high: a statement draws it about 160 × 48 points. A PNG's
 * image data therefore inflates to at most 1024 × (1 + 1024 × 8) bytes (16-bit RGBA), about 8 MiB.
 */
export const MAX_LOGO_PIXELS = 1024;
export const MAX_DISPLAY_NAME = 80;
export const MAX_ALT_TEXT = 200;
/** A line of the billing-rights address: an envelope's line. */
export const MAX_ADDRESS_LINE = 100;
/** The most a late fee or a minimum payment may be, in minor units: 1,000,000.00. */
export const MAX_TERMS_AMOUNT = 100_000_000;
/** A telephone number as the cardholder dials it: digits, spaces, `+ ( ) - .`, 7 to 15 digits. */
export const PHONE_PATTERN = /^\+?[0-9][0-9 ().-]{5,23}[0-9]$/;

export const LOGO_MEDIA_TYPES = ["image/png", "image/jpeg"] as const;
export type LogoMediaType = (typeof LOGO_MEDIA_TYPES)[number];

/** A logo as it is sent: its media type, its bytes and what it says. */
export interface LogoUpload {
  media_type: LogoMediaType;
  bytes: Uint8Array;
  alt_text: string;
}

/**
 * Why `logo` cannot be a product's logo, or null when it can: one well-formed PNG or JPEG within
 * the limits, its decoding bounded before the renderer ever decodes it (logo-image.ts).
 */
export async function logoUploadProblem(logo: LogoUpload): Promise<string | null> {
  if (logo.bytes.length > MAX_LOGO_BYTES) {
    return `logo must be at most ${MAX_LOGO_BYTES} bytes; got ${logo.bytes.length}`;
  }
  return logoProblem(logo) ?? (await imageProblem(logo.bytes, logo.media_type, MAX_LOGO_PIXELS));
}

/** Base64 text to bytes; null when it is not base64. */
function fromBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

const altText = z
  .string()
  .max(MAX_ALT_TEXT)
  .refine((text) => text.trim() !== "", "must describe the logo (it must not be blank)");

const APR_MESSAGE =
  'must be a decimal string from "0" to "999.9999", such as "24.99" (up to 4 decimals)';
const apr = z.string().regex(APR_PATTERN, APR_MESSAGE);
const amount = z.int().min(0).max(MAX_TERMS_AMOUNT);

const BillingRightsAddress = z
  .array(
    z
      .string()
      .max(MAX_ADDRESS_LINE)
      .refine((line) => line.trim() !== "", "must not be blank")
      .refine((line) => !/\p{Cc}/u.test(line), "must be one line, without control characters"),
  )
  .min(1)
  .max(BILLING_ADDRESS_LINES);

const LatePayment = z
  .strictObject({ late_fee: amount.optional(), penalty_apr: apr.optional() })
  .refine((terms) => terms.late_fee !== undefined || terms.penalty_apr !== undefined, {
    message: "must set late_fee, penalty_apr or both (null removes the terms)",
  });

const MinimumPayment = z.strictObject({
  percent_of_balance: apr.refine((percent) => {
    const value = Number(percent);
    return value > 0 && value <= 100;
  }, "must be more than 0 and at most 100 (percent)"),
  includes_interest_and_fees: z.boolean(),
  minimum_amount: amount,
});

const CreditCounselingPhone = z
  .string()
  .regex(PHONE_PATTERN, 'must be a telephone number such as "1-800-555-0100"')
  .refine((phone) => {
    const digits = phone.replace(/[^0-9]/g, "").length;
    return digits >= 7 && digits <= 15;
  }, "must have 7 to 15 digits");

/**
 * A change of a product's documents, presentation and rewards categories: each field absent is
 * left as it is; null goes back to the default (the product's name, the service's colour, no
 * logo).
 */
export const ProductChangeSchema = z
  .strictObject({
    documents: z.enum(DOCUMENT_SOURCES).optional(),
    display_name: z
      .string()
      .max(MAX_DISPLAY_NAME)
      .refine((name) => name.trim() !== "", "must not be blank")
      .nullable()
      .optional(),
    accent_colour: z
      .string()
      .regex(ACCENT_COLOUR, "must be a colour written #RRGGBB")
      .nullable()
      .optional(),
    logo: z
      .strictObject({
        media_type: z.enum(LOGO_MEDIA_TYPES),
        data: z.string().max(Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 4),
        alt_text: altText,
      })
      .transform(async (logo, ctx) => {
        const bytes = fromBase64(logo.data);
        if (!bytes) {
          ctx.addIssue({ code: "custom", path: ["data"], message: "must be base64" });
          return z.NEVER;
        }
        const upload: LogoUpload = { media_type: logo.media_type, bytes, alt_text: logo.alt_text };
        const problem = await logoUploadProblem(upload);
        if (problem) {
          ctx.addIssue({ code: "custom", path: ["data"], message: problem });
          return z.NEVER;
        }
        return upload;
      })
      .nullable()
      .optional(),
    logo_alt_text: altText.optional(),
    billing_rights_address: BillingRightsAddress.nullable().optional(),
    late_payment: LatePayment.nullable().optional(),
    minimum_payment: MinimumPayment.nullable().optional(),
    credit_counseling_phone: CreditCounselingPhone.nullable().optional(),
    /** The whole list, replacing the stored one; an empty list removes them all. */
    rewards_categories: RewardsCategories.optional(),
  })
  .refine((change) => !(change.logo !== undefined && change.logo_alt_text !== undefined), {
    path: ["logo_alt_text"],
    message: "send the alternative text of a new logo in logo.alt_text",
  });

export type ProductChange = z.output<typeof ProductChangeSchema>;

/** A product as the operator API and the dashboard show it. */
export interface ProductSettings {
  merchantKey: string;
  partnerId: string;
  name: string;
  documents: (typeof DOCUMENT_SOURCES)[number];
  displayName: string | null;
  accentColour: string | null;
  logoKey: string | null;
  logoMediaType: LogoMediaType | null;
  logoAltText: string | null;
  billingRightsAddress: string[] | null;
  latePayment: LatePaymentTerms | null;
  minimumPayment: MinimumPaymentRule | null;
  creditCounselingPhone: string | null;
  /** What the card earns per merchant category; null until set (none). */
  rewardsCategories: RewardsCategory[] | null;
}

/** The operator API's JSON of a product. */
export function productJson(product: ProductSettings) {
  return {
    merchant_key: product.merchantKey,
    partner_id: product.partnerId,
    name: product.name,
    documents: product.documents,
    display_name: product.displayName,
    accent_colour: product.accentColour,
    logo:
      product.logoKey && product.logoMediaType
        ? { media_type: product.logoMediaType, alt_text: product.logoAltText }
        : null,
    billing_rights_address: product.billingRightsAddress,
    late_payment: product.latePayment,
    minimum_payment: product.minimumPayment,
    credit_counseling_phone: product.creditCounselingPhone,
    rewards_categories: product.rewardsCategories ?? [],
  };
}
