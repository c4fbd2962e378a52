// Signatures, key ids and key hashes are computed in JavaScript (fast-sha256); what they compute
// must be, byte for byte, what WebCrypto computes, so that every stored key hash, issued page
// token, issued link and sealed secret's key id stays valid. Each output is compared with
// crypto.subtle's for inputs that take every path: short and multi-block messages, non-ASCII
// text, secrets longer than a SHA-256 block, and a prepared HMAC state used again and again.
import { describe, expect, it } from "vitest";
import { sha256Hex, toBase64Url } from "../../src/domain/encoding";
import { createSigner, keyIdOf, signerFor } from "../../src/domain/signing";

const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** WebCrypto's HMAC-SHA-256 of `text`. */
async function webCryptoHmacBytes(secret: string, text: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    utf8(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8(text)));
}

/** WebCrypto's HMAC-SHA-256 of `text`, URL-safe base64. */
const webCryptoHmac = async (secret: string, text: string) =>
  toBase64Url(await webCryptoHmacBytes(secret, text));

/** WebCrypto's HMAC-SHA-256 of the JSON array [purpose, ...parts], URL-safe base64. */
const webCryptoMac = (secret: string, purpose: string, parts: string[]) =>
  webCryptoHmac(secret, JSON.stringify([purpose, ...parts]));

const SECRETS = [
  "a-signing-secret-of-exactly-32ch",
  // Longer than SHA-256's 64-byte block: HMAC hashes such a key first.
  `long-${"k".repeat(90)}-secret`,
];

const MESSAGES: string[][] = [
  ["acc_1_st_001", "1767225600"],
  ["partner", "sandbox", "merchant", "cus_1", "acc_1", "eyJwIjoiMjAyNi0wMS0zMSJ9"],
  // Several blocks long, and quotes and backslashes that JSON escapes.
  ["x".repeat(300), 'quote " and \\ backslash'],
  // Non-ASCII: a page of such messages is encoded one by one.
  ["Zürich café", "€ 12,50", "日本"],
  [],
];

describe("HMAC signing in JavaScript", () => {
  it("signs exactly what WebCrypto signs, for every secret and message", async () => {
    for (const secret of SECRETS) {
      const signer = createSigner(secret);
      for (const parts of MESSAGES) {
        const expected = await webCryptoMac(secret, "statement-pdf:v1", parts);
        expect(await signer.sign("statement-pdf:v1", parts)).toBe(expected);
        // The state prepared for the secret is reused: the same input signs the same again.
        expect(await signer.sign("statement-pdf:v1", parts)).toBe(expected);
      }
    }
  });

  it("names each secret by the key id WebCrypto computes, as every stored id was", async () => {
    for (const secret of SECRETS) {
      const expected = (await webCryptoHmac(secret, "signing-key-id")).slice(0, 8);
      expect(await createSigner(secret).keyId()).toBe(expected);
      expect(await keyIdOf(secret)).toBe(expected);
    }
  });

  it("signs a page's messages together as one by one, ASCII or not", async () => {
    const secret = SECRETS[0] as string;
    const signer = createSigner(secret);
    const ascii = MESSAGES.filter((parts) =>
      [...parts.join("")].every((ch) => ch.charCodeAt(0) < 128),
    );
    for (const batch of [ascii, MESSAGES]) {
      const expected = await Promise.all(
        batch.map((parts) => webCryptoMac(secret, "statement-page:v1", parts)),
      );
      expect(await signer.signEach("statement-page:v1", batch)).toEqual(expected);
    }
  });

  it("writes a prefix's bytes before each MAC of a page (a link's shard code)", async () => {
    const secret = SECRETS[0] as string;
    const prefix = utf8("01");
    for (const batch of [MESSAGES.slice(0, 2), MESSAGES]) {
      const expected = await Promise.all(
        batch.map(async (parts) => {
          const text = JSON.stringify(["statement-pdf:v1", ...parts]);
          const mac = await webCryptoHmacBytes(secret, text);
          return toBase64Url(new Uint8Array([...prefix, ...mac]));
        }),
      );
      expect(await createSigner(secret).signEach("statement-pdf:v1", batch, prefix)).toEqual(
        expected,
      );
    }
  });

  it("verifies what it signs, and nothing altered by a bit", async () => {
    const secret = SECRETS[1] as string;
    const signer = signerFor(secret);
    const parts = MESSAGES[1] as string[];
    const signature = await signer.sign("statement-page:v1", parts);
    const keyId = await signer.keyId();
    expect(await signer.verify("statement-page:v1", parts, signature, keyId)).toBe(true);
    expect(await signer.verify("statement-page:v1", parts, signature, undefined)).toBe(true);
    const first = signature[0] === "A" ? "B" : "A";
    const altered = `${first}${signature.slice(1)}`;
    expect(await signer.verify("statement-page:v1", parts, altered, keyId)).toBe(false);
    expect(await signer.verify("statement-pdf:v1", parts, signature, keyId)).toBe(false);
    expect(
      await createSigner(SECRETS[0] as string).verify(
        "statement-page:v1",
        parts,
        signature,
        undefined,
      ),
    ).toBe(false);
  });
});

describe("SHA-256 of keys and tokens in JavaScript", () => {
  it("hashes the FIPS 180-2 example to its published digest", async () => {
    expect(await sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("hashes exactly what WebCrypto hashes", async () => {
    const inputs = ["", "sk_test_0123456789abcdefABCDEF", "a".repeat(200), "ops@exämple.test"];
    for (const text of inputs) {
      expect(await sha256Hex(text)).toBe(hex(await crypto.subtle.digest("SHA-256", utf8(text))));
    }
  });
});
