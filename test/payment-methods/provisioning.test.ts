// POST /v2/payment_methods/{payment_method_id}/provision/{wallet}, over HTTP in every version: the
// Apple Pay payload read back with the test certificate's own private key, the opaque payment card
// read back with the wallet provider's, each refusal (400 before 409, 404 across partners,
// environments and products), the card's wallets, the audit row, replays, and the PAN in no log.
import { compactDecrypt, importJWK } from "jose";
import { describe, expect, it, vi } from "vitest";
import { api, expectJson } from "../support/api";
import { ALL_VERSIONS } from "../support/bundle-versions";
import { CARD_SETTINGS, type CardRowOptions, storeCardRow, TEST_PAN } from "../support/card-rows";
import { seedCard } from "../support/cards";
import { base64Of, certificateKeys, makeCertificate } from "../support/certificates";
import { createKey, seedAccount, uniqueId } from "../support/fixtures";
import { loggedRequest, requestIdOf } from "../support/request-logs";
import { partnerDatabase } from "../support/shards";
import { WALLET_PROVIDER_PRIVATE_KEYS } from "../support/wallet-keys";

const PAN = TEST_PAN;
const encoder = new TextEncoder();

interface Provisioned {
  payment_method_id: string;
  wallet: string;
  provisioning: Record<string, string>;
}

/** The error of a body in any version's shape: the envelope's `error`, or the flat 404. */
function errorOf(body: Record<string, unknown>): { type: string; param?: string; message: string } {
  return (body.error ?? body) as { type: string; param?: string; message: string };
}

/**
 * A 400 naming `param`: by `param` in the ApiError envelope, or in its first detail in the
 * versions whose validation error carries no `param`.
 */
function expectNamed(body: Record<string, unknown>, param: string, context = ""): void {
  if (typeof body.error === "object") {
    expect(body.error, context).toMatchObject({ type: "INVALID_REQUEST_ERROR", param });
  } else {
    expect(body, context).toMatchObject({ error: "Bad Request", status: 400 });
    expect(String((body.details as string[])[0]), context).toContain(param);
  }
}

/** A partner with a CARD_WRITE key and one card of its customer. */
async function cardFixture(options: CardRowOptions = {}) {
  const f = await seedAccount({ scopes: ["CARD_WRITE"] });
  const paymentMethodId = await storeCardRow(f, options);
  return { ...f, paymentMethodId };
}

function provision(
  f: { key: string; merchantKey: string },
  paymentMethodId: string,
  wallet: string,
  body: unknown,
  options: { version?: string; headers?: Record<string, string> } = {},
) {
  return api(`/v2/payment_methods/${paymentMethodId}/provision/${wallet}`, {
    method: "POST",
    key: f.key,
    merchantKey: f.merchantKey,
    body,
    ...options,
  });
}

async function appleBody() {
  const leaf = await makeCertificate({ name: "Apple Pay leaf (test)" });
  const nonce = crypto.getRandomValues(new Uint8Array(16));
  const nonceSignature = crypto.getRandomValues(new Uint8Array(64));
  return {
    leaf,
    nonce,
    body: {
      certificates: [leaf.base64],
      nonce: base64Of(nonce),
      nonce_signature: base64Of(nonceSignature),
    },
  };
}

const googleBody = { client_device_id: "device-1", client_wallet_account_id: "wallet-account-1" };

async function walletsOf(partnerId: string, paymentMethodId: string) {
  const row = await (await partnerDatabase(partnerId))
    .prepare("SELECT wallets FROM payment_methods WHERE payment_method_id = ?")
    .bind(paymentMethodId)
    .first<{ wallets: string }>();
  return JSON.parse(row?.wallets ?? "null") as { wallet: string; created_at: string }[];
}

