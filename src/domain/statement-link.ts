// Signed, expiring links to a statement's PDF, served by routes/files.ts without an API key.
import type { Signer } from "./signing";

/** A link lives one hour from the instant the statement was read (`as_of`). */
export const LINK_LIFETIME_MS = 3600 * 1000;

const PURPOSE = "statement-pdf:v1";

/** The path of the download route for a statement. */
export function statementPdfPath(statementId: string): string {
  return `/files/statements/${encodeURIComponent(statementId)}/pdf`;
}

/** Absolute links to these statements' PDFs, each valid until `expiresAt` (epoch milliseconds). */
export async function signStatementLinks(
  signer: Signer,
  origin: string,
  statementIds: readonly string[],
  expiresAt: number,
): Promise<string[]> {
  const expires = String(expiresAt);
  const signatures = await signer.signEach(
    PURPOSE,
    statementIds.map((id) => [id, expires]),
  );
  return statementIds.map(
    (id, i) => `${origin}${statementPdfPath(id)}?expires=${expires}&signature=${signatures[i]}`,
  );
}

export type LinkCheck = "valid" | "invalid" | "expired";

/** Checks a link's signature first, then its expiry against `now` (epoch milliseconds). */
export async function verifyStatementLink(
  signer: Signer,
  statementId: string,
  expires: string | undefined,
  signature: string | undefined,
  now: number,
): Promise<LinkCheck> {
  if (!expires || !signature || !/^\d{1,15}$/.test(expires)) return "invalid";
  if (!(await signer.verify(PURPOSE, [statementId, expires], signature))) return "invalid";
  return now < Number(expires) ? "valid" : "expired";
}
