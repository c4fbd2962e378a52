// Keyed hashes of e-mail addresses: how the directory lists the dashboard users of partners with
// a jurisdiction, so that it holds no personal data of theirs and a sign-in by address still finds
// their shard. HMAC-SHA-256 under a secret of the deployment's (DIRECTORY_SECRET): without it, an
// address cannot be confirmed by hashing guesses. The key is imported once per isolate.
import { toHex } from "./encoding";
import { MIN_SECRET_LENGTH } from "./signing";

const keys = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();

function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    keys.set(secret, key);
  }
  return key;
}

/** Whether `secret` can key the hashes (at least as long as the signing secret must be). */
export function isAddressSecret(secret: string | undefined): secret is string {
  return secret !== undefined && secret.length >= MIN_SECRET_LENGTH;
}

/** The keyed hash of a normalised address, as lowercase hex. */
export async function addressHash(secret: string, email: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyOf(secret), encoder.encode(email));
  return toHex(new Uint8Array(mac));
}
