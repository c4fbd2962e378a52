// The provisioning cryptography on its own: the certificate checks, the Apple Pay pass data read
// back with the leaf's own private key, and the opaque payment card read back by the wallet
// provider's private key.
import { compactDecrypt, exportJWK } from "jose";
import { describe, expect, it } from "vitest";
import {
  activationData,
  CertificateRefused,
  encryptPassData,
  leafEncryptionKey,
  opaquePaymentCard,
  WalletKeyUnusable,
} from "../../src/payment-methods/provisioning";
import { certificateKeys, makeCertificate } from "../support/certificates";

const CARD = { pan: "4111111111111111", expirationMonth: 3, expirationYear: 2029 };
const DAY = 86_400_000;
const encoder = new TextEncoder();

/** The pass data decrypted as the wallet would: ECDH with the leaf key, the KDF, AES-256-GCM. */
async function decryptPassData(
  leafPrivateKey: CryptoKey,
  encrypted: { encryptedPassData: Uint8Array; ephemeralPublicKey: Uint8Array },
): Promise<unknown> {
  const ecdh = { name: "ECDH", namedCurve: "P-256" };
  const ephemeral = await crypto.subtle.importKey(
    "raw",
    encrypted.ephemeralPublicKey,
    ecdh,
    true,
    [],
  );
  // The runtime reads the peer key from `public`, which its type declarations spell `$public`.
  const agreement = { name: "ECDH", public: ephemeral };
  const z = new Uint8Array(await crypto.subtle.deriveBits(agreement, leafPrivateKey, 256));
  // Written out here rather than imported, so the test holds the derivation the guide states.
  const kdfInput = new Uint8Array([
    ...[0, 0, 0, 1],
    ...z,
    0x0d,
    ...encoder.encode("id-aes256-GCM"),
    ...encoder.encode("Apple"),
    ...encrypted.ephemeralPublicKey,
  ]);
  const key = await crypto.subtle.importKey(
    "raw",
    await crypto.subtle.digest("SHA-256", kdfInput),
    "AES-GCM",
    false,
    ["decrypt"],
  );
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: new Uint8Array(16) },
    key,
    encrypted.encryptedPassData,
  );
  return JSON.parse(new TextDecoder().decode(plain));
}

describe("the Apple Pay leaf certificate", () => {
  it("yields the key of a P-256 leaf valid now", async () => {
    const leaf = await makeCertificate({ name: "leaf" });
    const key = await leafEncryptionKey([leaf.der], new Date(), null);
    expect(key.algorithm).toMatchObject({ name: "ECDH", namedCurve: "P-256" });
  });

  it("refuses bytes that are not a certificate, and an empty list", async () => {
    const leaf = await makeCertificate({ name: "leaf" });
    for (const list of [[new Uint8Array([1, 2, 3])], [leaf.der.subarray(0, 40)], []]) {
      await expect(leafEncryptionKey(list, new Date(), null)).rejects.toThrow(CertificateRefused);
    }
    const trailing = new Uint8Array([...leaf.der, 0]);
    await expect(leafEncryptionKey([trailing], new Date(), null)).rejects.toThrow(
      CertificateRefused,
    );
  });

  it("refuses a leaf whose key is on another curve", async () => {
    const leaf = await makeCertificate({ name: "leaf", keys: await certificateKeys("P-384") });
    await expect(leafEncryptionKey([leaf.der], new Date(), null)).rejects.toThrow(
      /not an EC key on P-256/,
    );
  });

  it("refuses a leaf not yet valid or expired", async () => {
    const early = await makeCertificate({ name: "leaf", notBefore: new Date(Date.now() + DAY) });
    const late = await makeCertificate({ name: "leaf", notAfter: new Date(Date.now() - DAY) });
    for (const leaf of [early, late]) {
      await expect(leafEncryptionKey([leaf.der], new Date(), null)).rejects.toThrow(
        /not valid now/,
      );
    }
  });

  it("checks the chain to a configured root: intermediate and leaf signed in turn", async () => {
    const root = await makeCertificate({ name: "root", keys: await certificateKeys("P-384") });
    const intermediate = await makeCertificate({ name: "ca", issuer: root });
    const leaf = await makeCertificate({ name: "leaf", issuer: intermediate });
    const now = new Date();
    await expect(
      leafEncryptionKey([leaf.der, intermediate.der], now, root.der),
    ).resolves.toBeTruthy();
    // The root itself may end the list.
    await expect(
      leafEncryptionKey([leaf.der, intermediate.der, root.der], now, root.der),
    ).resolves.toBeTruthy();

    const otherRoot = await makeCertificate({ name: "root" });
    await expect(
      leafEncryptionKey([leaf.der, intermediate.der], now, otherRoot.der),
    ).rejects.toThrow(/not signed by the certificate that follows it/);
    // Without its intermediate, the leaf does not reach the root.
    await expect(leafEncryptionKey([leaf.der], now, root.der)).rejects.toThrow(CertificateRefused);
    // A certificate named as issued by the intermediate but signed by another key.
    const impostor = await makeCertificate({ name: "ca" });
    const forged = await makeCertificate({ name: "leaf", issuer: impostor });
    await expect(leafEncryptionKey([forged.der, intermediate.der], now, root.der)).rejects.toThrow(
      CertificateRefused,
    );
    const expiredCa = await makeCertificate({
      name: "ca",
      issuer: root,
      notAfter: new Date(Date.now() - DAY),
    });
    const underExpired = await makeCertificate({ name: "leaf", issuer: expiredCa });
    await expect(
      leafEncryptionKey([underExpired.der, expiredCa.der], now, root.der),
    ).rejects.toThrow(/Certificate 2 is not valid now/);
  });
});

