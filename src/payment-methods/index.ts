// Payment methods: the programme's cards.
export { cardOfCustomerQuery } from "./card-of-customer";
export {
  type CardSecrets,
  type CardVault,
  cardVaultOf,
  type SealedCardSecrets,
} from "./card-secrets";
export { cardSecretsReencrypted } from "./maintenance";
export { provisionPaymentMethod, schemas as provisioningSchemas } from "./provisioning";
export { paymentMethods } from "./schema";
