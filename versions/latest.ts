// latest: unreleased changes, offered in sandbox only, so integrations can try them early.
import { replaceProperty } from "./schema-edits";
import type { ApiVersion, Json, ResponseContext, VersionChange } from "./types";

/**
 * Rebuilds a statement with `pdf_url` in place of `pdf`, keeping the field order; a statement
 * without a document is already in the older shape and passes through as it is.
 */
function pdfObjectToUrl(statement: Json): Json {
  if (statement.pdf === undefined) return statement;
  const older: Json = {};
  for (const field in statement) {
    if (field === "pdf") older.pdf_url = statement.pdf.url;
    else older[field] = statement[field];
  }
  return older;
}

export const replacePdfUrlWithPdfObject: VersionChange = {
  name: "replacePdfUrlWithPdfObject",
  description:
    "A statement's `pdf_url` string is replaced by a `pdf` object holding `url` and " +
    "`expires_at`, so clients no longer derive the link's expiry from `as_of`.",
  resources: ["Statement", "StatementList"],
  response: {
    Statement: pdfObjectToUrl,
    StatementList: (list: Json) => ({ ...list, data: list.data.map(pdfObjectToUrl) }),
  },
  schema(schemas) {
    replaceProperty(schemas.Statement as Json, "pdf", "pdf_url", {
      type: "string",
      format: "uri",
      description:
        "Signed link to the statement PDF, valid for one hour from `as_of`. Omitted while the " +
        "document is not available.",
    });
  },
};

/** Error types that only the ApiError envelope of this version carries. */
const ENVELOPED_TYPES = [
  "INVALID_REQUEST_ERROR",
  "CUSTOMER_NOT_FOUND_ERROR",
  "ACCOUNT_NOT_FOUND_ERROR",
];

/** Older shapes of the errors that moved into the ApiError envelope. */
function errorToOlderShape(body: Json, ctx: ResponseContext): Json {
  const { type, message, param, details } = body.error;
  if (type === "INVALID_REQUEST_ERROR") {
    return {
      path: ctx.path,
      details: details ?? [message],
      error: "Bad Request",
      status: ctx.status,
      timestamp: ctx.timestamp,
    };
  }
  if (type === "CUSTOMER_NOT_FOUND_ERROR" || type === "ACCOUNT_NOT_FOUND_ERROR") {
    return param === undefined ? { type, message } : { type, message, param };
  }
  return body;
}

export const useApiErrorEnvelopeForAllErrors: VersionChange = {
  name: "useApiErrorEnvelopeForAllErrors",
  description:
    'Every error body uses the ApiError envelope `{"error":{"type","message","param"?,' +
    '"details"?}}`. Validation errors (formerly `{path, details, error, status, timestamp}`) ' +
    "become type `INVALID_REQUEST_ERROR`; not-found errors (formerly flat " +
    "`{type, message, param}`) keep their types inside the envelope. One shape lets clients " +
    "handle every error the same way.",
  resources: ["Error"],
  response: { Error: errorToOlderShape },
  schema(schemas) {
    schemas.InvalidRequestError = {
      type: "object",
      description: "A request that failed validation.",
      properties: {
        path: { type: "string", description: "Path of the endpoint returning the error." },
        details: {
          type: "array",
          items: { type: "string" },
          description: "What is wrong, one problem per entry.",
        },
        error: { type: "string", const: "Bad Request", description: "Category of error." },
        status: { type: "integer", const: 400, description: "HTTP status code." },
        timestamp: { type: "string", format: "date-time", description: "When it occurred." },
      },
      required: ["path", "details", "error", "status", "timestamp"],
    };
    schemas.CustomerNotFoundError = {
      type: "object",
      description: "The customer, or the customer's account, does not exist for this key.",
      properties: {
        type: { type: "string", enum: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] },
        message: { type: "string" },
        param: { type: "string", description: "The parameter naming the missing record." },
      },
      required: ["type", "message"],
    };
    const type = (schemas.ApiError as Json).properties.error.properties.type;
    type.enum = type.enum.filter((t: string) => !ENVELOPED_TYPES.includes(t));
  },
};

export const latest: ApiVersion = {
  id: "latest",
  released: false,
  summary: "Unreleased changes, available in sandbox only. They may still change.",
  changes: [replacePdfUrlWithPdfObject, useApiErrorEnvelopeForAllErrors],
};
