// The API's shapes per version, from the generated modules: `Statement<"2025-05-05">` has
// `pdf_url`, `Statement<"latest">` has `pdf`, exactly as each version's reference says.
import type { Version, VersionModules } from "./generated/index.ts";

export type { Version } from "./generated/index.ts";
export { VERSIONS } from "./generated/index.ts";

export type Schemas<V extends Version> = VersionModules[V]["components"]["schemas"];
export type Paths<V extends Version> = VersionModules[V]["paths"];

export type Statement<V extends Version> = Schemas<V>["Statement"];
export type StatementList<V extends Version> = Schemas<V>["StatementList"];
export type LineItem<V extends Version> = Schemas<V>["LineItem"];
export type LineItemList<V extends Version> = Schemas<V>["LineItemList"];
export type Account<V extends Version> = Schemas<V>["Account"];
export type Customer<V extends Version> = Schemas<V>["Customer"];
export type PaymentMethod<V extends Version> = Schemas<V>["PaymentMethod"];
export type SimulatedCustomer<V extends Version> = Schemas<V>["SimulatedCustomer"];
export type ApiKey<V extends Version> = Schemas<V>["ApiKey"];
export type Event<V extends Version> = Schemas<V>["Event"];
export type EventList<V extends Version> = Schemas<V>["EventList"];
export type WebhookEndpoint<V extends Version> = Schemas<V>["WebhookEndpoint"];
export type DeliveryAttempt<V extends Version> = Schemas<V>["DeliveryAttempt"];
export type EventResend<V extends Version> = Schemas<V>["EventResend"];
export type EventType<V extends Version> = Schemas<V>["EventTypeList"]["data"][number];
export type WebhookEndpointRecovery<V extends Version> = Schemas<V>["WebhookEndpointRecovery"];
export type Order<V extends Version> = Schemas<V>["Order"];
export type OrderEvent<V extends Version> = Schemas<V>["OrderEvent"];
export type TransactionIntent<V extends Version> = Schemas<V>["TransactionIntent"];
export type PaymentMethodProvisioning<V extends Version> = Schemas<V>["PaymentMethodProvisioning"];
