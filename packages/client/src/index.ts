// @card-statements/client: a typed client of the Card Account Statements API.
export {
  type CardStatementsClient,
  type ClientOptions,
  createClient,
  type EventQuery,
  type LineItemQuery,
  type ListQuery,
  type PaymentMethodQuery,
  type PostOptions,
  type StatementQuery,
} from "./client.ts";
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  CardStatementsError,
  CustomerNotFoundError,
  errorFromResponse,
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServiceUnavailableError,
} from "./errors.ts";
export { type RetryOptions, retryAfterMs, retryingFetch } from "./retry.ts";
export * from "./types.ts";
export { type VerifyOptions, verifyWebhook, WebhookVerificationError } from "./webhooks.ts";
