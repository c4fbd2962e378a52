// Standard base64 (RFC 4648 §4, padded), the encoding of every binary field of a provisioning
// request and answer.

/** Bytes as standard base64. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Standard base64 as bytes; null for anything else (URL-safe letters, missing padding, …). */
export function fromBase64(text: string): Uint8Array | null {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return null;
  return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
}
