// Bearer secrets of the dashboard (sign-in links, session ids): 256 random bits, stored hashed.
import { sha256Hex, toBase64Url } from "./encoding";

/** 32 random bytes, URL-safe base64 (43 characters). */
export function newSecretToken(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * The stored form of a token. A plain SHA-256 is enough: the token has 256 bits of entropy, so
 * there is nothing to brute-force, and a lookup by hash compares no secret in user code.
 */
export function hashSecretToken(token: string): Promise<string> {
  return sha256Hex(token);
}

/** A well-formed token (what `newSecretToken` makes); anything else is refused unread. */
export function isSecretToken(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}
