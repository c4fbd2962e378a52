// The certificates an Apple Pay wallet sends with an in-app provisioning request: the leaf (first)
// must be an X.509 certificate with an EC P-256 key, valid now; its key is what the pass data is
// encrypted to. Where the deployment configures Apple's root, the chain up to it is checked too
// (each certificate valid now, named as issued by the next and signed by its key); otherwise the
// leaf alone is read, as a local or sandbox run has no Apple-issued chain to offer.
import { childrenOf, type DerElement, DerError, expectElement, readTime, TAG } from "./der";

/** A certificate list that cannot be used; the message says why, and never echoes the input. */
export class CertificateRefused extends Error {}

interface Certificate {
  /** The signed part, exactly as encoded. */
  tbs: Uint8Array;
  issuer: Uint8Array;
  subject: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  /** The SubjectPublicKeyInfo, as `importKey("spki", …)` reads it. */
  spki: Uint8Array;
  /** The signature algorithm's object identifier, as hex of its encoded contents. */
  signatureAlgorithm: string;
  signature: Uint8Array;
}

const ECDSA_HASH_OF_ALGORITHM: Record<string, "SHA-256" | "SHA-384"> = {
  // 1.2.840.10045.4.3.2 (ecdsa-with-SHA256) and 1.2.840.10045.4.3.3 (ecdsa-with-SHA384).
  "2a8648ce3d040302": "SHA-256",
  "2a8648ce3d040303": "SHA-384",
};

/**
 * The leaf's public key, for ECDH on P-256, once the list passes every check (see the header).
 * `root` is the configured root certificate (DER), or null when none is configured.
 */
export async function leafEncryptionKey(
  certificates: readonly Uint8Array[],
  now: Date,
  root: Uint8Array | null,
): Promise<CryptoKey> {
  const [leafBytes] = certificates;
  if (!leafBytes) throw new CertificateRefused("No certificate was sent.");
  const leaf = parseOrRefuse(leafBytes, "The leaf certificate");
  const key = await crypto.subtle
    .importKey("spki", leaf.spki, { name: "ECDH", namedCurve: "P-256" }, true, [])
    .catch(() => {
      throw new CertificateRefused("The leaf certificate's key is not an EC key on P-256.");
    });
  if (root) {
    // A list that ends with the root itself: the root is the configured one, not a link to check.
    const last = certificates.at(-1);
    const sent = certificates.length > 1 && last && sameBytes(last, root) ? -1 : undefined;
    const chain = certificates
      .slice(0, sent)
      .map((bytes, i) => (i === 0 ? leaf : parseOrRefuse(bytes, `Certificate ${i + 1}`)));
    await checkChain(chain, parseOrRefuse(root, "The configured root certificate"), now);
  } else {
    checkValidity(leaf, now, "The leaf certificate");
  }
  return key;
}

/** Reads a certificate's fields; `name` says which one in a refusal. */
function parseOrRefuse(der: Uint8Array, name: string): Certificate {
  try {
    return parseCertificate(der);
  } catch (error) {
    if (error instanceof DerError) throw new CertificateRefused(`${name} is not X.509 DER.`);
    throw error;
  }
}

/** Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }. */
function parseCertificate(der: Uint8Array): Certificate {
  const outer = expectElement(der, 0, der.length, TAG.sequence);
  if (outer.end !== der.length) throw new DerError("bytes after the certificate");
  const [tbs, algorithm, signature, ...rest] = childrenOf(der, outer);
  if (!tbs || !algorithm || !signature || rest.length > 0) throw new DerError("not 3 parts");
  if (tbs.tag !== TAG.sequence || signature.tag !== TAG.bitString) throw new DerError("parts");
  // TBSCertificate: [0] version?, serial, signature, issuer, validity, subject, spki, …
  const fields = childrenOf(der, tbs);
  const offset = fields[0]?.tag === TAG.context0 ? 1 : 0;
  const [serial, , issuer, validity, subject, spki] = fields.slice(offset);
  if (!serial || serial.tag !== TAG.integer || !issuer || !validity || !subject || !spki) {
    throw new DerError("missing fields");
  }
  for (const element of [issuer, validity, subject, spki]) {
    if (element.tag !== TAG.sequence) throw new DerError("field is not a sequence");
  }
  const [notBefore, notAfter] = childrenOf(der, validity);
  if (!notBefore || !notAfter) throw new DerError("validity");
  return {
    tbs: whole(der, tbs),
    issuer: whole(der, issuer),
    subject: whole(der, subject),
    notBefore: readTime(der, notBefore),
    notAfter: readTime(der, notAfter),
    spki: whole(der, spki),
    signatureAlgorithm: algorithmOf(der, algorithm),
    signature: bitStringBytes(der, signature),
  };
}

