// The partner API: every /v2 route, one line each, in the order the reference lists them. Each is
// declared once, beside its handler, in its resource's file; the app mounts this list, the
// reference documents it, and the canonical model and the version modules name its routes.
import * as accounts from "./routes/accounts";
import * as customers from "./routes/customers";
import * as events from "./routes/events";
import * as keys from "./routes/keys";
import * as orderEvents from "./routes/order-events";
import * as orders from "./routes/orders";
import * as paymentMethods from "./routes/payment-methods";
import * as rewardsCategories from "./routes/rewards-categories";
import * as simulations from "./routes/simulations";
import * as statements from "./routes/statements";
import * as transactionIntents from "./routes/transaction-intents";
import * as webhookEndpoints from "./routes/webhook-endpoints";

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