/** The pass data as the device reads it: ECDH with the leaf's key, the KDF, AES-256-GCM. */
async function openPassData(leafPrivateKey: CryptoKey, provisioning: Record<string, string>) {
  const fromB64 = (text = "") => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
  const ephemeralPublicKey = fromB64(provisioning.ephemeral_public_key);
  const ecdh = { name: "ECDH", namedCurve: "P-256" };
  const peer = await crypto.subtle.importKey("raw", ephemeralPublicKey, ecdh, true, []);
  // The runtime reads the peer key from `public`, which its type declarations spell `$public`.
  const agreement = { name: "ECDH", public: peer };
  const z = new Uint8Array(await crypto.subtle.deriveBits(agreement, leafPrivateKey, 256));
  const kdf = new Uint8Array([
    ...[0, 0, 0, 1],
    ...z,
    0x0d,
    ...encoder.encode("id-aes256-GCMApple"),
    ...ephemeralPublicKey,
  ]);
  const key = await crypto.subtle.importKey(
    "raw",
    await crypto.subtle.digest("SHA-256", kdf),
    "AES-GCM",
    false,
    ["decrypt"],
  );
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: new Uint8Array(16) },
    key,
    fromB64(provisioning.encrypted_pass_data),
  );
  return { ephemeralPublicKey, passData: JSON.parse(new TextDecoder().decode(plain)) };
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

