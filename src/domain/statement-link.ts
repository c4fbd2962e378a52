// Signed, expiring links to a statement's PDF, served by src/documents/routes.ts without an API key.
// A link names the shard its statement lives on inside its signature, which signs the code too:
// the link stays opaque, and an altered code fails like any altered link.
//
// A page's links share their expiry and shard, so those are signed once, into a key derived for
// the page; each link's tag is the HMAC of its statement id alone under that key (two SHA-256
// blocks a link instead of three, and a 128-bit tag). Links signed before, one full MAC of the
// statement id, expiry and shard each, stay valid until they expire.
import { fromBase64Url, toBase64Url } from "./encoding";
import { FIRST_SHARD, isShardCode } from "./shard-code";
import { KEY_ID, MAC_BYTES, type Signer, TAG_BYTES } from "./signing";

/** A link lives one hour from the instant the statement was read (`as_of`). */
export const LINK_LIFETIME_MS = 3600 * 1000;

/** What the links signed one full MAC each signed: the statement id, the expiry, the shard. */
const PURPOSE_V1 = "statement-pdf:v1";
/** What a page's links derive their key from: the expiry and the shard. */
const PURPOSE = "statement-pdf:v2";
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
  // The signature of a link: the shard code's two characters, then the tag, as one base64 text.
  const [signatures, keyId] = await Promise.all([
    signer.signUnderDerivedKey(
      PURPOSE,
      [expires, shard],
      statementIds,
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

/** A signature's parts: its shard, and either a page key's tag or (signed before) a full MAC. */
type SplitSignature =
  | { shard: string; tag: Uint8Array; mac?: undefined; signed?: undefined }
  | { shard: string; mac: string; signed: string[]; tag?: undefined };

/**
 * The signature's shard and tag (or MAC), or null. A link issued before shards signs no code: the
 * first shard.
 */
function splitSignature(signature: string): SplitSignature | null {
  const bytes = fromBase64Url(signature);
  // Only the canonical encoding counts: spare low bits must not let an altered text pass.
  if (bytes === null || toBase64Url(bytes) !== signature) return null;
  if (bytes.byteLength === MAC_BYTES) return { shard: FIRST_SHARD, mac: signature, signed: [] };
  const length = bytes.byteLength;
  if (length !== CODE_BYTES + TAG_BYTES && length !== CODE_BYTES + MAC_BYTES) return null;
  const shard = new TextDecoder().decode(bytes.subarray(0, CODE_BYTES));
  if (!isShardCode(shard)) return null;
  if (length === CODE_BYTES + TAG_BYTES) return { shard, tag: bytes.subarray(CODE_BYTES) };
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
  const valid = split.tag
    ? await signer.verifyUnderDerivedKey(
        PURPOSE,
        [expires, split.shard],
        statementId,
        split.tag,
        keyId,
      )
    : await signer.verify(PURPOSE_V1, [statementId, expires, ...split.signed], split.mac, keyId);
  if (!valid) return { check: "invalid" };
  return { check: now < Number(expires) ? "valid" : "expired", shard: split.shard };
}
