// Payment methods: the programme's cards: their routes, their import section, their secrets at
// rest, the maintenance step that encrypts them again after a key rotation, and the sandbox's
// test cards.
export * from "./api-schemas";
export { cardOfCustomerQuery } from "./card-of-customer";
export {
  type CardSecrets,
  type CardVault,
  cardVaultOf,
  type SealedCardSecrets,
} from "./card-secrets";
export { readCardPage } from "./card-store";
export { toPaymentMethod } from "./card-view";
export {
  CARD_OWNERSHIP_GUARD,
  cardWrites,
  readStoredCards,
  reviewCards,
} from "./import-section";
export { cardSecretsReencrypted } from "./maintenance";
export { provisionPaymentMethod, schemas as provisioningSchemas } from "./provisioning";
export * from "./routes";
export { paymentMethods } from "./schema";
export { simulatePaymentMethod } from "./simulation-routes";
