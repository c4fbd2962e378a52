// The canonical model the version bundle reshapes from: the newest schemas, which of them are
// response and request bodies, which schema documents each error type, and every route.
import type { CanonicalModel, ResourceName } from "../../versions/types";
import type { ErrorType } from "../app/errors";
import { ROUTES } from "../app/route-table";
import { canonicalSchemas, ERROR_TYPES, REQUEST_SCHEMAS, type SchemaName } from "./schemas";

/** Response bodies other than errors: each is a schema of the same name. */
export const RESOURCES = [
  "Statement",
  "StatementList",
  "Account",
  "AccountList",
  "Customer",
  "CustomerList",
  "ApiKey",
  "Event",
  "EventList",
  "WebhookEndpoint",
  "WebhookEndpointList",
  "DeliveryAttemptList",
  "EventResend",
] as const satisfies readonly (Exclude<ResourceName, "Error"> & SchemaName)[];

// Every resource but Error is listed: this fails to compile when a name is added to one only.
type Unlisted = Exclude<Exclude<ResourceName, "Error">, (typeof RESOURCES)[number]>;
const everyResource: [Unlisted] extends [never] ? true : Unlisted = true;
void everyResource;

/** The schema documenting each error type in the canonical version: its narrowest envelope. */
function errorSchemaOf(type: ErrorType): SchemaName {
  switch (type) {
    case "INVALID_REQUEST_ERROR":
      return "InvalidRequestError";
    case "CUSTOMER_NOT_FOUND_ERROR":
    case "ACCOUNT_NOT_FOUND_ERROR":
      return "CustomerNotFoundError";
    default:
      return "ApiError";
  }
}

let model: CanonicalModel | undefined;

/** Built once per isolate. */
export function canonicalModel(): CanonicalModel {
  model ??= {
    schemas: canonicalSchemas(),
    resources: RESOURCES,
    requests: Object.keys(REQUEST_SCHEMAS),
    errors: Object.fromEntries(ERROR_TYPES.map((type) => [type, errorSchemaOf(type)])),
    routes: ROUTES.map((route) => `${route.method} ${route.path}`),
  };
  return model;
}
