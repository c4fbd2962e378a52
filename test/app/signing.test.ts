// Signatures, key ids and key hashes are computed in JavaScript (fast-sha256); what they compute
// must be, byte for byte, what WebCrypto computes, so that every stored key hash, issued page
// token, issued link and sealed secret's key id stays valid. Each output is compared with
// crypto.subtle's for inputs that take every path: short and multi-block messages, non-ASCII
// text, secrets longer than a SHA-256 block, and a prepared HMAC state used again and again.
import { describe, expect, it } from "vitest";
import { fromBase64Url, sha256Hex, toBase64Url } from "../../src/domain/encoding";
import { createSigner, keyIdOf, signerFor } from "../../src/domain/signing";
import { webCryptoHmac } from "../support/hmac";

const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** WebCrypto's HMAC-SHA-256 of `text`, URL-safe base64. */
const webCryptoHmac64 = async (secret: string, text: string) =>
  toBase64Url(await webCryptoHmac(secret, text));

/** WebCrypto's HMAC-SHA-256 of the JSON array [purpose, ...parts], URL-safe base64. */
const webCryptoMac = (secret: string, purpose: string, parts: string[]) =>
  webCryptoHmac64(secret, JSON.stringify([purpose, ...parts]));

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
      const expected = (await webCryptoHmac64(secret, "signing-key-id")).slice(0, 8);
      expect(await createSigner(secret).keyId()).toBe(expected);
      expect(await keyIdOf(secret)).toBe(expected);
    }
  });

  it("tags each item under a key derived once, as WebCrypto computes it, ASCII or not", async () => {
    const prefix = utf8("01");
    const items = ["acc_1_st_001", "acc_1_st_002", "x".repeat(300), "Zürich café"];
    for (const secret of SECRETS) {
      const parts = ["1767225600000", "01"];
      const key = await webCryptoHmac(secret, JSON.stringify(["statement-pdf:v2", ...parts]));
      for (const batch of [items.slice(0, 2), items]) {
        const expected = await Promise.all(
          batch.map(async (item) => {
            const mac = await webCryptoHmac(key, item);
            return toBase64Url(new Uint8Array([...prefix, ...mac.subarray(0, 16)]));
          }),
        );
        const signer = createSigner(secret);
        expect(await signer.signUnderDerivedKey("statement-pdf:v2", parts, batch, prefix)).toEqual(
          expected,
        );
      }
    }
  });

  it("verifies a derived key's tag, and none for another item, key or secret", async () => {
    const secret = SECRETS[0] as string;
    const signer = createSigner(secret);
    const keyId = await signer.keyId();
    const parts = ["1767225600000", "01"];
    const [signed] = await signer.signUnderDerivedKey("p:v2", parts, ["item"], new Uint8Array());
    const tag = fromBase64Url(signed as string) as Uint8Array;
    expect(await signer.verifyUnderDerivedKey("p:v2", parts, "item", tag, keyId)).toBe(true);
    expect(await signer.verifyUnderDerivedKey("p:v2", parts, "item", tag, undefined)).toBe(true);
    expect(await signer.verifyUnderDerivedKey("p:v2", parts, "other", tag, keyId)).toBe(false);
    expect(await signer.verifyUnderDerivedKey("p:v2", ["1", "01"], "item", tag, keyId)).toBe(false);
    expect(await signer.verifyUnderDerivedKey("p:v3", parts, "item", tag, keyId)).toBe(false);
    expect(await signer.verifyUnderDerivedKey("p:v2", parts, "item", tag, "AAAAAAAA")).toBe(false);
    const altered = Uint8Array.from(tag, (b, i) => (i === 5 ? b ^ 1 : b));
    expect(await signer.verifyUnderDerivedKey("p:v2", parts, "item", altered, keyId)).toBe(false);
    expect(await signer.verifyUnderDerivedKey("p:v2", parts, "item", tag.subarray(1), keyId)).toBe(
      false,
    );
    const other = createSigner(SECRETS[1] as string);
    expect(await other.verifyUnderDerivedKey("p:v2", parts, "item", tag, undefined)).toBe(false);
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
