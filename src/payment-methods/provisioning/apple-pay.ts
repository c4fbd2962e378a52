// Apple Pay in-app provisioning: the pass data encrypted to the key of the wallet's leaf
// certificate, and the activation data the service vouches for the card with.
//
// The encryption (docs/cards.md, "Provisioning to a wallet", writes it out byte by byte):
// a fresh P-256 key pair per request; Z = ECDH(ephemeral private key, leaf public key), the
// x-coordinate (32 bytes); the AES key = SHA-256(00000001 ‖ Z ‖ 0D ‖ "id-aes256-GCM" ‖ "Apple" ‖
// ephemeral public key, uncompressed), the single-step key derivation of NIST SP 800-56A with the
// algorithm and party fields Apple's payment tokens use; then AES-256-GCM with a 16-byte zero IV
// (the key is used once), the 16-byte tag after the ciphertext.
import { toHex } from "../../domain/encoding";

/** What the pass data carries: the card, and the wallet's nonce and its signature (bytes). */
export interface ApplePassCard {
  pan: string;
  expirationMonth: number;
  expirationYear: number;
}

export interface ApplePassRequest {
  nonce: Uint8Array;
  nonceSignature: Uint8Array;
}

export interface EncryptedPassData {
  encryptedPassData: Uint8Array;
  /** The ephemeral key's public point, uncompressed (0x04 ‖ x ‖ y: 65 bytes). */
  ephemeralPublicKey: Uint8Array;
}

const encoder = new TextEncoder();
/** The KDF's fixed fields: the algorithm (length-prefixed) and party U, as Apple's tokens. */
const KDF_ALGORITHM_AND_PARTY_U = encoder.encode("\x0did-aes256-GCMApple");
const COUNTER_ONE = new Uint8Array([0, 0, 0, 1]);
const ZERO_IV = new Uint8Array(16);

/**
 * The pass data as JSON: `primaryAccountNumber`, `expiration` (MM/YY, as embossed), and `nonce`
 * and `nonceSignature` in lowercase hex, encrypted to `leafKey` (an ECDH P-256 public key).
 */
export async function encryptPassData(
  leafKey: CryptoKey,
  card: ApplePassCard,
  request: ApplePassRequest,
): Promise<EncryptedPassData> {
  const ephemeral = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ]);
  if (!("privateKey" in ephemeral)) throw new Error("ECDH generated a single key, not a pair");
  const raw = await crypto.subtle.exportKey("raw", ephemeral.publicKey);
  if (!(raw instanceof ArrayBuffer)) throw new Error("a raw export answered a JWK");
  const ephemeralPublicKey = new Uint8Array(raw);
  // The runtime reads the peer key from `public`, which its type declarations spell `$public`.
  const agreement = { name: "ECDH", public: leafKey };
  const sharedSecret = new Uint8Array(
    await crypto.subtle.deriveBits(agreement, ephemeral.privateKey, 256),
  );
  const key = await passDataKey(sharedSecret, ephemeralPublicKey);
  const plaintext = encoder.encode(
    JSON.stringify({
      primaryAccountNumber: card.pan,
      expiration: expirationOf(card),
      nonce: toHex(request.nonce),
      nonceSignature: toHex(request.nonceSignature),
    }),
  );
  const encryptedPassData = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv: ZERO_IV }, key, plaintext),
  );
  return { encryptedPassData, ephemeralPublicKey };
}

/**
 * The AES-256-GCM key of a pass: SHA-256(00000001 ‖ Z ‖ 0D ‖ "id-aes256-GCM" ‖ "Apple" ‖
 * ephemeral public key). Exported for the holder of the leaf's private key to decrypt with.
 */
export async function passDataKey(
  sharedSecret: Uint8Array,
  ephemeralPublicKey: Uint8Array,
  usages: string[] = ["encrypt"],
): Promise<CryptoKey> {
  const input = concat(COUNTER_ONE, sharedSecret, KDF_ALGORITHM_AND_PARTY_U, ephemeralPublicKey);
  const digest = await crypto.subtle.digest("SHA-256", input);
  return crypto.subtle.importKey("raw", digest, "AES-GCM", false, usages);
}

/** The IV of every pass's encryption: each key encrypts once, so a fixed IV is safe. */
export const PASS_DATA_IV = ZERO_IV;

/**
 * The activation data: HMAC-SHA-256 under the service's provisioning key over the card (PAN and
 * expiry) and the wallet's nonce, so the service can recognise its own answer when the network
 * asks it to approve the new token.
 */
export async function activationData(
  provisioningKey: string,
  card: ApplePassCard,
  nonce: Uint8Array,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(provisioningKey),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const message = `apple_pay\n${card.pan}\n${expirationOf(card)}\n${toHex(nonce)}`;
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

function expirationOf(card: ApplePassCard): string {
  return `${String(card.expirationMonth).padStart(2, "0")}/${String(card.expirationYear % 100).padStart(2, "0")}`;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
