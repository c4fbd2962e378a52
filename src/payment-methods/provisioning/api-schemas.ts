// Provisioning a card to a wallet, as the API reads the request and answers it.
import * as z from "zod";
import { requestBody, resource } from "../../canonical/schemas";
import { fromBase64 } from "./base64";

/** The wallets a card can be pushed to: the path's `{wallet}`, and what `card.wallets` lists. */
export const WALLETS = ["apple_pay", "google_pay", "samsung_pay"] as const;
export type Wallet = (typeof WALLETS)[number];

/** The request fields of each wallet; a field of another wallet's is refused. */
export const WALLET_FIELDS = {
  apple_pay: ["certificates", "nonce", "nonce_signature"],
  google_pay: ["client_device_id", "client_wallet_account_id"],
  samsung_pay: ["client_device_id", "client_wallet_account_id"],
} as const satisfies Record<Wallet, readonly string[]>;

/** Standard base64 of at most `max` characters, checked as such, naming the field. */
const base64 = (field: string, max: number) =>
  z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      if (value === "" || fromBase64(value) === null) {
        ctx.addIssue({ code: "custom", message: `${field} must be standard base64 (RFC 4648)` });
      }
    });

const walletId = (description: string) =>
  z.string().min(1).max(256).optional().describe(description);

export const PaymentMethodProvisionRequest = requestBody(
  "PaymentMethodProvisionRequest",
  z
    .strictObject({
      certificates: z
        .array(z.string().max(8192))
        .min(1)
        .max(5)
        .optional()
        .describe(
          "Apple Pay: the certificates PassKit handed the app, each standard base64 of its DER, " +
            "the leaf first (the leaf alone is enough).",
        ),
      nonce: base64("nonce", 1024)
        .optional()
        .describe("Apple Pay: the nonce PassKit handed the app, standard base64."),
      nonce_signature: base64("nonce_signature", 4096)
        .optional()
        .describe("Apple Pay: the nonce's signature PassKit handed the app, standard base64."),
      client_device_id: walletId("Google Pay and Samsung Pay: the wallet's id of the device."),
      client_wallet_account_id: walletId(
        "Google Pay and Samsung Pay: the wallet's id of the cardholder's account.",
      ),
    })
    .describe(
      "Apple Pay takes `certificates`, `nonce` and `nonce_signature`; Google Pay and Samsung Pay " +
        "take `client_device_id` and `client_wallet_account_id`. Each wallet's fields are " +
        "required for it, and the other wallet's are refused.",
    ),
);

export const PaymentMethodProvisioning = resource(
  "PaymentMethodProvisioning",
  z
    .object({
      payment_method_id: z.string(),
      wallet: z.enum(WALLETS),
      provisioning: z
        .object({
          activation_data: z
            .string()
            .optional()
            .describe("Apple Pay: hand to PassKit as `activationData` (standard base64)."),
          encrypted_pass_data: z
            .string()
            .optional()
            .describe(
              "Apple Pay: the card, readable only with the leaf certificate's private key; hand " +
                "to PassKit as `encryptedPassData` (standard base64).",
            ),
          ephemeral_public_key: z
            .string()
            .optional()
            .describe(
              "Apple Pay: the uncompressed P-256 point (65 bytes) the pass data was encrypted " +
                "with; hand to PassKit as `ephemeralPublicKey` (standard base64).",
            ),
          opaque_payment_card: z
            .string()
            .optional()
            .describe(
              "Google Pay and Samsung Pay: the card as a compact JWE (ECDH-ES, A256GCM) to the " +
                "wallet provider's key; hand to the wallet's push provisioning call as is.",
            ),
        })
        .describe("What the app hands the wallet: Apple Pay's three fields, or the opaque card."),
    })
    .describe("A card's data encrypted for one wallet, to add it there from your app."),
);

/** This feature's schemas, in the reference's order. */
export const schemas = [PaymentMethodProvisioning, PaymentMethodProvisionRequest];
