// Webhook endpoints: where a partner's events are pushed. Their table and the deliveries owed to
// each, the rules that create and change them (URL policy, versions, filters, the limit), their
// signing secrets sealed at rest, their health as deliveries fail, the delivery settings, the /v2
// routes, and the maintenance steps that move health on and re-seal secrets.

export * from "./api-schemas";
export {
  DELIVERY_DEFAULTS,
  type DeliveryConfig,
  deliveryConfig,
  SLOTS_PER_SECOND_MAX,
} from "./delivery-config";
export {
  BUDGET_COLUMNS,
  type BudgetState,
  budgetRoom,
  budgetSpent,
  budgetWait,
  ENDPOINT_BUDGET,
  MAX_DELIVERY_ATTEMPTS,
  takeBudget,
} from "./endpoint-budget";
export {
  advanceHealth,
  DISABLED,
  type HealthChange,
  type HealthPolicy,
  healthChanges,
} from "./endpoint-health";
export { findEndpoint, findPartnerEndpoint, listPartnerEndpoints } from "./endpoint-reads";
export { deleteEndpoint, type EndpointChange } from "./endpoint-store";
export {
  type EndpointScope,
  enableWithinBudget,
  endpointNotFound,
  prepareEndpoint,
  prepareSecretRoll,
  secretSealerOf,
} from "./endpoints";
export {
  defaultNotice,
  type NoticeDependencies,
  notifyEndpointHealth,
  spanOf,
} from "./health-notice";
export { endpointHealthChecked, endpointSecretsSealed } from "./maintenance";
export * from "./routes";
export type { SecretSealer } from "./secret-sealing";
export { signWebhook } from "./webhook-signature";
