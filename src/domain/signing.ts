// HMAC signing of page tokens and PDF links. The key is imported once per isolate, per secret.
import { fromBase64Url, toBase64Url } from "./encoding";

const keyCache = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();

function importKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    keyCache.set(secret, key);
  }
  return key;
}

/** Signs and verifies values under one secret; `purpose` separates token kinds from each other. */
export interface Signer {
  sign(purpose: string, parts: readonly string[]): Promise<string>;
  /** One signature per entry of `messages`, all computed at once (a page's links). */
  signEach(purpose: string, messages: readonly (readonly string[])[]): Promise<string[]>;
  verify(purpose: string, parts: readonly string[], signature: string): Promise<boolean>;
}

/** Parts are JSON-encoded together, so no choice of ids can make two messages collide. */
function message(purpose: string, parts: readonly string[]): Uint8Array {
  return encoder.encode(JSON.stringify([purpose, ...parts]));
}

/** Secrets shorter than this are refused: a weak HMAC key would make every token forgeable. */
export const MIN_SECRET_LENGTH = 32;

export function createSigner(secret: string): Signer {
  if (secret.length < MIN_SECRET_LENGTH) {
    const refuse = () => Promise.reject(new Error("SIGNING_SECRET is missing or too short"));
    return { sign: refuse, signEach: refuse, verify: refuse };
  }
  // Resolved once per request; a page signs one link per statement.
  let key: Promise<CryptoKey> | undefined;
  const hmacKey = () => {
    key ??= importKey(secret);
    return key;
  };
  return {
    async sign(purpose, parts) {
      const mac = await crypto.subtle.sign("HMAC", await hmacKey(), message(purpose, parts));
      return toBase64Url(new Uint8Array(mac));
    },
    async signEach(purpose, messages) {
      // Every HMAC is started before any is awaited: one wait for the page, not one per link.
      const hmac = await hmacKey();
      const macs = await Promise.all(
        messages.map((parts) => crypto.subtle.sign("HMAC", hmac, message(purpose, parts))),
      );
      return macs.map((mac) => toBase64Url(new Uint8Array(mac)));
    },
    async verify(purpose, parts, signature) {
      const mac = fromBase64Url(signature);
      // Only the canonical encoding counts: base64's spare low bits must not let an altered
      // signature text pass as the same bytes.
      if (mac === null || mac.byteLength !== 32 || toBase64Url(mac) !== signature) return false;
      // subtle.verify compares in constant time.
      return crypto.subtle.verify("HMAC", await hmacKey(), mac, message(purpose, parts));
    },
  };
}
