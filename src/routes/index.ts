// The partner API: every /v2 route, one line each, in the order the reference lists them. Each is
// declared once, beside its handler, in its resource's file; the app mounts this list, the
// reference documents it, and the canonical model and the version modules name its routes.
import { listAccounts, retrieveAccount } from "./accounts";
import { linkPartnerCustomer, listCustomers, retrieveCustomer } from "./customers";
import { listDeliveryAttempts, listEvents, resendEvent, retrieveEvent } from "./events";
import { createKey } from "./keys";
import { createOrderEvent, deleteOrderEvent, listOrderEvents } from "./order-events";
import { createOrder, deleteOrder, listOrders, updateOrder } from "./orders";
import { provisionPaymentMethod } from "./payment-methods";
import { listRewardsCategories } from "./rewards-categories";
import { listStatements } from "./statements";
import {
  createTransactionIntent,
  listCustomerTransactionIntents,
  retrieveTransactionIntent,
  updateTransactionIntent,
} from "./transaction-intents";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  listWebhookEndpoints,
  retrieveWebhookEndpoint,
  rollWebhookEndpointSecret,
} from "./webhook-endpoints";

export const ROUTES = [
  listOrders,
  listOrderEvents,
  createOrder,
  updateOrder,
  deleteOrder,
  createOrderEvent,
  deleteOrderEvent,
  retrieveTransactionIntent,
  listCustomerTransactionIntents,
  createTransactionIntent,
  updateTransactionIntent,
  provisionPaymentMethod,
  listAccounts,
  retrieveAccount,
  listRewardsCategories,
  listStatements,
  listCustomers,
  retrieveCustomer,
  linkPartnerCustomer,
  createKey,
  listEvents,
  retrieveEvent,
  listDeliveryAttempts,
  resendEvent,
  createWebhookEndpoint,
  listWebhookEndpoints,
  retrieveWebhookEndpoint,
  deleteWebhookEndpoint,
  rollWebhookEndpointSecret,
  enableWebhookEndpoint,
] as const;

type NameOf<R> = R extends { method: infer M extends string; path: infer P extends string }
  ? `${M} ${P}`
  : never;

/** Every route, as `METHOD path`: what version modules name in `endpoint(…)` instructions. */
export type RouteName = NameOf<(typeof ROUTES)[number]>;
