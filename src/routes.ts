// The partner API: every /v2 route, one line each, in the order the reference lists them. Each is
// declared once, beside its handler, in its resource's file; the app mounts this list, the
// reference documents it, and the canonical model and the version modules name its routes.
import * as accounts from "./accounts";
import * as customers from "./customers";
import * as events from "./events";
import * as keys from "./keys";
import * as orders from "./orders";
import * as paymentMethods from "./payment-methods";
import * as rewards from "./rewards";
import * as simulations from "./simulations";
import * as statements from "./statements";
import * as transactionIntents from "./transaction-intents";
import * as webhookDeliveries from "./webhook-deliveries";
import * as webhookEndpoints from "./webhook-endpoints";

export const ROUTES = [
  orders.listOrders,
  orders.listOrderEvents,
  orders.createOrder,
  orders.updateOrder,
  orders.deleteOrder,
  orders.createOrderEvent,
  orders.deleteOrderEvent,
  transactionIntents.retrieveTransactionIntent,
  transactionIntents.listCustomerTransactionIntents,
  transactionIntents.createTransactionIntent,
  transactionIntents.updateTransactionIntent,
  paymentMethods.listPaymentMethods,
  paymentMethods.retrievePaymentMethod,
  paymentMethods.provisionPaymentMethod,
  accounts.listAccounts,
  accounts.retrieveAccount,
  rewards.listRewardsCategories,
  statements.listStatements,
  statements.retrieveStatement,
  statements.listLineItems,
  customers.listCustomers,
  customers.retrieveCustomer,
  customers.linkPartnerCustomer,
  keys.createKey,
  events.listEvents,
  events.retrieveEvent,
  webhookDeliveries.listDeliveryAttempts,
  webhookDeliveries.resendEvent,
  events.listEventTypes,
  webhookEndpoints.createWebhookEndpoint,
  webhookEndpoints.listWebhookEndpoints,
  webhookEndpoints.retrieveWebhookEndpoint,
  webhookEndpoints.updateWebhookEndpoint,
  webhookEndpoints.deleteWebhookEndpoint,
  webhookEndpoints.rollWebhookEndpointSecret,
  webhookEndpoints.enableWebhookEndpoint,
  webhookDeliveries.recoverWebhookEndpoint,
  simulations.simulateCustomer,
  simulations.simulateStatement,
  paymentMethods.simulatePaymentMethod,
] as const;

type NameOf<R> = R extends { method: infer M extends string; path: infer P extends string }
  ? `${M} ${P}`
  : never;

/** Every route, as `METHOD path`: what version modules name in `endpoint(…)` instructions. */
export type RouteName = NameOf<(typeof ROUTES)[number]>;