describe.each(ALL_VERSIONS)("provisioning a card in %s", (version) => {
  it("answers Apple Pay's three fields, the pass data readable with the leaf's private key", async () => {
    const f = await cardFixture({ expirationMonth: 4, expirationYear: 2031 });
    const { leaf, nonce, body } = await appleBody();
    const res = await provision(f, f.paymentMethodId, "apple_pay", body, { version });
    const answer = await expectJson<Provisioned>(res, 200);

    expect(answer.payment_method_id).toBe(f.paymentMethodId);
    expect(answer.wallet).toBe("apple_pay");
    expect(Object.keys(answer.provisioning)).toEqual([
      "activation_data",
      "encrypted_pass_data",
      "ephemeral_public_key",
    ]);
    const { ephemeralPublicKey, passData } = await openPassData(
      leaf.keys.agreement.privateKey,
      answer.provisioning,
    );
    expect(ephemeralPublicKey).toHaveLength(65);
    expect(passData).toMatchObject({ primaryAccountNumber: PAN, expiration: "04/31" });
    expect(passData.nonce).toBe(hex(nonce));
    // The activation data is the service's HMAC of the card and nonce under its provisioning key.
    const hmacKey = await crypto.subtle.importKey(
      "raw",
      encoder.encode(CARD_SETTINGS.PROVISIONING_KEY ?? ""),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["verify"],
    );
    const activation = Uint8Array.from(atob(answer.provisioning.activation_data ?? ""), (ch) =>
      ch.charCodeAt(0),
    );
    const message = encoder.encode(`apple_pay\n${PAN}\n04/31\n${hex(nonce)}`);
    expect(await crypto.subtle.verify("HMAC", hmacKey, activation, message)).toBe(true);
    expect((await walletsOf(f.partnerId, f.paymentMethodId)).map((w) => w.wallet)).toEqual([
      "apple_pay",
    ]);
  });

  it("answers Google Pay's and Samsung Pay's opaque card, readable by the provider's key", async () => {
    const f = await cardFixture({ expirationMonth: 9, expirationYear: 2032 });
    for (const wallet of ["google_pay", "samsung_pay"] as const) {
      const res = await provision(f, f.paymentMethodId, wallet, googleBody, { version });
      const answer = await expectJson<Provisioned>(res, 200);
      expect(answer.wallet).toBe(wallet);
      expect(Object.keys(answer.provisioning)).toEqual(["opaque_payment_card"]);
      const key = await importJWK(WALLET_PROVIDER_PRIVATE_KEYS[wallet], "ECDH-ES");
      const { plaintext, protectedHeader } = await compactDecrypt(
        answer.provisioning.opaque_payment_card ?? "",
        key,
      );
      expect(protectedHeader).toMatchObject({ alg: "ECDH-ES", enc: "A256GCM" });
      expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual({
        card: { pan: PAN, expiration_month: 9, expiration_year: 2032 },
        client_device_id: "device-1",
        client_wallet_account_id: "wallet-account-1",
      });
    }
    const wallets = await walletsOf(f.partnerId, f.paymentMethodId);
    expect(wallets.map((w) => w.wallet)).toEqual(["google_pay", "samsung_pay"]);
    expect(Number.isNaN(Date.parse(wallets[0]?.created_at ?? ""))).toBe(false);
  });

  it("refuses an unknown wallet, naming wallet", async () => {
    const f = await cardFixture();
    const res = await provision(f, f.paymentMethodId, "paypal", googleBody, { version });
    expectNamed(await expectJson(res, 400), "wallet");
  });

  it("refuses a malformed body naming the field, before the card's state is looked at", async () => {
    // A canceled card: each malformed body is refused for itself, not with the card's 409.
    const f = await cardFixture({ status: "CANCELED" });
    const { body } = await appleBody();
    const p384 = await makeCertificate({ name: "leaf", keys: await certificateKeys("P-384") });
    const expired = await makeCertificate({ name: "leaf", notAfter: new Date(Date.now() - 1000) });
    const cases: [string, unknown, string][] = [
      ["apple_pay", { ...body, certificates: undefined }, "certificates"],
      ["apple_pay", { ...body, certificates: ["not base64!"] }, "certificates"],
      ["apple_pay", { ...body, certificates: [base64Of(encoder.encode("hello"))] }, "certificates"],
      ["apple_pay", { ...body, certificates: [p384.base64] }, "certificates"],
      ["apple_pay", { ...body, certificates: [expired.base64] }, "certificates"],
      ["apple_pay", { ...body, certificates: [] }, "certificates"],
      ["apple_pay", { ...body, nonce: "%%%" }, "nonce"],
      ["apple_pay", { ...body, nonce_signature: undefined }, "nonce_signature"],
      ["apple_pay", { ...body, client_device_id: "d" }, "client_device_id"],
      ["apple_pay", { ...body, surprise: 1 }, "surprise"],
      ["google_pay", { client_device_id: "d" }, "client_wallet_account_id"],
      ["samsung_pay", { ...googleBody, nonce: body.nonce }, "nonce"],
      ["google_pay", { ...googleBody, client_device_id: "" }, "client_device_id"],
    ];
    for (const [wallet, sent, param] of cases) {
      const res = await provision(f, f.paymentMethodId, wallet, sent, { version });
      expectNamed(await expectJson(res, 400), param, `${wallet} ${JSON.stringify(sent)}`);
    }
    expect(await walletsOf(f.partnerId, f.paymentMethodId)).toEqual([]);
  });

  it("refuses a card that is not ACTIVE, or has expired, with a 409", async () => {
    const f = await seedAccount({ scopes: ["CARD_WRITE"] });
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const cards = [
      await storeCardRow(f, { status: "INACTIVE" }),
      await storeCardRow(f, { status: "CANCELED" }),
      await storeCardRow(f, {
        expirationMonth: lastMonth.getUTCMonth() + 1,
        expirationYear: lastMonth.getUTCFullYear(),
      }),
    ];
    for (const id of cards) {
      const res = await provision(f, id, "google_pay", googleBody, { version });
      const error = errorOf(await expectJson(res, 409));
      expect(error.type).toBe("CONFLICT_ERROR");
      expect(await walletsOf(f.partnerId, id)).toEqual([]);
    }
    // A card expiring this month is still good through its end.
    const thisMonth = await storeCardRow(f, {
      expirationMonth: now.getUTCMonth() + 1,
      expirationYear: now.getUTCFullYear(),
    });
    await expectJson(await provision(f, thisMonth, "google_pay", googleBody, { version }), 200);
  });

  it("answers 404 for another partner's, environment's or product's card, and an unknown one", async () => {
    const f = await cardFixture();
    const other = await cardFixture();
    const otherProduct = await storeCardRow(f, { merchantKey: uniqueId("mk") });
    const production = await storeCardRow(f, { environment: "production" });
    for (const id of [other.paymentMethodId, otherProduct, production, "pm_unknown"]) {
      const res = await provision(f, id, "google_pay", googleBody, { version });
      const error = errorOf(await expectJson(res, 404));
      expect(error).toMatchObject({ type: "PAYMENT_METHOD_NOT_FOUND_ERROR" });
    }
    // A production key of the same partner does not reach its sandbox card either.
    const live = await createKey(f.partnerId, "production", ["CARD_WRITE"]);
    const res = await provision(
      { key: live.apiKey, merchantKey: f.merchantKey },
      f.paymentMethodId,
      "google_pay",
      googleBody,
      {
        version: ALL_VERSIONS.find((v) => v !== "latest") ?? version,
      },
    );
    expect(res.status).toBe(404);
    expect(await walletsOf(other.partnerId, other.paymentMethodId)).toEqual([]);
  });
});

