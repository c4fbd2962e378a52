// Webhook endpoint secrets at rest: AES-256-GCM under a key derived (HKDF-SHA-256) from the
// service's SIGNING_SECRET, with the endpoint's id as additional data, so that the table alone
// signs nothing and a sealed secret cannot be moved to another endpoint. Each sealed value is
// stored with the id of the SIGNING_SECRET that sealed it: during a rotation the previous secret
// still opens what it sealed, until everything is sealed again under the new one.
import { fromBase64Url, toBase64Url } from "../domain/encoding";
import { configuredSecrets, keyIdOf, MIN_SECRET_LENGTH } from "../domain/signing";

const encoder = new TextEncoder();
const IV_BYTES = 12;

/** Derived keys, once per isolate per SIGNING_SECRET. */
const keys = new Map<string, Promise<CryptoKey>>();

function sealingKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"])
      .then((material) =>
        crypto.subtle.deriveKey(
          {
            name: "HKDF",
            hash: "SHA-256",
            salt: encoder.encode("webhook-endpoint-secret:v1"),
            info: encoder.encode("aes-256-gcm"),
          },
          material,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(secret, key);
  }
  return key;
}

/** A secret as stored: its sealed text, and the id of the SIGNING_SECRET that sealed it. */
export interface SealedSecret {
  sealed: string;
  keyId: string;
}

export interface SecretSealer {
  /** The id of the SIGNING_SECRET that seals now. */
  keyId(): Promise<string>;
  /** `plain` sealed for the endpoint, under the current SIGNING_SECRET. */
  seal(plain: string, endpointId: string): Promise<SealedSecret>;
  /**
   * The plaintext of a stored secret: sealed under `keyId` (which must be a configured secret's),
   * or stored before sealing (`keyId` null, the text as issued). Null when no configured
   * SIGNING_SECRET opens it.
   */
  open(stored: string, keyId: string | null, endpointId: string): Promise<string | null>;
}

/** Seals under `secret`; opens under it or under `previous` (during a rotation). */
export function createSecretSealer(secret: string, previous?: string): SecretSealer {
  if (secret.length < MIN_SECRET_LENGTH) {
    const refuse = () => Promise.reject(new Error("SIGNING_SECRET is missing or too short"));
    return { keyId: refuse, seal: refuse, open: refuse };
  }
  const secrets = configuredSecrets(secret, previous);
  return {
    keyId: () => keyIdOf(secret),
    async seal(plain, endpointId) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(endpointId) },
        await sealingKey(secret),
        encoder.encode(plain),
      );
      const out = new Uint8Array(IV_BYTES + sealed.byteLength);
      out.set(iv);
      out.set(new Uint8Array(sealed), IV_BYTES);
      return { sealed: toBase64Url(out), keyId: await keyIdOf(secret) };
    },
    async open(stored, keyId, endpointId) {
      if (keyId === null) return stored;
      const bytes = fromBase64Url(stored);
      if (!bytes || bytes.byteLength <= IV_BYTES) return null;
      for (const candidate of secrets) {
        if ((await keyIdOf(candidate)) !== keyId) continue;
        try {
          const plain = await crypto.subtle.decrypt(
            {
              name: "AES-GCM",
              iv: bytes.subarray(0, IV_BYTES),
              additionalData: encoder.encode(endpointId),
            },
            await sealingKey(candidate),
            bytes.subarray(IV_BYTES),
          );
          return new TextDecoder().decode(plain);
        } catch {
          return null;
        }
      }
      return null;
    },
  };
}
