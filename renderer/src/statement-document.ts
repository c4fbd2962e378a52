// What a statement document is made of: the statement's figures as the API has them, the account
// and customer it belongs to, and how the card product presents itself. A plain value, so that it
// crosses a Service Binding (RPC) as it is.
import type { Statement } from "../../src/domain/statement";

/** The statement's figures; absent lines stay absent, as in the API. */
export type StatementFigures = Pick<
  Statement,
  | "statement_id"
  | "period_start_date"
  | "due_date"
  | "currency"
  | "statement_balance"
  | "minimum_due"
  | "previous_balance"
  | "purchases"
  | "payments"
  | "credits"
  | "refunds"
  | "interest"
  | "fees"
  | "overdue_amount"
> & {
  /** When the cycle closed: the statement date (RFC 3339). */
  period_end_date: string;
};

export interface StatementAccount {
  account_id: string;
  /** How the account is shown to the cardholder instead of its id, such as "•••• 4242". */
  masked_number?: string;
}

export interface StatementCustomer {
  customer_id: string;
  /** The cardholder's name as the document addresses them. */
  display_name?: string;
}

/** A logo image: PNG or JPEG bytes, and the text that stands for it when it cannot be seen. */
export interface ProductLogo {
  bytes: Uint8Array;
  media_type: "image/png" | "image/jpeg";
  alt_text: string;
}

/** The accent colours the renderer draws: `#RRGGBB`. */
export const ACCENT_COLOUR = /^#[0-9A-Fa-f]{6}$/;

/** How the card product presents its documents. */
export interface ProductPresentation {
  display_name: string;
  /** The product's colour (ACCENT_COLOUR); darkened where needed to be legible on white. */
  accent_colour: string;
  logo?: ProductLogo;
}

export interface StatementDocumentInput {
  statement: StatementFigures;
  account: StatementAccount;
  customer: StatementCustomer;
  product: ProductPresentation;
}

const SIGNATURES: Record<ProductLogo["media_type"], number[]> = {
  "image/png": [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  "image/jpeg": [0xff, 0xd8, 0xff],
};

/** Why the logo cannot be drawn as it says it is, or null when it can. */
export function logoProblem(logo: ProductLogo): string | null {
  const signature = SIGNATURES[logo.media_type];
  if (!signature) return `logo media_type must be image/png or image/jpeg; got ${logo.media_type}`;
  if (!signature.every((byte, i) => logo.bytes[i] === byte)) {
    return `logo bytes are not a ${logo.media_type === "image/png" ? "PNG" : "JPEG"} image`;
  }
  if (logo.alt_text.trim() === "") return "logo alt_text must describe the logo";
  return null;
}
