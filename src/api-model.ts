// The canonical model the version bundle reshapes from: every feature's named schemas (the newest),
// which of them are response and request bodies, which schema documents each error type, and
// every route. A feature lists its schemas in its folder (`api-schemas.ts`); this file collects
// the lists, one line each, in the reference's order.
import type * as z from "zod";
import * as accounts from "./accounts";
import {
  componentsOf,
  ERROR_TYPES,
  errorSchemaOf,
  errorSchemas,
  inReferenceOrder,
  unlistedSchemas,
} from "./canonical/schemas";
import * as customers from "./customers";
import * as events from "./events";
import * as keys from "./keys";
import * as orders from "./orders";
import * as paymentMethods from "./payment-methods";
import * as rewards from "./rewards";
import { ROUTES } from "./routes";
import * as simulations from "./simulations";
import * as statements from "./statements";
import * as transactionIntents from "./transaction-intents";
import type { CanonicalModel } from "./versioning";
import * as webhookDeliveries from "./webhook-deliveries";
import * as webhookEndpoints from "./webhook-endpoints";

/**
 * The schemas of events, webhook endpoints and deliveries in the order the reference lists them:
 * the three features' lists one after the other would reorder the reference's components (and
 * the clients generated from it). Throws when the order and the features' lists part ways.
 */
function webhookSchemas() {
  const { Event, EventList, EventTypeList } = events;
  const { WebhookEndpoint, WebhookEndpointList } = webhookEndpoints;
  const { CreateWebhookEndpointRequest, UpdateWebhookEndpointRequest } = webhookEndpoints;
  const { RollWebhookEndpointSecretRequest } = webhookEndpoints;
  const { EventResend, WebhookEndpointRecovery, DeliveryAttempt } = webhookDeliveries;
  const { DeliveryAttemptList, RecoverWebhookEndpointRequest, ResendEventRequest } =
    webhookDeliveries;
  const ordered = [
    Event,
    EventList,
    EventResend,
    WebhookEndpoint,
    WebhookEndpointList,
    WebhookEndpointRecovery,
    EventTypeList,
    DeliveryAttempt,
    DeliveryAttemptList,
    CreateWebhookEndpointRequest,
    UpdateWebhookEndpointRequest,
    RecoverWebhookEndpointRequest,
    RollWebhookEndpointSecretRequest,
    ResendEventRequest,
  ];
  const listed = [...events.schemas, ...webhookEndpoints.schemas, ...webhookDeliveries.schemas];
  if (ordered.length !== listed.length || listed.some((ref) => !ordered.includes(ref))) {
    throw new Error("the webhook schemas' order names other schemas than their features list");
  }
  return ordered;
}

/** Every named schema of the API: responses and components, then request bodies. */
const SCHEMAS = inReferenceOrder([
  ...statements.schemas,
  ...accounts.schemas,
  ...rewards.schemas,
  ...paymentMethods.schemas,
  ...customers.schemas,
  ...keys.schemas,
  ...errorSchemas,
  ...webhookSchemas(),
  ...simulations.schemas,
  ...paymentMethods.provisioningSchemas,
  ...orders.schemas,
  ...transactionIntents.schemas,
]);

type Named = (typeof SCHEMAS)[number];

/** Every named schema's name: what version changes may edit. */
export type SchemaName = Named["name"];

/** Names of the response bodies a change can reshape, and `Error`. */
export type ResourceName = Extract<Named, { kind: "resource" }>["name"] | "Error";

/** Names of the request bodies a change can reshape. */
export type RequestName = Extract<Named, { kind: "request" }>["name"];

/** Per named schema, the names of its fields: what version changes may name. */
export type CanonicalFields = {
  [Ref in Named as Ref["name"]]: keyof z.output<Ref["schema"]> & string;
};

const namesOf = (kind: Named["kind"]) =>
  SCHEMAS.filter((ref) => ref.kind === kind).map((ref) => ref.name);

let model: CanonicalModel | undefined;

/** Built once per isolate; throws when a route's schema is not in its feature's list. */
export function canonicalModel(): CanonicalModel {
  if (model) return model;
  const used = ROUTES.flatMap((route) => [route.body?.schema, route.success?.schema]);
  const missing = unlistedSchemas(SCHEMAS, used);
  if (missing.length > 0) {
    throw new Error(
      `schemas of routes that no feature lists (its api-schemas.ts \`schemas\`): ${missing.join(", ")}`,
    );
  }
  model = {
    schemas: componentsOf(SCHEMAS),
    resources: namesOf("resource"),
    requests: namesOf("request"),
    errors: Object.fromEntries(ERROR_TYPES.map((type) => [type, errorSchemaOf(type)])),
    routes: ROUTES.map((route) => `${route.method} ${route.path}`),
  };
  return model;
}
