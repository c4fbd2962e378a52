// Byte/text encodings shared by keys, page tokens and links.
import { hash as sha256 } from "fast-sha256";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Encodes bytes as URL-safe base64 without padding (a page encodes one per link). */
export function toBase64Url(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out +=
      BASE64URL.charAt(n >> 18) +
      BASE64URL.charAt((n >> 12) & 63) +
      BASE64URL.charAt((n >> 6) & 63) +
      BASE64URL.charAt(n & 63);
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = ((bytes[i] ?? 0) << 16) | (rest === 2 ? (bytes[i + 1] ?? 0) << 8 : 0);
    out += BASE64URL.charAt(n >> 18) + BASE64URL.charAt((n >> 12) & 63);
    if (rest === 2) out += BASE64URL.charAt((n >> 6) & 63);
  }
  return out;
}

/** Decodes URL-safe base64 (no padding); returns null for anything that is not. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

/** `length` uniformly random base62 characters (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Fixed-width base62 of a non-negative integer below 62**width. */
export function toBase62(value: number, width: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

/** Two lowercase hex digits per byte value. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
const encoder = new TextEncoder();

/**
 * Lowercase hex SHA-256 of a UTF-8 string (every request hashes its API key), computed by
 * fast-sha256: for a short input the runtime's crypto.subtle.digest costs more in call overhead
 * than the whole hash does in JavaScript (see signing.ts).
 */
export async function sha256Hex(text: string): Promise<string> {
  return sha256HexNow(text);
}

/** `sha256Hex`, answered at once (fast-sha256 hashes synchronously). */
export function sha256HexNow(text: string): string {
  return toHex(sha256(encoder.encode(text)));
}

/** Bytes as lowercase hex, two digits each (a digest's usual spelling). */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += HEX[byte];
  return out;
}
