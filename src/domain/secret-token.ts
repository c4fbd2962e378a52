// Bearer secrets of the dashboard (sign-in links, session ids): the 2-character code of the shard
// the user's partner lives on, then 256 random bits; stored hashed (the code included, so an
// altered code finds nothing). Tokens issued before sharding have no code: the first shard.
import { sha256Hex, toBase64Url } from "./encoding";
import { FIRST_SHARD } from "./shard-code";

/** The shard code, then 32 random bytes as URL-safe base64 (43 characters). */
export function newSecretToken(shard: string): string {
  return shard + toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * The stored form of a token. A plain SHA-256 is enough: the token has 256 bits of entropy, so
 * there is nothing to brute-force, and a lookup by hash compares no secret in user code.
 */
export function hashSecretToken(token: string): Promise<string> {
  return sha256Hex(token);
}

/** A well-formed token (what `newSecretToken` makes, or made before codes); else refused unread. */
export function isSecretToken(text: string): boolean {
  return /^([0-9A-Za-z]{2})?[A-Za-z0-9_-]{43}$/.test(text);
}

/** The shard a well-formed token names. */
export function shardOfSecretToken(token: string): string {
  return token.length === 45 ? token.slice(0, 2) : FIRST_SHARD;
}
