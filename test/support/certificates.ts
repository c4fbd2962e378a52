// X.509 certificates made in the test, as DER, with keys the test holds: what an Apple Pay wallet
// sends with an in-app provisioning request, signed by a chain the test controls.

export type Curve = "P-256" | "P-384";

/** A key pair able to sign certificates (ECDSA) and, for a leaf, to decrypt (ECDH). */
export interface CertificateKeys {
  curve: Curve;
  /** ECDSA keys: the public one goes in a certificate, the private one signs those it issues. */
  signing: CryptoKeyPair;
  /** The same key pair imported for ECDH, to decrypt what is encrypted to the certificate. */
  agreement: CryptoKeyPair;
}

export interface MadeCertificate {
  der: Uint8Array;
  base64: string;
  keys: CertificateKeys;
  name: string;
}

/** A fresh EC key pair on `curve`, usable both ways. */
export async function certificateKeys(curve: Curve = "P-256"): Promise<CertificateKeys> {
  const signing = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: curve }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair; // An asymmetric algorithm always answers a pair.
  const privateJwk = await crypto.subtle.exportKey("jwk", signing.privateKey);
  const publicJwk = await crypto.subtle.exportKey("jwk", signing.publicKey);
  const ecdh = { name: "ECDH", namedCurve: curve };
  const agreement = {
    privateKey: await crypto.subtle.importKey("jwk", withoutOps(privateJwk), ecdh, true, [
      "deriveBits",
    ]),
    publicKey: await crypto.subtle.importKey("jwk", withoutOps(publicJwk), ecdh, true, []),
  };
  return { curve, signing, agreement };
}

/**
 * A certificate for `name` holding `keys`' public key, valid from `notBefore` to `notAfter`,
 * issued by `issuer` (self-signed when none is given).
 */
export async function makeCertificate(options: {
  name: string;
  keys?: CertificateKeys;
  issuer?: MadeCertificate;
  notBefore?: Date;
  notAfter?: Date;
}): Promise<MadeCertificate> {
  const keys = options.keys ?? (await certificateKeys());
  const signer = options.issuer?.keys ?? keys;
  const hash = signer.curve === "P-256" ? "SHA-256" : "SHA-384";
  const algorithm = sequence(oid(hash === "SHA-256" ? "2a8648ce3d040302" : "2a8648ce3d040303"));
  const exported = await crypto.subtle.exportKey("spki", keys.signing.publicKey);
  if (!(exported instanceof ArrayBuffer)) throw new Error("an SPKI export answered a JWK");
  const spki = new Uint8Array(exported);
  const tbs = sequence(
    element(0xa0, integer(new Uint8Array([2]))),
    integer(crypto.getRandomValues(new Uint8Array(8)).map((b, i) => (i === 0 ? b & 0x7f : b))),
    algorithm,
    x500Name(options.issuer?.name ?? options.name),
    sequence(
      time(options.notBefore ?? new Date(Date.now() - 86_400_000)),
      time(options.notAfter ?? new Date(Date.now() + 365 * 86_400_000)),
    ),
    x500Name(options.name),
    spki,
  );
  const raw = new Uint8Array(
    await crypto.subtle.sign({ name: "ECDSA", hash }, signer.signing.privateKey, tbs),
  );
  const half = raw.length / 2;
  const signature = sequence(integer(raw.subarray(0, half)), integer(raw.subarray(half)));
  const der = sequence(tbs, algorithm, element(0x03, new Uint8Array([0]), signature));
  return { der, base64: base64Of(der), keys, name: options.name };
}

/** A JWK without the operations it was exported for, to import it for another algorithm. */
function withoutOps(jwk: JsonWebKey | ArrayBuffer): JsonWebKey {
  if (jwk instanceof ArrayBuffer) throw new Error("a JWK export answered raw bytes");
  const copy = { ...jwk };
  delete copy.key_ops;
  return copy;
}

export function base64Of(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function element(tag: number, ...parts: Uint8Array[]): Uint8Array {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const lengthBytes =
    length < 0x80 ? [length] : length < 0x100 ? [0x81, length] : [0x82, length >> 8, length & 0xff];
  const out = new Uint8Array(1 + lengthBytes.length + length);
  out.set([tag, ...lengthBytes]);
  let at = 1 + lengthBytes.length;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function sequence(...parts: Uint8Array[]): Uint8Array {
  return element(0x30, ...parts);
}

/** A non-negative INTEGER: leading zeros dropped, one added where the high bit is set. */
function integer(bytes: Uint8Array): Uint8Array {
  let digits = bytes;
  while (digits.length > 1 && digits[0] === 0) digits = digits.subarray(1);
  const sign = (digits[0] ?? 0) & 0x80 ? new Uint8Array([0]) : new Uint8Array(0);
  return element(0x02, sign, digits);
}

function oid(hex: string): Uint8Array {
  return element(
    0x06,
    Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16)),
  );
}

/** CN=name. */
function x500Name(name: string): Uint8Array {
  const commonName = sequence(oid("550403"), element(0x0c, new TextEncoder().encode(name)));
  return sequence(element(0x31, commonName));
}

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 §4.1.2.5). */
function time(date: Date): Uint8Array {
  const iso = date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const utc = date.getUTCFullYear() < 2050;
  return element(utc ? 0x17 : 0x18, new TextEncoder().encode(`${utc ? iso.slice(2) : iso}Z`));
}
