// API key format: `sk_sandbox_` / `sk_live_`, 32 random base62 characters, a 6-character checksum.
import { randomBase62, sha256Hex, toBase62 } from "./encoding";
import type { Environment } from "./environment";

const PREFIX: Record<Environment, string> = { sandbox: "sk_sandbox_", production: "sk_live_" };
const KEY_PATTERN = /^(sk_sandbox_|sk_live_)([0-9A-Za-z]{32,128})([0-9A-Za-z]{6})$/;

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE), the checksum secret scanners already know from other providers' tokens. */
function crc32(text: string): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  // Key text is ASCII (KEY_PATTERN): each character is its own byte.
  for (let i = 0; i < text.length; i++) {
    crc = (crcTable[(crc ^ text.charCodeAt(i)) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  return toBase62(crc32(body), 6);
}

/** A new key for the environment; only its hash is ever stored. */
export function generateApiKey(environment: Environment): string {
  const body = PREFIX[environment] + randomBase62(32);
  return body + checksum(body);
}

/**
 * The environment a key claims, or null when the text is not a well-formed key with a valid
 * checksum. Lets malformed keys fail before any storage lookup.
 */
export function parseApiKey(key: string): Environment | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const [, prefix, random, sum] = match;
  if (checksum(`${prefix}${random}`) !== sum) return null;
  return prefix === PREFIX.sandbox ? "sandbox" : "production";
}

/** The stored form of a key. */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}

/** A fresh public identifier for a key (safe to log). */
export function generateKeyId(): string {
  return `key_${randomBase62(24)}`;
}
