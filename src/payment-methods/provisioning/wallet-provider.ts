// Google Pay and Samsung Pay push provisioning: the card travels to the wallet as an opaque
// payment card, a compact JWE (ECDH-ES key agreement, A256GCM content encryption) to the public
// key of the wallet's provider, which only that provider can read. jose builds the JWE on
// WebCrypto.
import { CompactEncrypt, importJWK, type JWK } from "jose";

/** What the opaque payment card carries: the card, and the device and account it is pushed to. */
export interface OpaqueCardContents {
  pan: string;
  expirationMonth: number;
  expirationYear: number;
  clientDeviceId: string;
  clientWalletAccountId: string;
}

/** A configured key that is not an EC P-256 public JWK. */
export class WalletKeyUnusable extends Error {}

/**
 * The compact JWE of the contents as JSON (`card: {pan, expiration_month, expiration_year}`,
 * `client_device_id`, `client_wallet_account_id`), to `publicJwk`, whose `kid`, when it has one,
 * the header names so the provider knows which of its keys to use.
 */
export async function opaquePaymentCard(
  publicJwk: JWK,
  contents: OpaqueCardContents,
): Promise<string> {
  if (publicJwk.kty !== "EC" || publicJwk.crv !== "P-256" || "d" in publicJwk) {
    throw new WalletKeyUnusable("The wallet provider's key is not an EC P-256 public JWK.");
  }
  const key = await importJWK(publicJwk, "ECDH-ES").catch(() => {
    throw new WalletKeyUnusable("The wallet provider's key does not import.");
  });
  const payload = new TextEncoder().encode(
    JSON.stringify({
      card: {
        pan: contents.pan,
        expiration_month: contents.expirationMonth,
        expiration_year: contents.expirationYear,
      },
      client_device_id: contents.clientDeviceId,
      client_wallet_account_id: contents.clientWalletAccountId,
    }),
  );
  return new CompactEncrypt(payload)
    .setProtectedHeader({
      alg: "ECDH-ES",
      enc: "A256GCM",
      cty: "application/json",
      ...(publicJwk.kid ? { kid: publicJwk.kid } : {}),
    })
    .encrypt(key);
}
