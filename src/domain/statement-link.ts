// Signed, expiring links to a statement's PDF, served by src/documents/routes.ts without an API key.
// A link names the shard its statement lives on inside its signature, which signs the code too:
// the link stays opaque, and an altered code fails like any altered link.
import { fromBase64Url, toBase64Url } from "./encoding";
import { FIRST_SHARD, isShardCode } from "./shard-code";
import { KEY_ID, MAC_BYTES, type Signer } from "./signing";

/** A link lives one hour from the instant the statement was read (`as_of`). */
export const LINK_LIFETIME_MS = 3600 * 1000;

const PURPOSE = "statement-pdf:v1";
const CODE_BYTES = 2;

/** The path of the download route for a statement. */
export function statementPdfPath(statementId: string): string {
  return `/files/statements/${encodeURIComponent(statementId)}/pdf`;
}

/**
 * Absolute links to these statements' PDFs, which live on shard `shard`, each valid until
 * `expiresAt` (epoch milliseconds) and naming the key that signed it.
 */
export async function signStatementLinks(
  signer: Signer,
  origin: string,
  statementIds: readonly string[],
  expiresAt: number,
  shard: string,
): Promise<string[]> {
  const expires = String(expiresAt);
  // The signature of a link: the shard code's two characters, then the MAC, as one base64 text.
  const [signatures, keyId] = await Promise.all([
    signer.signEach(
      PURPOSE,
      statementIds.map((id) => [id, expires, shard]),
      new TextEncoder().encode(shard),
    ),
    signer.keyId(),
  ]);
  return statementIds.map(
    (id, i) =>
      `${origin}${statementPdfPath(id)}?expires=${expires}` +
      `&signature=${signatures[i]}&kid=${keyId}`,
  );
}

export type LinkCheck =
  | { check: "valid" | "expired"; shard: string }
  | { check: "invalid"; shard?: undefined };

/** The query of a link: `kid` is absent from links issued before key ids. */
export interface LinkQuery {
  expires: string | undefined;
  signature: string | undefined;
  keyId: string | undefined;
}

/**
 * The signature's shard and MAC, or null. A link issued before shards signs no code: the first
 * shard.
 */
function splitSignature(
  signature: string,
): { shard: string; mac: string; signed: string[] } | null {
  const bytes = fromBase64Url(signature);
  // Only the canonical encoding counts: spare low bits must not let an altered text pass.
  if (bytes === null || toBase64Url(bytes) !== signature) return null;
  if (bytes.byteLength === MAC_BYTES) return { shard: FIRST_SHARD, mac: signature, signed: [] };
  if (bytes.byteLength !== CODE_BYTES + MAC_BYTES) return null;
  const shard = new TextDecoder().decode(bytes.subarray(0, CODE_BYTES));
  if (!isShardCode(shard)) return null;
  return { shard, mac: toBase64Url(bytes.subarray(CODE_BYTES)), signed: [shard] };
}

/**
 * Checks a link's signature first (with the shard it names), then its expiry against `now`
 * (epoch milliseconds); a valid or expired link answers the shard of its statement.
 */
export async function verifyStatementLink(
  signer: Signer,
  statementId: string,
  { expires, signature, keyId }: LinkQuery,
  now: number,
): Promise<LinkCheck> {
  if (!expires || !signature || !/^\d{1,15}$/.test(expires)) return { check: "invalid" };
  if (keyId !== undefined && !KEY_ID.test(keyId)) return { check: "invalid" };
  const split = splitSignature(signature);
  if (!split) return { check: "invalid" };
  const parts = [statementId, expires, ...split.signed];
  if (!(await signer.verify(PURPOSE, parts, split.mac, keyId))) return { check: "invalid" };
  return { check: now < Number(expires) ? "valid" : "expired", shard: split.shard };
}
