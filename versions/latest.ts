// latest: unreleased changes, offered in sandbox only, so integrations can try them early.
import type { ApiVersion, VersionChange } from "../src/version-changes";
import { error, errorOf, isJsonObject, schema } from "../src/version-changes";

export const replacePdfUrlWithPdfObject: VersionChange = {
  name: "replacePdfUrlWithPdfObject",
  description:
    "A statement's `pdf_url` string is replaced by a `pdf` object holding `url` and " +
    "`expires_at`, so clients no longer derive the link's expiry from `as_of`.",
  instructions: [
    schema("Statement")
      .field("pdf")
      .had({
        name: "pdf_url",
        schema: {
          type: "string",
          format: "uri",
          description:
            "Signed link to the statement PDF, valid for one hour from `as_of`. Omitted while " +
            "the document is not available.",
        },
        toOlder: (pdf) => (isJsonObject(pdf) ? pdf.url : undefined),
      }),
  ],
};

export const useApiErrorEnvelopeForAllErrors: VersionChange = {
  name: "useApiErrorEnvelopeForAllErrors",
  description:
    'Every error body uses the ApiError envelope `{"error":{"type","message","param"?,' +
    '"details"?}}`. Validation errors (formerly `{path, details, error, status, timestamp}`) ' +
    "become type `INVALID_REQUEST_ERROR`; not-found errors (formerly flat " +
    "`{type, message, param}`) keep their types inside the envelope. One shape lets clients " +
    "handle every error the same way.",
  instructions: [
    error("INVALID_REQUEST_ERROR").had({
      schema: "InvalidRequestError",
      shape: {
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
      },
      from: (body, ctx) => {
        const { details, message = null } = errorOf(body);
        return {
          path: ctx.path,
          details: details ?? [message],
          error: "Bad Request",
          status: ctx.status,
          timestamp: ctx.timestamp,
        };
      },
    }),
    error("CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR").had({
      schema: "CustomerNotFoundError",
      shape: {
        type: "object",
        description: "The customer, or the customer's account, does not exist for this key.",
        properties: {
          type: { type: "string", enum: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] },
          message: { type: "string" },
          param: { type: "string", description: "The parameter naming the missing record." },
        },
        required: ["type", "message"],
      },
      from: (body) => {
        const { type, message, param } = errorOf(body);
        return param === undefined ? { type, message } : { type, message, param };
      },
    }),
    error("STATEMENT_NOT_FOUND_ERROR").had({
      schema: "StatementNotFoundError",
      shape: {
        type: "object",
        description: "The statement is not one of the account's, or has been hidden.",
        properties: {
          type: { type: "string", enum: ["STATEMENT_NOT_FOUND_ERROR"] },
          message: { type: "string" },
          param: { type: "string", description: "The parameter naming the missing record." },
        },
        required: ["type", "message"],
      },
      from: (body) => {
        const { type, message, param } = errorOf(body);
        return param === undefined ? { type, message } : { type, message, param };
      },
    }),
    error("PAYMENT_METHOD_NOT_FOUND_ERROR").had({
      schema: "PaymentMethodNotFoundError",
      shape: {
        type: "object",
        description:
          "The payment method is not one of this key's partner, environment and product.",
        properties: {
          type: { type: "string", enum: ["PAYMENT_METHOD_NOT_FOUND_ERROR"] },
          message: { type: "string" },
          param: { type: "string", description: "The parameter naming the missing record." },
        },
        required: ["type", "message"],
      },
      from: (body) => {
        const { type, message, param } = errorOf(body);
        return param === undefined ? { type, message } : { type, message, param };
      },
    }),
  ],
};

export const latest: ApiVersion = {
  id: "latest",
  released: false,
  summary: "Unreleased changes, available in sandbox only. They may still change.",
  changes: [replacePdfUrlWithPdfObject, useApiErrorEnvelopeForAllErrors],
};
