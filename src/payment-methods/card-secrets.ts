// A card's PAN and CVV at rest: AES-256-GCM under a data key named by id, the card's id and the
// field's name as additional data, so that a ciphertext opens only as the field of the card it was
// written for. The keys come from the CARD_DATA_KEYS secret, `id:base64,id:base64`, the first the
// one that encrypts now; the others only decrypt, which is what a rotation needs: the new key goes
// first, the old one stays behind it until the maintenance step has encrypted every card again
// under the new one (docs/operations.md, "Rotating secrets"). Keys are imported once per isolate.
import { fromBase64Url, toBase64Url } from "../domain/encoding";

const IV_BYTES = 12;
const KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a card keeps secret. */
export interface CardSecrets {
  pan: string;
  cvv: string;
}

/** A card's secrets as stored: each field's ciphertext and the id of the key that wrote both. */
export interface SealedCardSecrets {
  panCiphertext: string;
  cvvCiphertext: string;
  keyId: string;
}

export interface CardVault {
  /** The id of the key that encrypts now; null when CARD_DATA_KEYS is missing or malformed. */
  readonly currentKeyId: string | null;
  /** The ids of every key that decrypts (the current one first): what `open` can open. */
  readonly keyIds: readonly string[];
  /** The card's secrets encrypted under the current key (rejects when no key is configured). */
  seal(secrets: CardSecrets, paymentMethodId: string): Promise<SealedCardSecrets>;
  /**
   * The card's secrets, or null when no configured key has the stored key id, or the ciphertext
   * does not open as this card's (altered, or copied from another card).
   */
  open(sealed: SealedCardSecrets, paymentMethodId: string): Promise<CardSecrets | null>;
}

interface DataKey {
  id: string;
  key: Promise<CryptoKey>;
}

/** Imported keys by their configured text, once per isolate. */
const importedKeys = new Map<string, Promise<CryptoKey>>();
/** Vaults by the secret's whole value, once per isolate. */
const vaults = new Map<string, CardVault>();

function importDataKey(text: string, raw: Uint8Array): Promise<CryptoKey> {
  let key = importedKeys.get(text);
  if (!key) {
    key = crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    importedKeys.set(text, key);
  }
  return key;
}

/** Standard or URL-safe base64, padded or not. */
function decodeKeyBytes(text: string): Uint8Array | null {
  return fromBase64Url(text.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, ""));
}

/**
 * The configured keys, current first, or null when the value is missing or any entry is
 * malformed (an id of letters, digits, `-` and `_`, a 32-byte key, no id twice): a half-read
 * list could encrypt under a key nobody meant to be current.
 */
export function parseCardDataKeys(value: string | undefined): DataKey[] | null {
  if (!value?.trim()) return null;
  const keys: DataKey[] = [];
  for (const entry of value.split(",")) {
    const text = entry.trim();
    const colon = text.indexOf(":");
    if (colon < 0) return null;
    const id = text.slice(0, colon);
    const raw = decodeKeyBytes(text.slice(colon + 1));
    if (!KEY_ID.test(id) || !raw || raw.byteLength !== KEY_BYTES) return null;
    if (keys.some((key) => key.id === id)) return null;
    keys.push({ id, key: importDataKey(text, raw) });
  }
  return keys;
}

function additionalData(paymentMethodId: string, field: "pan" | "cvv"): Uint8Array {
  return encoder.encode(`payment_method:${paymentMethodId}:${field}`);
}

async function encrypt(key: CryptoKey, plain: string, aad: Uint8Array): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: aad },
    key,
    encoder.encode(plain),
  );
  const out = new Uint8Array(IV_BYTES + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), IV_BYTES);
  return toBase64Url(out);
}

async function decrypt(key: CryptoKey, stored: string, aad: Uint8Array): Promise<string | null> {
  const bytes = fromBase64Url(stored);
  if (!bytes || bytes.byteLength <= IV_BYTES) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES), additionalData: aad },
      key,
      bytes.subarray(IV_BYTES),
    );
    return decoder.decode(plain);
  } catch {
    return null;
  }
}

function unconfigured(): CardVault {
  return {
    currentKeyId: null,
    keyIds: [],
    seal: () => Promise.reject(new Error("CARD_DATA_KEYS is missing or malformed")),
    open: async () => null,
  };
}

function vaultOver(keys: DataKey[]): CardVault {
  const [current] = keys;
  if (!current) return unconfigured();
  return {
    currentKeyId: current.id,
    keyIds: keys.map((key) => key.id),
    async seal(secrets, paymentMethodId) {
      const key = await current.key;
      const [panCiphertext, cvvCiphertext] = await Promise.all([
        encrypt(key, secrets.pan, additionalData(paymentMethodId, "pan")),
        encrypt(key, secrets.cvv, additionalData(paymentMethodId, "cvv")),
      ]);
      return { panCiphertext, cvvCiphertext, keyId: current.id };
    },
    async open(sealed, paymentMethodId) {
      const entry = keys.find((key) => key.id === sealed.keyId);
      if (!entry) return null;
      const key = await entry.key;
      const [pan, cvv] = await Promise.all([
        decrypt(key, sealed.panCiphertext, additionalData(paymentMethodId, "pan")),
        decrypt(key, sealed.cvvCiphertext, additionalData(paymentMethodId, "cvv")),
      ]);
      return pan === null || cvv === null ? null : { pan, cvv };
    },
  };
}

/** The vault of a deployment's CARD_DATA_KEYS, built once per isolate per value. */
export function cardVaultOf(env: { CARD_DATA_KEYS?: string }): CardVault {
  const value = env.CARD_DATA_KEYS ?? "";
  let vault = vaults.get(value);
  if (!vault) {
    const keys = parseCardDataKeys(value);
    vault = keys ? vaultOver(keys) : unconfigured();
    vaults.set(value, vault);
  }
  return vault;
}
