// Signed, expiring links to a statement's PDF, served by src/documents/routes.ts without an API key.
import { KEY_ID, type Signer } from "./signing";

/** A link lives one hour from the instant the statement was read (`as_of`). */
export const LINK_LIFETIME_MS = 3600 * 1000;

const PURPOSE = "statement-pdf:v1";

/** The path of the download route for a statement. */
export function statementPdfPath(statementId: string): string {
  return `/files/statements/${encodeURIComponent(statementId)}/pdf`;
}

/**
 * Absolute links to these statements' PDFs, each valid until `expiresAt` (epoch milliseconds) and
 * naming the key that signed it.
 */
export async function signStatementLinks(
  signer: Signer,
  origin: string,
  statementIds: readonly string[],
  expiresAt: number,
): Promise<string[]> {
  const expires = String(expiresAt);
  const [signatures, keyId] = await Promise.all([
    signer.signEach(
      PURPOSE,
      statementIds.map((id) => [id, expires]),
    ),
    signer.keyId(),
  ]);
  return statementIds.map(
    (id, i) =>
      `${origin}${statementPdfPath(id)}?expires=${expires}&signature=${signatures[i]}&kid=${keyId}`,
  );
}

export type LinkCheck = "valid" | "invalid" | "expired";

/** The query of a link: `kid` is absent from links issued before key ids. */
export interface LinkQuery {
  expires: string | undefined;
  signature: string | undefined;
  keyId: string | undefined;
}

/** Checks a link's signature first, then its expiry against `now` (epoch milliseconds). */
export async function verifyStatementLink(
  signer: Signer,
  statementId: string,
  { expires, signature, keyId }: LinkQuery,
  now: number,
): Promise<LinkCheck> {
  if (!expires || !signature || !/^\d{1,15}$/.test(expires)) return "invalid";
  if (keyId !== undefined && !KEY_ID.test(keyId)) return "invalid";
  if (!(await signer.verify(PURPOSE, [statementId, expires], signature, keyId))) return "invalid";
  return now < Number(expires) ? "valid" : "expired";
}
