// What a deployment configures for wallet provisioning: the service's provisioning key (a
// secret), Apple's root certificate (optional), and each wallet provider's public key.
import type { JWK } from "jose";
import { fromBase64 } from "./base64";

export interface WalletSettings {
  /** PROVISIONING_KEY: the HMAC key of Apple Pay's activation data (at least 32 characters). */
  PROVISIONING_KEY?: string;
  /** APPLE_PAY_ROOT_CERT: Apple's root certificate, base64 DER or PEM; unset, no chain check. */
  APPLE_PAY_ROOT_CERT?: string;
  /** GOOGLE_PAY_PUBLIC_KEY, SAMSUNG_PAY_PUBLIC_KEY: the provider's EC P-256 public JWK (JSON). */
  GOOGLE_PAY_PUBLIC_KEY?: string;
  SAMSUNG_PAY_PUBLIC_KEY?: string;
}

/** A setting that is missing or unreadable: the deployment's fault, never the caller's. */
export class WalletNotConfigured extends Error {}

const MIN_PROVISIONING_KEY = 32;

export function provisioningKeyOf(settings: WalletSettings): string {
  const key = settings.PROVISIONING_KEY;
  if (!key || key.length < MIN_PROVISIONING_KEY) {
    throw new WalletNotConfigured("PROVISIONING_KEY is missing or shorter than 32 characters.");
  }
  return key;
}

/** The configured root's DER, or null when none is configured. */
export function appleRootOf(settings: WalletSettings): Uint8Array | null {
  const text = settings.APPLE_PAY_ROOT_CERT?.replace(/-----[A-Z ]+-----|\s/g, "");
  if (!text) return null;
  const der = fromBase64(text);
  if (!der) throw new WalletNotConfigured("APPLE_PAY_ROOT_CERT is not base64 DER or PEM.");
  return der;
}

/** The public key of the provider of `wallet`. */
export function providerKeyOf(settings: WalletSettings, wallet: "google_pay" | "samsung_pay"): JWK {
  const name = wallet === "google_pay" ? "GOOGLE_PAY_PUBLIC_KEY" : "SAMSUNG_PAY_PUBLIC_KEY";
  const text = settings[name];
  if (!text) throw new WalletNotConfigured(`${name} is not configured.`);
  try {
    const jwk: unknown = JSON.parse(text);
    if (jwk && typeof jwk === "object" && !Array.isArray(jwk)) return jwk;
  } catch {
    // Reported below, as any other value that is not a JSON object.
  }
  throw new WalletNotConfigured(`${name} is not a JWK.`);
}
