// HMAC signing of page tokens and PDF links. Keys are imported once per isolate, per secret.
// A rotation keeps the previous secret for verification only; each token and link names the key
// that signed it (a key id derived from the secret), and those issued before key ids existed are
// tried against both secrets.
//
// Signing (a signature, or a key id) computes HMAC-SHA-256 with fast-sha256 (typed-array
// JavaScript, its key pads prepared once per isolate): a page signs a token and up to 100 links,
// and each crypto.subtle.sign call costs about twice the whole JavaScript HMAC in the runtime's
// call overhead. Verifying a signature stays with crypto.subtle.verify, and a derived key's tag
// is compared with timingSafeEqual: both compare in constant time.
import { HMAC } from "fast-sha256";
import { fromBase64Url, toBase64Url } from "./encoding";

const keyCache = new Map<string, Promise<CryptoKey>>();
const hmacCache = new Map<string, HMAC>();
const keyIdCache = new Map<string, Promise<string>>();
const encoder = new TextEncoder();

function importKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["verify"],
    );
    keyCache.set(secret, key);
  }
  return key;
}

/** The secret's HMAC state, its key pads prepared once per isolate. */
function hmacOf(secret: string): HMAC {
  let hmac = hmacCache.get(secret);
  if (!hmac) {
    hmac = new HMAC(encoder.encode(secret));
    hmacCache.set(secret, hmac);
  }
  return hmac;
}

/** Bytes of an HMAC-SHA-256. */
export const MAC_BYTES = 32;

/** The MAC of `bytes` under the secret's prepared state, as URL-safe base64. */
function macOf(hmac: HMAC, bytes: Uint8Array): string {
  return toBase64Url(hmac.reset().update(bytes).digest());
}

/**
 * A short public name for a secret: the start of an HMAC of a fixed label under it, which says
 * nothing about the secret but tells two secrets apart.
 */
export function keyIdOf(secret: string): Promise<string> {
  let id = keyIdCache.get(secret);
  if (!id) {
    id = Promise.resolve(macOf(hmacOf(secret), encoder.encode("signing-key-id")).slice(0, 8));
    keyIdCache.set(secret, id);
  }
  return id;
}

/** Signs with the current secret; verifies with the secret a value names. */
export interface Signer {
  /** The id of the current secret, to write beside each signature. */
  keyId(): Promise<string>;
  sign(purpose: string, parts: readonly string[]): Promise<string>;
  /**
   * One tag per item under a key derived from `purpose` and `parts` (one HMAC for all the items,
   * then one HMAC of each item alone under it, cut to TAG_BYTES): each text encodes `prefix` and
   * then the tag, as one base64 text. A page's links sign so, the derived key binding what they
   * share (their expiry and shard) and each tag one statement.
   */
  signUnderDerivedKey(
    purpose: string,
    parts: readonly string[],
    items: readonly string[],
    prefix: Uint8Array,
  ): Promise<string[]>;
  /** Whether `tag` is `item`'s under the key derived from `purpose` and `parts` (as `verify`). */
  verifyUnderDerivedKey(
    purpose: string,
    parts: readonly string[],
    item: string,
    tag: Uint8Array,
    keyId: string | undefined,
  ): Promise<boolean>;
  /**
   * `keyId` selects the secret (an unknown id fails); without one, as in tokens and links issued
   * before key ids, the current and the previous secret are both tried.
   */
  verify(
    purpose: string,
    parts: readonly string[],
    signature: string,
    keyId: string | undefined,
  ): Promise<boolean>;
}

/**
 * Parts are JSON-encoded together, so no choice of ids can make two messages collide: the text is
 * exactly `JSON.stringify([purpose, ...parts])`, written without building the array (`head` is
 * the purpose's part, `headOf(purpose)`, written once for a page's messages).
 */
function messageText(head: string, parts: readonly string[]): string {
  let text = head;
  for (const part of parts) text += `,${JSON.stringify(part)}`;
  return `${text}]`;
}

/** The start of every message of `purpose`: `["purpose"`. */
const headOf = (purpose: string) => `[${JSON.stringify(purpose)}`;

function message(purpose: string, parts: readonly string[]): Uint8Array {
  return encoder.encode(messageText(headOf(purpose), parts));
}

/**
 * The UTF-8 bytes of each text, encoded together in one call when they are all ASCII (a page's
 * statement ids: one buffer and views into it, rather than a buffer per text).
 */
function encodeEach(texts: readonly string[]): Uint8Array[] {
  const joined = texts.join("");
  const bytes = encoder.encode(joined);
  if (bytes.length !== joined.length) return texts.map((text) => encoder.encode(text));
  let offset = 0;
  return texts.map((text) => {
    const start = offset;
    offset += text.length;
    return bytes.subarray(start, offset);
  });
}

