// Wallet provisioning: the cryptography of pushing a card into Apple Pay, Google Pay or Samsung Pay.
export { activationData, encryptPassData, PASS_DATA_IV, passDataKey } from "./apple-pay";
export { fromBase64, toBase64 } from "./base64";
export { CertificateRefused, leafEncryptionKey } from "./certificates";
export { opaquePaymentCard, WalletKeyUnusable } from "./wallet-provider";
