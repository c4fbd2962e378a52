// The partner API: every /v2 route, one line each, in the order the reference lists them. Each is
// declared once, beside its handler, in its resource's file; the app mounts this list, the
// reference documents it, and the canonical model and the version modules name its routes.
import * as accounts from "./accounts";
import * as customers from "./customers";
import * as keys from "./keys";
import * as notImplemented from "./not-implemented";
import * as paymentMethods from "./payment-methods";
import * as simulations from "./simulations";
import * as statements from "./statements";
import * as webhooks from "./webhooks";

export const ROUTES = [
  notImplemented.listOrders,
  notImplemented.listOrderEvents,
  notImplemented.createOrder,
  notImplemented.updateOrder,
  notImplemented.deleteOrder,
  notImplemented.createOrderEvent,
  notImplemented.deleteOrderEvent,
  notImplemented.retrieveTransactionIntent,
  notImplemented.listCustomerTransactionIntents,
  notImplemented.createTransactionIntent,
  notImplemented.updateTransactionIntent,
  paymentMethods.listPaymentMethods,
  paymentMethods.retrievePaymentMethod,
  paymentMethods.provisionPaymentMethod,
  accounts.listAccounts,
  accounts.retrieveAccount,
  notImplemented.listRewardsCategories,
  statements.listStatements,
  statements.retrieveStatement,
  statements.listLineItems,
  customers.listCustomers,
  customers.retrieveCustomer,
  customers.linkPartnerCustomer,
  keys.createKey,
  webhooks.listEvents,
  webhooks.retrieveEvent,
  webhooks.listDeliveryAttempts,
  webhooks.resendEvent,
  webhooks.listEventTypes,
  webhooks.createWebhookEndpoint,
  webhooks.listWebhookEndpoints,
  webhooks.retrieveWebhookEndpoint,
  webhooks.updateWebhookEndpoint,
  webhooks.deleteWebhookEndpoint,
  webhooks.rollWebhookEndpointSecret,
  webhooks.enableWebhookEndpoint,
  webhooks.recoverWebhookEndpoint,
  simulations.simulateCustomer,
  simulations.simulateStatement,
] as const;

type NameOf<R> = R extends { method: infer M extends string; path: infer P extends string }
  ? `${M} ${P}`
  : never;

/** Every route, as `METHOD path`: what version modules name in `endpoint(…)` instructions. */
export type RouteName = NameOf<(typeof ROUTES)[number]>;