describe("provisioning a card", () => {
  it("provisions a card as the import stored it: its own PAN and expiry, decrypted", async () => {
    const f = await seedAccount({ scopes: ["CARD_WRITE"] });
    const card = await seedCard(f, { card: { expiration_month: 7, expiration_year: 2033 } });
    const { leaf, body } = await appleBody();
    const res = await provision(f, card.payment_method_id, "apple_pay", body);
    const answer = await expectJson<Provisioned>(res, 200);
    const { passData } = await openPassData(leaf.keys.agreement.privateKey, answer.provisioning);
    expect(passData).toMatchObject({ primaryAccountNumber: card.card.pan, expiration: "07/33" });
  });

  it("requires CARD_WRITE", async () => {
    const f = await cardFixture();
    const reader = await createKey(f.partnerId, "sandbox", ["ACCOUNT_READ"]);
    const res = await provision(
      { key: reader.apiKey, merchantKey: f.merchantKey },
      f.paymentMethodId,
      "google_pay",
      googleBody,
    );
    expect(res.status).toBe(403);
  });

  it("may provision the same card to the same wallet again, each time listed", async () => {
    const f = await cardFixture();
    for (let i = 0; i < 2; i++) {
      await expectJson(await provision(f, f.paymentMethodId, "google_pay", googleBody), 200);
    }
    const wallets = await walletsOf(f.partnerId, f.paymentMethodId);
    expect(wallets.map((w) => w.wallet)).toEqual(["google_pay", "google_pay"]);
  });

  it("replays an Idempotency-Key's answer without provisioning again", async () => {
    const f = await cardFixture();
    const headers = { "Idempotency-Key": uniqueId("provision") };
    const first = await expectJson<Provisioned>(
      await provision(f, f.paymentMethodId, "google_pay", googleBody, { headers }),
      200,
    );
    const again = await provision(f, f.paymentMethodId, "google_pay", googleBody, { headers });
    expect(await expectJson<Provisioned>(again, 200)).toEqual(first);
    expect(await walletsOf(f.partnerId, f.paymentMethodId)).toHaveLength(1);
  });

  it("is audited: which key, which card, which wallet, from where", async () => {
    const f = await cardFixture();
    await expectJson(
      await provision(f, f.paymentMethodId, "samsung_pay", googleBody, {
        headers: { "cf-connecting-ip": "203.0.113.9" },
      }),
      200,
    );
    const row = await (await partnerDatabase(f.partnerId))
      .prepare(
        `SELECT actor_type, actor_id, environment, target, details, ip FROM audit_events
         WHERE partner_id = ? AND action = 'payment_method.provisioned'`,
      )
      .bind(f.partnerId)
      .first<Record<string, string>>();
    expect(row).toMatchObject({
      actor_type: "key",
      actor_id: f.keyId,
      environment: "sandbox",
      target: f.paymentMethodId,
      ip: "203.0.113.9",
    });
    expect(JSON.parse(row?.details ?? "{}")).toEqual({
      wallet: "samsung_pay",
      customer_id: f.customerId,
    });
  });

  it("puts the PAN in no log line and no request-log record", async () => {
    const f = await cardFixture();
    const { body } = await appleBody();
    const logged = vi.spyOn(console, "log");
    const errors = vi.spyOn(console, "error");
    try {
      const apple = await provision(f, f.paymentMethodId, "apple_pay", body);
      const google = await provision(f, f.paymentMethodId, "google_pay", googleBody);
      expect([apple.status, google.status]).toEqual([200, 200]);
      for (const res of [apple, google]) {
        const record = await loggedRequest(requestIdOf(res));
        expect(JSON.stringify(record)).not.toContain(PAN);
        expect(JSON.stringify(record)).not.toContain(PAN.slice(-8));
      }
      const lines = [...logged.mock.calls, ...errors.mock.calls].map((call) =>
        JSON.stringify(call),
      );
      expect(lines.join("\n")).not.toContain(PAN);
    } finally {
      logged.mockRestore();
      errors.mockRestore();
    }
  });
});
