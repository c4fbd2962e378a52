// Verifying a webhook delivery per Standard Webhooks, with WebCrypto only (Node 20+, browsers,
// Workers, Deno): the HMAC-SHA256 of `id.timestamp.body` under any of your secrets must match one
// `v1,` signature, and the timestamp must be recent (which defeats replays).
import type { Event, Version } from "./types.ts";

export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

export interface VerifyOptions {
  /** The endpoint's `whsec_…` secret; during a roll, both the new and the previous one. */
  secret: string | readonly string[];
  /** The delivery's headers (a Headers object or a plain record). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The raw body, exactly as received: verify before parsing. */
  body: string | Uint8Array;
  /** Accepted clock difference, in seconds. Default 300. */
  toleranceSeconds?: number;
  now?: Date;
}

const encoder = new TextEncoder();

function header(headers: VerifyOptions["headers"], name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * The delivered event, once its signature and timestamp check out; throws
 * `WebhookVerificationError` otherwise. De-duplicate on `event_id` (the `webhook-id`): delivery
 * is at least once.
 */
export async function verifyWebhook<V extends Version = Version>(
  options: VerifyOptions,
): Promise<Event<V>> {
  const id = header(options.headers, "webhook-id");
  const timestamp = header(options.headers, "webhook-timestamp");
  const signatures = header(options.headers, "webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError(
      "missing webhook-id, webhook-timestamp or webhook-signature",
    );
  }
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("invalid webhook-timestamp");
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError("webhook-timestamp is too far from now");
  }
  const body =
    typeof options.body === "string" ? options.body : new TextDecoder().decode(options.body);
  const message = encoder.encode(`${id}.${timestamp}.${body}`);
  const candidates = signatures
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => fromBase64(s.slice(3)))
    .filter((mac): mac is Uint8Array<ArrayBuffer> => mac !== null);
  const secrets = typeof options.secret === "string" ? [options.secret] : options.secret;
  for (const secret of secrets) {
    const raw = fromBase64(secret.startsWith("whsec_") ? secret.slice(6) : secret);
    if (!raw) continue;
    const key = await crypto.subtle.importKey(
      "raw",
      raw,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["verify"],
    );
    for (const mac of candidates) {
      // subtle.verify compares in constant time.
      if (await crypto.subtle.verify("HMAC", key, mac, message)) {
        return JSON.parse(body) as Event<V>;
      }
    }
  }
  throw new WebhookVerificationError("no signature matches the secret");
}
