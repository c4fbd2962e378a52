// The partner API: every /v2 route, one line each, in the order the reference lists them. Each is
// declared once, beside its handler, in its resource's file; the app mounts this list, the
// reference documents it, and the canonical model and the version modules name its routes.
import * as accounts from "./accounts/routes";
import * as customers from "./customers/routes";
import * as keys from "./keys/routes";
import * as orderEvents from "./not-implemented/order-events";
import * as orders from "./not-implemented/orders";
import * as paymentMethods from "./not-implemented/payment-methods";
import * as rewardsCategories from "./not-implemented/rewards-categories";
import * as transactionIntents from "./not-implemented/transaction-intents";
import * as simulations from "./simulations/routes";
import * as statements from "./statements/routes";
import * as webhookEndpoints from "./webhooks/endpoint-routes";
import * as events from "./webhooks/event-routes";

export const ROUTES = [
  orders.listOrders,
  orderEvents.listOrderEvents,
  orders.createOrder,
  orders.updateOrder,
  orders.deleteOrder,
  orderEvents.createOrderEvent,
  orderEvents.deleteOrderEvent,
  transactionIntents.retrieveTransactionIntent,
  transactionIntents.listCustomerTransactionIntents,
  transactionIntents.createTransactionIntent,
  transactionIntents.updateTransactionIntent,
  paymentMethods.provisionPaymentMethod,
  accounts.listAccounts,
  accounts.retrieveAccount,
  rewardsCategories.listRewardsCategories,
  statements.listStatements,
  customers.listCustomers,
  customers.retrieveCustomer,
  customers.linkPartnerCustomer,
  keys.createKey,
  events.listEvents,
  events.retrieveEvent,
  events.listDeliveryAttempts,
  events.resendEvent,
  webhookEndpoints.createWebhookEndpoint,
  webhookEndpoints.listWebhookEndpoints,
  webhookEndpoints.retrieveWebhookEndpoint,
  webhookEndpoints.deleteWebhookEndpoint,
  webhookEndpoints.rollWebhookEndpointSecret,
  webhookEndpoints.enableWebhookEndpoint,
  simulations.simulateCustomer,
  simulations.simulateStatement,
] as const;

type NameOf<R> = R extends { method: infer M extends string; path: infer P extends string }
  ? `${M} ${P}`
  : never;

/** Every route, as `METHOD path`: what version modules name in `endpoint(…)` instructions. */
export type RouteName = NameOf<(typeof ROUTES)[number]>;
