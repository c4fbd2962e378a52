// API key format: `sk_sandbox_` / `sk_live_`, the 2-character code of the partner's shard, 32
// random base62 characters, a 6-character checksum over all of it. Keys issued before sharding
// have no code (32 characters between prefix and checksum) and live on the first shard.
import { randomBase62, sha256Hex, toBase62 } from "./encoding";
import type { Environment } from "./environment";
import { FIRST_SHARD } from "./shard-code";

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
    crc = (crcTable[(crc ^ text.charCodeAt(i)) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  return toBase62(crc32(body), 6);
}

/** The random part's length: what sets a key with a shard code apart from an older one. */
const RANDOM_LENGTH = 32;

/**
 * A new key for the environment, naming the shard its partner lives on; only its hash is ever
 * stored. The checksum covers the code, so an altered code is caught offline like any typo.
 */
export function generateApiKey(environment: Environment, shard: string): string {
  return withChecksum(PREFIX[environment] + shard + randomBase62(RANDOM_LENGTH));
}

/** A key's text: `body` (prefix, shard code, random part), then its checksum. */
export function withChecksum(body: string): string {
  return body + checksum(body);
}

/** What a key's text says: its environment, and the shard its lookup runs on. */
export interface KeyClaim {
  environment: Environment;
  shard: string;
}

/**
 * The environment and shard a key claims, or null when the text is not a well-formed key with a
 * valid checksum. Lets malformed keys fail before any storage lookup. A key without a shard code
 * (issued before sharding) claims the first shard.
 */
export function parseApiKey(key: string): KeyClaim | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const [, prefix, body = "", sum] = match;
  if (checksum(`${prefix}${body}`) !== sum) return null;
  const environment = prefix === PREFIX.sandbox ? "sandbox" : "production";
  const coded = body.length === RANDOM_LENGTH + 2;
  return { environment, shard: coded ? body.slice(0, 2) : FIRST_SHARD };
}

/** The stored form of a key. */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}

/** A fresh public identifier for a key (safe to log). */
export function generateKeyId(): string {
  return `key_${randomBase62(24)}`;
}
