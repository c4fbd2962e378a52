// HMAC-SHA-256 as WebCrypto computes it: the reference the tests hold the service's own signing
// (fast-sha256 in src/domain/signing.ts) to, computed independently of it.

/** WebCrypto's HMAC-SHA-256 of `text` under `key` (a secret's text, or a derived key's bytes). */
export async function webCryptoHmac(key: string | Uint8Array, text: string): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const imported = await crypto.subtle.importKey(
    "raw",
    typeof key === "string" ? encoder.encode(key) : key,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, encoder.encode(text)));
}
