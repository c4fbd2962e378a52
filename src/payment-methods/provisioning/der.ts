// Just enough DER to read an X.509 certificate: its elements' tags and bounds, and the two time
// forms of its validity. The keys inside are read by WebCrypto (`importKey("spki", …)`), which
// checks their algorithm and curve itself.

/** Bytes that are not the DER the reader expected. */
export class DerError extends Error {}

/** One element: its tag, and where its contents start and end within the buffer read. */
export interface DerElement {
  tag: number;
  /** The offset of its tag: the element's whole encoding is `bytes.subarray(start, end)`. */
  start: number;
  contentStart: number;
  end: number;
}

export const TAG = {
  integer: 0x02,
  bitString: 0x03,
  objectIdentifier: 0x06,
  utcTime: 0x17,
  generalizedTime: 0x18,
  sequence: 0x30,
  /** `[0]`, constructed: the certificate's explicit version. */
  context0: 0xa0,
} as const;

/** The element at `offset`, which must end by `limit`. */
export function readElement(bytes: Uint8Array, offset: number, limit: number): DerElement {
  const tag = byteAt(bytes, offset, limit);
  // X.509's tags all fit the one-byte form; the multi-byte form is refused rather than skipped.
  if ((tag & 0x1f) === 0x1f) throw new DerError("unsupported tag form");
  const first = byteAt(bytes, offset + 1, limit);
  let length = first;
  let contentStart = offset + 2;
  if (first & 0x80) {
    const count = first & 0x7f;
    // Indefinite lengths are BER, not DER; four length bytes already exceed any certificate.
    if (count === 0 || count > 4) throw new DerError("unsupported length");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + byteAt(bytes, contentStart + i, limit);
    contentStart += count;
  }
  const end = contentStart + length;
  if (end > limit) throw new DerError("element runs past its container");
  return { tag, start: offset, contentStart, end };
}

/** The element at `offset`, checked to carry `tag`. */
export function expectElement(
  bytes: Uint8Array,
  offset: number,
  limit: number,
  tag: number,
): DerElement {
  const element = readElement(bytes, offset, limit);
  if (element.tag !== tag) throw new DerError(`expected tag ${tag}, found ${element.tag}`);
  return element;
}

/** The direct children of a constructed element, in order. */
export function childrenOf(bytes: Uint8Array, parent: DerElement): DerElement[] {
  const children: DerElement[] = [];
  for (let at = parent.contentStart; at < parent.end; ) {
    const child = readElement(bytes, at, parent.end);
    children.push(child);
    at = child.end;
  }
  return children;
}

/** A UTCTime (two-digit year: 50–99 are 19xx, as RFC 5280 says) or GeneralizedTime, in UTC. */
export function readTime(bytes: Uint8Array, element: DerElement): Date {
  const text = String.fromCharCode(...bytes.subarray(element.contentStart, element.end));
  const utc = element.tag === TAG.utcTime;
  if (!utc && element.tag !== TAG.generalizedTime) throw new DerError("not a certificate time");
  const match = (utc ? /^(\d{2})(\d{10})Z$/ : /^(\d{4})(\d{10})Z$/).exec(text);
  if (!match?.[1] || !match[2]) throw new DerError("not a certificate time");
  const digits = Number(match[1]);
  const year = utc ? digits + (digits < 50 ? 2000 : 1900) : digits;
  const [month, day, hour, minute, second] = (match[2].match(/\d{2}/g) ?? []).map(Number);
  const time = new Date(
    Date.UTC(year, (month ?? 0) - 1, day ?? 0, hour ?? 0, minute ?? 0, second ?? 0),
  );
  if (Number.isNaN(time.getTime()) || time.getUTCMonth() !== (month ?? 0) - 1) {
    throw new DerError("not a calendar time");
  }
  return time;
}

function byteAt(bytes: Uint8Array, offset: number, limit: number): number {
  const byte = offset < limit ? bytes[offset] : undefined;
  if (byte === undefined) throw new DerError("truncated");
  return byte;
}