/** Every certificate valid now, each issued and signed by the next, the last by the root. */
async function checkChain(chain: Certificate[], root: Certificate, now: Date): Promise<void> {
  for (const [i, certificate] of chain.entries()) {
    const name = i === 0 ? "The leaf certificate" : `Certificate ${i + 1}`;
    checkValidity(certificate, now, name);
    const issuer = chain[i + 1] ?? root;
    if (!sameBytes(certificate.issuer, issuer.subject) || !(await signedBy(certificate, issuer))) {
      throw new CertificateRefused(`${name} is not signed by the certificate that follows it.`);
    }
  }
}

function checkValidity(certificate: Certificate, now: Date, name: string): void {
  if (now < certificate.notBefore || now > certificate.notAfter) {
    throw new CertificateRefused(`${name} is not valid now.`);
  }
}

/** Whether `issuer`'s EC key (P-256 or P-384) verifies `certificate`'s ECDSA signature. */
async function signedBy(certificate: Certificate, issuer: Certificate): Promise<boolean> {
  const hash = ECDSA_HASH_OF_ALGORITHM[certificate.signatureAlgorithm];
  if (!hash) return false;
  for (const [namedCurve, size] of [
    ["P-256", 32],
    ["P-384", 48],
  ] as const) {
    const key = await crypto.subtle
      .importKey("spki", issuer.spki, { name: "ECDSA", namedCurve }, false, ["verify"])
      .catch(() => null);
    if (!key) continue;
    const signature = rawEcdsaSignature(certificate.signature, size);
    if (!signature) return false;
    return crypto.subtle.verify({ name: "ECDSA", hash }, key, signature, certificate.tbs);
  }
  return false;
}

/** X.509's ECDSA-Sig-Value (SEQUENCE of r and s) as WebCrypto's r ‖ s, each `size` bytes. */
function rawEcdsaSignature(der: Uint8Array, size: number): Uint8Array | null {
  try {
    const sequence = expectElement(der, 0, der.length, TAG.sequence);
    const [r, s] = childrenOf(der, sequence);
    if (!r || !s || r.tag !== TAG.integer || s.tag !== TAG.integer) return null;
    const raw = new Uint8Array(size * 2);
    for (const [i, integer] of [r, s].entries()) {
      let digits = der.subarray(integer.contentStart, integer.end);
      while (digits.length > size && digits[0] === 0) digits = digits.subarray(1);
      if (digits.length > size) return null;
      raw.set(digits, size * (i + 1) - digits.length);
    }
    return raw;
  } catch {
    return null;
  }
}

/** AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters? }. */
function algorithmOf(der: Uint8Array, algorithm: DerElement): string {
  if (algorithm.tag !== TAG.sequence) throw new DerError("algorithm");
  const oid = expectElement(der, algorithm.contentStart, algorithm.end, TAG.objectIdentifier);
  let hex = "";
  for (const byte of der.subarray(oid.contentStart, oid.end)) {
    hex += byte.toString(16).padStart(2, "0");
  }
  return hex;
}

/** A BIT STRING's bytes (a signature is always whole bytes: no unused bits). */
function bitStringBytes(der: Uint8Array, element: DerElement): Uint8Array {
  if (der[element.contentStart] !== 0) throw new DerError("bit string with unused bits");
  return der.subarray(element.contentStart + 1, element.end);
}

function whole(der: Uint8Array, element: DerElement): Uint8Array {
  return der.subarray(element.start, element.end);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
