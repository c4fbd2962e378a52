// POST /v2/payment_methods/{payment_method_id}/provision/{wallet}: a card's data encrypted for a
// wallet, so the partner's app can add the card there (Apple Pay in-app provisioning, Google Pay
// and Samsung Pay push provisioning). The PAN is decrypted for the moment of the encryption only;
// the answer holds it only encrypted to the device or the wallet provider.
import type { Context } from "hono";
import { keyActor } from "../../app/actor";
import type { AppEnv } from "../../app/context";
import { ApiError, invalidRequest, paymentMethodNotFound } from "../../app/errors";
import { readScope } from "../../app/pipeline";
import { route } from "../../app/route";
import { cardVaultOf } from "../card-secrets";
import {
  PaymentMethodProvisioning,
  PaymentMethodProvisionRequest,
  WALLET_FIELDS,
  WALLETS,
  type Wallet,
} from "./api-schemas";
import { activationData, encryptPassData } from "./apple-pay";
import { fromBase64, toBase64 } from "./base64";
import { CertificateRefused, leafEncryptionKey } from "./certificates";
import {
  type CardForProvisioning,
  readCardForProvisioning,
  recordProvisioning,
} from "./provisioning-store";
import {
  appleRootOf,
  providerKeyOf,
  provisioningKeyOf,
  WalletNotConfigured,
} from "./wallet-config";
import { opaquePaymentCard, WalletKeyUnusable } from "./wallet-provider";

type Body = (typeof PaymentMethodProvisionRequest.schema)["_zod"]["output"];

export const provisionPaymentMethod = route({
  method: "POST",
  path: "/v2/payment_methods/:payment_method_id/provision/:wallet",
  summary: "Provision a payment method to a wallet",
  operationId: "provisionPaymentMethodToWallet",
  tag: "Payment methods",
  errors: [{ status: 404, types: ["PAYMENT_METHOD_NOT_FOUND_ERROR"] }],
  scope: "CARD_WRITE",
  customerScoped: true,
  body: { schema: PaymentMethodProvisionRequest, required: true },
  response: { status: 200, schema: PaymentMethodProvisioning },
  async handler(c, { body, reply }) {
    const paymentMethodId = c.req.param("payment_method_id");
    const wallet = walletOf(c.req.param("wallet"));
    checkWalletFields(wallet, body);
    // The certificates are part of the body: refused before anything about the card is said.
    const leafKey = wallet === "apple_pay" ? await appleLeafKey(c, body) : null;
    const now = c.get("now")();
    const scope = readScope(c);
    const card = await readCardForProvisioning(c.get("db"), scope, paymentMethodId);
    if (!card) throw paymentMethodNotFound();
    checkProvisionable(card, now);
    const secrets = await cardVaultOf(c.env).open(sealedOf(card), card.paymentMethodId);
    if (!secrets) throw new Error(`the card data of ${card.paymentMethodId} does not open`);
    const cardData = {
      pan: secrets.pan,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
    };
    const provisioning = await configured(async () => {
      if (leafKey) {
        const request = {
          nonce: decoded(body.nonce),
          nonceSignature: decoded(body.nonce_signature),
        };
        const pass = await encryptPassData(leafKey, cardData, request);
        const activation = await activationData(provisioningKeyOf(c.env), cardData, request.nonce);
        return {
          activation_data: toBase64(activation),
          encrypted_pass_data: toBase64(pass.encryptedPassData),
          ephemeral_public_key: toBase64(pass.ephemeralPublicKey),
        };
      }
      const provider = wallet === "google_pay" ? "google_pay" : "samsung_pay";
      const opaque = await opaquePaymentCard(providerKeyOf(c.env, provider), {
        ...cardData,
        clientDeviceId: body.client_device_id ?? "",
        clientWalletAccountId: body.client_wallet_account_id ?? "",
      });
      return { opaque_payment_card: opaque };
    });
    const change = { paymentMethodId, customerId: card.customerId, wallet, actor: keyActor(c) };
    if (!(await recordProvisioning(c.get("db"), scope, change, now))) {
      throw conflict("The card is no longer active.");
    }
    return reply({ payment_method_id: paymentMethodId, wallet, provisioning });
  },
});

function walletOf(text: string): Wallet {
  const wallet = WALLETS.find((name) => name === text);
  if (!wallet) {
    throw invalidRequest([`wallet must be one of ${WALLETS.join(", ")}`], "wallet");
  }
  return wallet;
}

/** Each field of the wallet present, and none of another wallet's. */
function checkWalletFields(wallet: Wallet, body: Body): void {
  const own: readonly string[] = WALLET_FIELDS[wallet];
  const sent = Object.entries(body).flatMap(([field, value]) =>
    value === undefined ? [] : [field],
  );
  for (const field of sent) {
    if (!own.includes(field)) {
      throw invalidRequest([`${field} is not a field of a ${wallet} provisioning`], field);
    }
  }
  for (const field of own) {
    if (!sent.includes(field)) throw invalidRequest([`${field} is required for ${wallet}`], field);
  }
}

/** The leaf certificate's key, or a 400 naming `certificates` that says why not. */
async function appleLeafKey(c: Context<AppEnv>, body: Body): Promise<CryptoKey> {
  const certificates = (body.certificates ?? []).map((text, i) => {
    const der = fromBase64(text);
    if (!der) throw invalidRequest([`certificates[${i}] is not standard base64`], "certificates");
    return der;
  });
  try {
    const root = await configured(async () => appleRootOf(c.env));
    return await leafEncryptionKey(certificates, c.get("now")(), root);
  } catch (error) {
    if (error instanceof CertificateRefused) {
      throw invalidRequest([`certificates: ${error.message}`], "certificates");
    }
    throw error;
  }
}

/** A card that is active and not past the end of its expiration month, or a 409 saying which. */
function checkProvisionable(card: CardForProvisioning, now: Date): void {
  if (card.status !== "ACTIVE") {
    throw conflict(`The card is ${card.status}: only an ACTIVE card can be provisioned.`);
  }
  const month = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
  if (card.expirationYear * 12 + card.expirationMonth < month) {
    throw conflict("The card has expired: an expired card cannot be provisioned.");
  }
  if (!card.panCiphertext || !card.cvvCiphertext || !card.keyId) {
    throw conflict("The card has no card number on file to provision.");
  }
}

function sealedOf(card: CardForProvisioning) {
  return {
    panCiphertext: card.panCiphertext ?? "",
    cvvCiphertext: card.cvvCiphertext ?? "",
    keyId: card.keyId ?? "",
  };
}

/** A field the request schema already checked to be base64. */
function decoded(text: string | undefined): Uint8Array {
  const bytes = text === undefined ? null : fromBase64(text);
  if (!bytes) throw new Error("a checked base64 field does not decode");
  return bytes;
}

/** `make`'s answer; a deployment's missing or unusable wallet settings answer 503. */
async function configured<T>(make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    if (error instanceof WalletNotConfigured || error instanceof WalletKeyUnusable) {
      console.error(
        JSON.stringify({ wallet_provisioning: "not configured", reason: error.message }),
      );
      throw new ApiError(
        "SERVICE_UNAVAILABLE_ERROR",
        "Provisioning to this wallet is not available at the moment.",
      );
    }
    throw error;
  }
}

function conflict(message: string): ApiError {
  return new ApiError("CONFLICT_ERROR", message);
}
