// Idempotency keys: their format, what makes two requests the same, and the sealing of a stored
// response under a key derived from the Idempotency-Key, its owner and the service's secret.
import { fromBase64Url, sha256Hex, toBase64Url } from "./encoding";

/** How long a key replays its first response. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

/**
 * How long a running request holds its key. A request that crashed leaves its reservation behind;
 * once this passes, a retry of the same request takes the key over and runs again.
 */
export const IDEMPOTENCY_LOCK_MS = 60 * 1000;

/** A request that is still working renews its lock this often, so only a stalled one loses it. */
export const IDEMPOTENCY_RENEW_MS = IDEMPOTENCY_LOCK_MS / 3;

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * What an Idempotency-Key may be, in the words the error, the API reference and the docs all use.
 * Space is refused with the other invisible characters: HTTP trims it at either end, so a key
 * holding one would not reach the service as it was sent.
 */
export const IDEMPOTENCY_KEY_RULE =
  `1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, each a printable ASCII character other than ` +
  "space (0x21 to 0x7E: letters, digits and punctuation)";

/** The same rule as a JSON Schema pattern, for the reference. */
export const IDEMPOTENCY_KEY_PATTERN = `^[\\x21-\\x7E]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`;
const KEY_SHAPE = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** What in `key` breaks the rule: its length, or its first refused character and where. */
function keyFault(key: string): string {
  if (key.length === 0) return "it is empty";
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) return `it has ${key.length} characters`;
  const index = key.search(/[^\x21-\x7e]/);
  const code = key.charCodeAt(index);
  const what = code === 0x20 ? "a space" : code > 0x7f ? "not ASCII" : "a control character";
  return `character ${index + 1} is ${what}`;
}

/** Why a header value cannot be an idempotency key (the rule, then what broke it), or null. */
export function idempotencyKeyProblem(key: string): string | null {
  if (KEY_SHAPE.test(key)) return null;
  return `Idempotency-Key must be ${IDEMPOTENCY_KEY_RULE}; ${keyFault(key)}. A UUID is best.`;
}

/**
 * Who a key belongs to: the credential that sent it (`key:<key_id>`), in its partner and
 * environment. Keys of different credentials never meet: a response is replayed only to the
 * credential that made it, so a key with fewer scopes never reads what a richer key was answered.
 */
export interface KeyOwner {
  partnerId: string;
  environment: string;
  caller: string;
}

/** The Idempotency-Key a request holds while it runs. */
export interface HeldKey {
  owner: KeyOwner;
  key: string;
  keyHash: string;
  lockToken: string;
  /** Set when the route stored its response in the batch of its own effect. */
  storedWithEffect: boolean;
}

const ownerParts = (owner: KeyOwner) => [owner.partnerId, owner.environment, owner.caller];

/** The stored identity of a key: a hash, so the table never holds the client's key. */
export function idempotencyKeyHash(owner: KeyOwner, key: string): Promise<string> {
  return sha256Hex(JSON.stringify(["idempotency-key:v2", ...ownerParts(owner), key]));
}

/** What makes a retry the same request: method, path, API version, product and body bytes. */
export async function requestFingerprint(
  parts: { method: string; path: string; version: string; merchantKey: string },
  body: Uint8Array,
): Promise<string> {
  const head = JSON.stringify([parts.method, parts.path, parts.version, parts.merchantKey]);
  const bodyHash = await sha256Hex(new TextDecoder().decode(body));
  return sha256Hex(`${head}\n${bodyHash}`);
}

/** A response as it is replayed. */
export interface StoredResponse {
  status: number;
  version: string;
  body: string;
}

const encoder = new TextEncoder();

/**
 * AES-256-GCM key from the Idempotency-Key and the service's secret (HKDF-SHA-256), bound to its
 * owner: the credential that sent it, its partner and environment. The secret is the salt: a stored response (a new key's plaintext, a webhook secret) does
 * not open for someone who reads the table and guesses a short Idempotency-Key.
 */
async function sealingKey(owner: KeyOwner, key: string, secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(key), "HKDF", false, [
    "deriveKey",
  ]);
  return crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode(`idempotent-response:v3\u0000${secret}`),
      info: encoder.encode(JSON.stringify(ownerParts(owner))),
    },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** The response, encrypted so that only a holder of the Idempotency-Key can read it. */
export async function sealResponse(
  owner: KeyOwner,
  key: string,
  secret: string,
  response: StoredResponse,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = encoder.encode(JSON.stringify(response));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await sealingKey(owner, key, secret),
    plain,
  );
  const out = new Uint8Array(iv.byteLength + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), iv.byteLength);
  return toBase64Url(out);
}

/**
 * The response sealed under this key and one of `secrets` (the current secret, then the previous
 * one while a rotation lasts), or null if it opens under none.
 */
export async function openResponse(
  owner: KeyOwner,
  key: string,
  secrets: readonly string[],
  sealed: string,
): Promise<StoredResponse | null> {
  const bytes = fromBase64Url(sealed);
  if (!bytes || bytes.byteLength < 13) return null;
  for (const secret of secrets) {
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: bytes.subarray(0, 12) },
        await sealingKey(owner, key, secret),
        bytes.subarray(12),
      );
      // AES-GCM authenticated the plaintext: only `sealResponse` made it, from a StoredResponse.
      return JSON.parse(new TextDecoder().decode(plain)) as StoredResponse;
    } catch {
      // Not sealed under this secret.
    }
  }
  return null;
}
