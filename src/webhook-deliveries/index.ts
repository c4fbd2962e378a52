// Webhook deliveries: the event writes other features make (each new event fanned out to the
// endpoints that take it), the queue's consumer that signs and posts each attempt through the
// per-endpoint throttle, re-sends, recoveries and re-drives, the delivery routes, the maintenance
// steps, and the reference text of the webhooks an endpoint receives.

export * from "./api-schemas";
export { webhookConsumer } from "./deliver";
export type { AttemptStatus, EndpointAttempt } from "./delivery-attempt";
export { enqueueDeliveries } from "./delivery-queue";
export { readEndpointAttempts } from "./delivery-store";
export {
  type DeliveryRef,
  deliveriesOf,
  type EventWrites,
  statementEventWrites,
} from "./event-writes";
export { deliveriesResent, eventsPurged } from "./maintenance";
export { recoverEndpoint } from "./recovery";
export { redriveDelivery } from "./redrive";
export { webhooksOf } from "./reference";
export { resendEventTo } from "./resend";
export * from "./routes";
