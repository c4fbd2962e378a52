// Standard Webhooks signatures: `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`,
// one entry per live secret, with secrets written `whsec_<base64 key>`.

const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;
const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A new signing secret: 32 random bytes, `whsec_` + base64. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The key bytes of a `whsec_` secret. */
function secretKey(secret: string): Uint8Array {
  const base64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
}

const keys = new Map<string, Promise<CryptoKey>>();

/** The HMAC key of a secret, imported once per isolate. */
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      secretKey(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    // Secrets are few per isolate, but never let the cache grow without bound.
    if (keys.size > 1000) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * The Standard Webhooks headers of one delivery: the message id, the Unix time of the attempt and
 * a `v1` signature per secret (several while a rolled secret is still honoured).
 */
export async function signWebhook(
  secrets: readonly string[],
  id: string,
  timestamp: Date,
  body: string,
): Promise<SignedHeaders> {
  const seconds = String(Math.floor(timestamp.getTime() / 1000));
  const message = encoder.encode(`${id}.${seconds}.${body}`);
  const signatures = await Promise.all(
    secrets.map(async (secret) => {
      const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), message);
      return `v1,${toBase64(new Uint8Array(mac))}`;
    }),
  );
  return {
    "webhook-id": id,
    "webhook-timestamp": seconds,
    "webhook-signature": signatures.join(" "),
  };
}
