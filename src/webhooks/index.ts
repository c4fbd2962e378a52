// Webhooks: endpoints, events and their deliveries, the /v2 routes and dashboard pages that
// manage them, the event writes other features make, the queue's consumer, the maintenance steps
// and the reference text of the webhooks an endpoint receives.

export * from "./api-schemas";
export { webhookConsumer } from "./deliver";
export { enqueueDeliveries } from "./delivery-queue";
export { endpointActionsPage } from "./endpoint-actions";
export { endpointPage } from "./endpoint-page";
export * from "./endpoint-routes";
export * from "./event-routes";
export {
  type DeliveryRef,
  deliveriesOf,
  type EventWrites,
  statementEventWrites,
} from "./event-writes";
export {
  deliveriesResent,
  endpointHealthChecked,
  endpointSecretsSealed,
  eventsPurged,
} from "./maintenance";
export { redriveDelivery } from "./redrive";
export { webhooksOf } from "./reference";
export { webhooksPage } from "./webhooks-page";
