// How a product presents its statement documents, and the rules a change must pass before it is
// stored: the renderer's own (logoProblem: a logo's bytes are the image its media type says, its
// alternative text is not blank; ACCENT_COLOUR: a colour is `#RRGGBB`), and limits that keep every
// render within a Worker's memory (a PNG is decoded to its pixels). The operator API and the
// dashboard check changes with this one schema, so a render never fails on settings accepted.
import * as z from "zod";
import { ACCENT_COLOUR, logoProblem } from "../../renderer/src/statement-document";
import { DOCUMENT_SOURCES } from "../domain/import-payload";

/** A logo file is at most this large, */
export const MAX_LOGO_BYTES = 256 * 1024;
/** and at most this many pixels wide and high: a statement draws it about 160 × 48 points. */
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

/** Width and height of a PNG (its IHDR) or a JPEG (its first frame header); null if unreadable. */
export function imageSize(
  bytes: Uint8Array,
  mediaType: LogoMediaType,
): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (mediaType === "image/png") {
    if (bytes.length < 24) return null;
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  // JPEG: walk the marker segments to the first start-of-frame (SOF0..SOF15 but DHT, JPG, DAC).
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

/** Why `logo` cannot be a product's logo, or null when it can. */
export function logoUploadProblem(logo: LogoUpload): string | null {
  if (logo.bytes.length > MAX_LOGO_BYTES) {
    return `logo must be at most ${MAX_LOGO_BYTES} bytes; got ${logo.bytes.length}`;
  }
  const problem = logoProblem(logo);
  if (problem !== null) return problem;
  const size = imageSize(logo.bytes, logo.media_type);
  if (!size || size.width < 1 || size.height < 1) return "logo: the image's size cannot be read";
  if (size.width > MAX_LOGO_PIXELS || size.height > MAX_LOGO_PIXELS) {
    return (
      `logo must be at most ${MAX_LOGO_PIXELS} × ${MAX_LOGO_PIXELS} pixels; ` +
      `got ${size.width} × ${size.height}`
    );
  }
  return null;
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
      .transform((logo, ctx) => {
        const bytes = fromBase64(logo.data);
        if (!bytes) {
          ctx.addIssue({ code: "custom", path: ["data"], message: "must be base64" });
          return z.NEVER;
        }
        const upload: LogoUpload = { media_type: logo.media_type, bytes, alt_text: logo.alt_text };
        const problem = logoUploadProblem(upload);
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
