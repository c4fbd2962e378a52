// The canonical model the version bundle reshapes from: the newest schemas, which of them are
// response and request bodies, which schema documents each error type, and every route.
import type { ErrorType } from "./app/errors";
import {
  canonicalSchemas,
  ERROR_TYPES,
  REQUEST_SCHEMAS,
  RESOURCES,
  type SchemaName,
} from "./canonical/schemas";
import { ROUTES } from "./routes";
import type { CanonicalModel } from "./versioning";

/** The schema documenting each error type in the canonical version: its narrowest envelope. */
function errorSchemaOf(type: ErrorType): SchemaName {
  switch (type) {
    case "INVALID_REQUEST_ERROR":
      return "InvalidRequestError";
    case "CUSTOMER_NOT_FOUND_ERROR":
    case "ACCOUNT_NOT_FOUND_ERROR":
      return "CustomerNotFoundError";
    case "STATEMENT_NOT_FOUND_ERROR":
      return "StatementNotFoundError";
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