describe("the Apple Pay pass data", () => {
  it("decrypts with the leaf's private key back to the card, the nonce and its signature", async () => {
    const leaf = await makeCertificate({ name: "leaf" });
    const key = await leafEncryptionKey([leaf.der], new Date(), null);
    const request = { nonce: new Uint8Array([1, 2, 255]), nonceSignature: new Uint8Array([9, 10]) };
    const encrypted = await encryptPassData(key, CARD, request);

    expect(encrypted.ephemeralPublicKey).toHaveLength(65);
    expect(encrypted.ephemeralPublicKey[0]).toBe(0x04);
    expect(await decryptPassData(leaf.keys.agreement.privateKey, encrypted)).toEqual({
      primaryAccountNumber: CARD.pan,
      expiration: "03/29",
      nonce: "0102ff",
      nonceSignature: "090a",
    });
  });

  it("uses a fresh ephemeral key each time, and no other key reads it", async () => {
    const leaf = await makeCertificate({ name: "leaf" });
    const key = await leafEncryptionKey([leaf.der], new Date(), null);
    const request = { nonce: new Uint8Array([1]), nonceSignature: new Uint8Array([2]) };
    const [a, b] = [
      await encryptPassData(key, CARD, request),
      await encryptPassData(key, CARD, request),
    ];
    expect(a.ephemeralPublicKey).not.toEqual(b.ephemeralPublicKey);
    expect(a.encryptedPassData).not.toEqual(b.encryptedPassData);

    const stranger = await certificateKeys();
    await expect(decryptPassData(stranger.agreement.privateKey, a)).rejects.toThrow();
  });

  it("answers activation data that is an HMAC-SHA-256 of the card and nonce", async () => {
    const nonce = new Uint8Array([1, 2, 255]);
    const mac = await activationData("provisioning-key-0123456789abcdef", CARD, nonce);
    const key = await crypto.subtle.importKey(
      "raw",
      encoder.encode("provisioning-key-0123456789abcdef"),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["verify"],
    );
    const message = encoder.encode(`apple_pay\n${CARD.pan}\n03/29\n0102ff`);
    expect(await crypto.subtle.verify("HMAC", key, mac, message)).toBe(true);
    expect(await activationData("another-key-0123456789abcdefghij", CARD, nonce)).not.toEqual(mac);
  });
});

describe("the opaque payment card (Google Pay, Samsung Pay)", () => {
  it("is a compact ECDH-ES + A256GCM JWE the provider's private key reads", async () => {
    const provider = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
      "deriveBits",
    ])) as CryptoKeyPair; // An asymmetric algorithm always answers a pair.
    const publicJwk = { ...(await exportJWK(provider.publicKey)), kid: "provider-key-1" };
    const jwe = await opaquePaymentCard(publicJwk, {
      ...CARD,
      clientDeviceId: "device-1",
      clientWalletAccountId: "account-1",
    });

    expect(jwe.split(".")).toHaveLength(5);
    const { plaintext, protectedHeader } = await compactDecrypt(jwe, provider.privateKey);
    expect(protectedHeader).toMatchObject({
      alg: "ECDH-ES",
      enc: "A256GCM",
      kid: "provider-key-1",
    });
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual({
      card: { pan: CARD.pan, expiration_month: 3, expiration_year: 2029 },
      client_device_id: "device-1",
      client_wallet_account_id: "account-1",
    });
  });

  it("refuses a provider key that is not a P-256 public key", async () => {
    const contents = { ...CARD, clientDeviceId: "d", clientWalletAccountId: "a" };
    const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-384" }, true, [
      "deriveBits",
    ])) as CryptoKeyPair; // An asymmetric algorithm always answers a pair.
    const p384 = await exportJWK(pair.publicKey);
    const privateJwk = await exportJWK(pair.privateKey);
    for (const jwk of [p384, privateJwk, { kty: "oct", k: "AAAA" }]) {
      await expect(opaquePaymentCard(jwk, contents)).rejects.toThrow(WalletKeyUnusable);
    }
  });
});
