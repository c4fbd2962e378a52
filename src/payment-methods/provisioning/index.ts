// Wallet provisioning: a card pushed into Apple Pay, Google Pay or Samsung Pay, and the
// cryptography each wallet asks for.

export {
  PaymentMethodProvisioning,
  PaymentMethodProvisionRequest,
  schemas,
  WALLETS,
} from "./api-schemas";
export { activationData, encryptPassData, PASS_DATA_IV, passDataKey } from "./apple-pay";
export { fromBase64, toBase64 } from "./base64";
export { CertificateRefused, leafEncryptionKey } from "./certificates";
export { provisionPaymentMethod } from "./routes";
export { opaquePaymentCard, WalletKeyUnusable } from "./wallet-provider";
