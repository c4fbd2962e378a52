// Statement page tokens: the last row's sort key, signed and bound to who may continue the listing.
import { fromBase64Url, toBase64Url } from "./encoding";
import { KEY_ID, type Signer } from "./signing";

/** The keyset position: the last statement returned, in (period_end_date, statement_id) order. */
export interface PagePosition {
  periodEndDate: string;
  statementId: string;
}

/** Everything a token is bound to; a token issued under one binding fails under any other. */
export interface PageBinding {
  partnerId: string;
  environment: string;
  customerId: string;
  accountId: string;
  merchantKey: string;
}

const PURPOSE = "statement-page:v1";

function bindingParts(binding: PageBinding, payload: string): string[] {
  return [
    binding.partnerId,
    binding.environment,
    binding.merchantKey,
    binding.customerId,
    binding.accountId,
    payload,
  ];
}

/**
 * `<payload>.<mac>.<key id>`: payload and mac URL-safe base64, the key id naming the secret that
 * signed. Tokens issued before key ids (`<payload>.<mac>`) still verify.
 */
export async function encodePageToken(
  signer: Signer,
  binding: PageBinding,
  position: PagePosition,
): Promise<string> {
  const json = JSON.stringify([position.periodEndDate, position.statementId]);
  const payload = toBase64Url(new TextEncoder().encode(json));
  const [mac, keyId] = await Promise.all([
    signer.sign(PURPOSE, bindingParts(binding, payload)),
    signer.keyId(),
  ]);
  return `${payload}.${mac}.${keyId}`;
}

function splitToken(
  token: string,
): { payload: string; mac: string; keyId: string | undefined } | null {
  if (token.length > 512) return null;
  const [payload, mac, keyId, extra] = token.split(".");
  if (!payload || !mac || extra !== undefined) return null;
  if (keyId !== undefined && !KEY_ID.test(keyId)) return null;
  return { payload, mac, keyId };
}

/** The position in a token this endpoint issued for this binding, or null for anything else. */
export async function decodePageToken(
  signer: Signer,
  binding: PageBinding,
  token: string,
): Promise<PagePosition | null> {
  const parts = splitToken(token);
  if (!parts) return null;
  const signed = bindingParts(binding, parts.payload);
  if (!(await signer.verify(PURPOSE, signed, parts.mac, parts.keyId))) {
    return null;
  }
  return parsePosition(parts.payload);
}

/**
 * The position a token claims, unverified: only for planning reads ahead of authentication. The
 * handler verifies the token before using anything read with it.
 */
export function peekPagePosition(token: string): PagePosition | null {
  const parts = splitToken(token);
  return parts ? parsePosition(parts.payload) : null;
}

function parsePosition(payload: string): PagePosition | null {
  const bytes = fromBase64Url(payload);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [periodEndDate, statementId] = value;
    if (typeof periodEndDate !== "string" || typeof statementId !== "string") return null;
    return { periodEndDate, statementId };
  } catch {
    return null;
  }
}