/**
 * Bytes of a derived key's tag: HMAC-SHA-256 cut to 128 bits, as RFC 4868 cuts it for IPsec. A
 * link carries one per statement, so half the MAC is half the text to encode and send.
 */
export const TAG_BYTES = 16;

/** The HMAC state of the key derived under `secret` from `purpose` and `parts`. */
function derivedHmac(secret: string, purpose: string, parts: readonly string[]): HMAC {
  return new HMAC(hmacOf(secret).reset().update(message(purpose, parts)).digest());
}

/** Secrets shorter than this are refused: a weak HMAC key would make every token forgeable. */
export const MIN_SECRET_LENGTH = 32;

/** Key ids are 8 URL-safe base64 characters. */
export const KEY_ID = /^[A-Za-z0-9_-]{8}$/;

/**
 * The secrets that verify (or open) what was made under them: the current one, then the previous
 * one during a rotation. A previous secret too short to be safe is not accepted either.
 */
export function configuredSecrets(secret: string, previous?: string): string[] {
  const secrets = [secret];
  if (previous !== undefined && previous.length >= MIN_SECRET_LENGTH && previous !== secret) {
    secrets.push(previous);
  }
  return secrets;
}

export function createSigner(secret: string, previous?: string): Signer {
  if (secret.length < MIN_SECRET_LENGTH) {
    const refuse = () => Promise.reject(new Error("SIGNING_SECRET is missing or too short"));
    return {
      keyId: refuse,
      sign: refuse,
      signUnderDerivedKey: refuse,
      verify: refuse,
      verifyUnderDerivedKey: refuse,
    };
  }
  const secrets = configuredSecrets(secret, previous);
  async function verifyWith(
    candidate: string,
    purpose: string,
    parts: readonly string[],
    mac: Uint8Array,
  ): Promise<boolean> {
    // subtle.verify compares in constant time.
    return crypto.subtle.verify("HMAC", await importKey(candidate), mac, message(purpose, parts));
  }
  /**
   * The secrets a signature is checked against: the one `keyId` names (none for an unknown id), or,
   * without one (tokens and links issued before key ids), every configured secret.
   */
  async function candidatesFor(keyId: string | undefined): Promise<string[]> {
    if (keyId === undefined) return secrets;
    for (const candidate of secrets) {
      if ((await keyIdOf(candidate)) === keyId) return [candidate];
    }
    return [];
  }
  return {
    keyId: () => keyIdOf(secret),
    async sign(purpose, parts) {
      return macOf(hmacOf(secret), message(purpose, parts));
    },
    async signUnderDerivedKey(purpose, parts, items, prefix) {
      const hmac = derivedHmac(secret, purpose, parts);
      const mac = new Uint8Array(MAC_BYTES);
      // The tag is written straight after the prefix: no text to decode and encode again.
      const out = new Uint8Array(prefix.byteLength + TAG_BYTES);
      out.set(prefix);
      return encodeEach(items).map((bytes) => {
        hmac.reset().update(bytes).finish(mac);
        out.set(mac.subarray(0, TAG_BYTES), prefix.byteLength);
        return toBase64Url(out);
      });
    },
    async verify(purpose, parts, signature, keyId) {
      const mac = fromBase64Url(signature);
      // Only the canonical encoding counts: base64's spare low bits must not let an altered
      // signature text pass as the same bytes.
      if (mac === null || mac.byteLength !== MAC_BYTES || toBase64Url(mac) !== signature)
        return false;
      for (const candidate of await candidatesFor(keyId)) {
        if (await verifyWith(candidate, purpose, parts, mac)) return true;
      }
      return false;
    },
    async verifyUnderDerivedKey(purpose, parts, item, tag, keyId) {
      if (tag.byteLength !== TAG_BYTES) return false;
      const bytes = encoder.encode(item);
      for (const candidate of await candidatesFor(keyId)) {
        const mac = derivedHmac(candidate, purpose, parts).update(bytes).digest();
        if (crypto.subtle.timingSafeEqual(mac.subarray(0, TAG_BYTES), tag)) return true;
      }
      return false;
    },
  };
}

/** The signer of the last configuration asked for: the secrets rarely change within an isolate. */
let lastSigner: { secret: string; previous: string | undefined; signer: Signer } | undefined;

/** `createSigner(secret, previous)`, made once per isolate for the configuration in force. */
export function signerFor(secret: string, previous?: string): Signer {
  if (lastSigner?.secret !== secret || lastSigner.previous !== previous) {
    lastSigner = { secret, previous, signer: createSigner(secret, previous) };
  }
  return lastSigner.signer;
}
