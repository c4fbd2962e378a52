// latest: unreleased changes, offered in sandbox only, so integrations can try them early.
import type { ApiVersion, Json, ResponseContext, VersionChange } from "./types";

/** Rebuilds a statement with `pdf_url` in place of `pdf`, keeping the field order. */
function pdfObjectToUrl(statement: Json): Json {
  const older: Json = {};
  for (const [field, value] of Object.entries(statement)) {
    if (field === "pdf") older.pdf_url = (value as { url: string }).url;
    else older[field] = value;
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
};

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
    "become type `INVALID_REQUEST_ERROR`; not-found errors (formerly flat `{type, message, param}`) " +
    "keep their types inside the envelope. One shape lets clients handle every error the same way.",
  resources: ["Error"],
  response: { Error: errorToOlderShape },
};

export const latest: ApiVersion = {
  id: "latest",
  released: false,
  changes: [replacePdfUrlWithPdfObject, useApiErrorEnvelopeForAllErrors],
};
