// Page tokens: the last row's sort key and the shard that served the page, signed and bound to
// who may continue the listing (and with which filters). Statements, line items and events pages
// each sign under their own purpose. The key, not the token, routes the next page (a partner moved
// since reads it from its new shard), so tokens issued before a move keep working.
import { fromBase64Url, toBase64Url } from "./encoding";
import type { Environment } from "./environment";
import type { LineItemPosition } from "./line-item";
import { FIRST_SHARD, isShardCode } from "./shard-code";
import { KEY_ID, type Signer } from "./signing";

/** The keyset position: the last statement returned, in (period_end_date, statement_id) order. */
export interface PagePosition {
  periodEndDate: string;
  statementId: string;
}

/** Everything a token is bound to; a token issued under one binding fails under any other. */
export interface PageBinding {
  partnerId: string;
  environment: Environment;
  customerId: string;
  accountId: string;
  merchantKey: string;
  /**
   * The listing's filters in canonical form; absent for an unfiltered listing, whose tokens are
   * signed exactly as before filters existed.
   */
  filters?: string;
}

/**
 * One kind of page token: the purpose it signs under, the parts of its binding, and how its
 * position reads as the payload's pair. Statements and events pages are the two kinds.
 */
interface TokenKind<Binding, Position> {
  purpose: string;
  parts(binding: Binding): string[];
  pair(position: Position): [string, string];
  position(pair: [string, string]): Position;
}

/**
 * `<payload>.<mac>.<key id>`: payload and mac URL-safe base64 (the payload is the position and the
 * shard code as a JSON triple), the key id naming the secret that signed. Tokens issued before key
 * ids (`<payload>.<mac>`) and before shards (a JSON pair) still verify.
 */
async function encodeToken<B, P>(
  kind: TokenKind<B, P>,
  signer: Signer,
  binding: B,
  position: P,
  shard: string,
): Promise<string> {
  const payload = toBase64Url(
    new TextEncoder().encode(JSON.stringify([...kind.pair(position), shard])),
  );
  const [mac, keyId] = await Promise.all([
    signer.sign(kind.purpose, [...kind.parts(binding), payload]),
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

/**
 * The position in a token of this kind issued for this binding, with the shard that served it, or
 * null for anything else.
 */
async function decodeToken<B, P>(
  kind: TokenKind<B, P>,
  signer: Signer,
  binding: B,
  token: string,
): Promise<(P & { shard: string }) | null> {
  const split = splitToken(token);
  if (!split) return null;
  const parts = [...kind.parts(binding), split.payload];
  if (!(await signer.verify(kind.purpose, parts, split.mac, split.keyId))) return null;
  const payload = parsePayload(split.payload);
  return payload && { ...kind.position(payload.pair), shard: payload.shard };
}

const STATEMENT_PAGES: TokenKind<PageBinding, PagePosition> = {
  purpose: "statement-page:v1",
  parts: (binding) => {
    const parts = [
      binding.partnerId,
      binding.environment,
      binding.merchantKey,
      binding.customerId,
      binding.accountId,
    ];
    if (binding.filters !== undefined) parts.push(`filters:${binding.filters}`);
    return parts;
  },
  pair: (position) => [position.periodEndDate, position.statementId],
  position: ([periodEndDate, statementId]) => ({ periodEndDate, statementId }),
};

/** A statements page token for the page after `position`, served from shard `shard`. */
export function encodePageToken(
  signer: Signer,
  binding: PageBinding,
  position: PagePosition,
  shard: string,
): Promise<string> {
  return encodeToken(STATEMENT_PAGES, signer, binding, position, shard);
}

/**
 * The position in a token this endpoint issued for this binding, with the shard that served it,
 * or null for anything else.
 */
export function decodePageToken(
  signer: Signer,
  binding: PageBinding,
  token: string,
): Promise<(PagePosition & { shard: string }) | null> {
  return decodeToken(STATEMENT_PAGES, signer, binding, token);
}

/**
 * The position a token claims, unverified: only for planning reads ahead of authentication. The
 * handler verifies the token before using anything read with it.
 */
export function peekPagePosition(token: string): PagePosition | null {
  const split = splitToken(token);
  const payload = split && parsePayload(split.payload);
  return payload && STATEMENT_PAGES.position(payload.pair);
}

/** What an events page token is bound to: one product of one partner's environment. */
export interface EventPageBinding {
  partnerId: string;
  environment: string;
  merchantKey: string;
}

/** The keyset position of an events page: the last event returned, in (created_at, id) order. */
export interface EventPagePosition {
  createdAt: string;
  eventId: string;
}

const EVENT_PAGES: TokenKind<EventPageBinding, EventPagePosition> = {
  purpose: "event-page:v1",
  parts: (binding) => [binding.partnerId, binding.environment, binding.merchantKey],
  pair: (position) => [position.createdAt, position.eventId],
  position: ([createdAt, eventId]) => ({ createdAt, eventId }),
};

export function encodeEventPageToken(
  signer: Signer,
  binding: EventPageBinding,
  position: EventPagePosition,
  shard: string,
): Promise<string> {
  return encodeToken(EVENT_PAGES, signer, binding, position, shard);
}

export function decodeEventPageToken(
  signer: Signer,
  binding: EventPageBinding,
  token: string,
): Promise<(EventPagePosition & { shard: string }) | null> {
  return decodeToken(EVENT_PAGES, signer, binding, token);
}

/** A token's payload: the keyset position, and the shard (the first for tokens without one). */
interface Payload {
  pair: [string, string];
  shard: string;
}

function parsePayload(payload: string): Payload | null {
  const bytes = fromBase64Url(payload);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (!Array.isArray(value) || value.length < 2 || value.length > 3) return null;
    const [first, second, shard = FIRST_SHARD] = value;
    if (typeof first !== "string" || typeof second !== "string") return null;
    if (typeof shard !== "string" || !isShardCode(shard)) return null;
    return { pair: [first, second], shard };
  } catch {
    return null;
  }
}

/** What a line items page token is bound to: one statement as one product's key reads it. */
export interface LineItemPageBinding extends PageBinding {
  statementId: string;
}

const LINE_ITEM_PAGES: TokenKind<LineItemPageBinding, LineItemPosition> = {
  purpose: "line-item-page:v1",
  parts: (binding) => {
    const parts = [
      ...STATEMENT_PAGES.parts({ ...binding, filters: undefined }),
      binding.statementId,
    ];
    if (binding.filters !== undefined) parts.push(`filters:${binding.filters}`);
    return parts;
  },
  pair: (position) => [position.postedAt, position.lineItemId],
  position: ([postedAt, lineItemId]) => ({ postedAt, lineItemId }),
};

export function encodeLineItemPageToken(
  signer: Signer,
  binding: LineItemPageBinding,
  position: LineItemPosition,
  shard: string,
): Promise<string> {
  return encodeToken(LINE_ITEM_PAGES, signer, binding, position, shard);
}

/** The position in a token this endpoint issued for this binding, or null for anything else. */
export function decodeLineItemPageToken(
  signer: Signer,
  binding: LineItemPageBinding,
  token: string,
): Promise<(LineItemPosition & { shard: string }) | null> {
  return decodeToken(LINE_ITEM_PAGES, signer, binding, token);
}

/** The position a line items token claims, unverified: only for planning reads (see above). */
export function peekLineItemPosition(token: string): LineItemPosition | null {
  const split = splitToken(token);
  const payload = split && parsePayload(split.payload);
  return payload && LINE_ITEM_PAGES.position(payload.pair);
}
