// How a product presents its statement documents, and the rules a change must pass before it is
// stored: the renderer's own (logoProblem: a logo's bytes are the image its media type says, its
// alternative text is not blank; ACCENT_COLOUR: a colour is `#RRGGBB`), and limits that keep every
// render within a Worker's memory (a logo is one well-formed image whose decoding is bounded,
// logo-image.ts). The operator API and the dashboard check changes with this one schema (parsed
// asynchronously: a PNG's image data is inflated, counted), so a render never fails on settings
// accepted.
import * as z from "zod";
import { ACCENT_COLOUR, logoProblem } from "../../renderer/src/statement-document";
import { DOCUMENT_SOURCES } from "../domain/import-payload";
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

/**
 * A change of a product's documents and presentation: each field absent is left as it is; null
 * goes back to the default (the product's name, the service's colour, no logo).
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
  };
}
