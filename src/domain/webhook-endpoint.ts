// The canonical webhook endpoint a partner registers, and the rules of its secret's rollover.
import { encodeIdSuffix } from "./ids";

export type EndpointStatus = "enabled" | "disabled";

export interface WebhookEndpoint {
  webhook_endpoint_id: string;
  url: string;
  description?: string;
  /** The API version every payload sent to this endpoint is shaped in. */
  api_version: string;
  status: EndpointStatus;
  disabled_at?: string;
  disabled_reason?: string;
  created_at: string;
  /** The signing secret: only in the responses that create or roll it. */
  secret?: string;
  /** While a rolled secret still signs deliveries beside the new one. */
  previous_secret_expires_at?: string;
}

/** The most endpoints one product of one environment may have: each event fans out to all. */
export const MAX_ENDPOINTS = 16;

/** How long a rolled secret keeps signing by default, and at most. */
export const DEFAULT_PREVIOUS_SECRET_SECONDS = 24 * 3600;
export const MAX_PREVIOUS_SECRET_SECONDS = 7 * 24 * 3600;

export function generateEndpointId(): string {
  return `we_${encodeIdSuffix()}`;
}

export interface EndpointFields {
  endpointId: string;
  url: string;
  description: string | null;
  apiVersion: string;
  status: EndpointStatus;
  disabledAt: string | null;
  disabledReason: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

/** An endpoint with the product it serves: how the dashboard lists a partner's endpoints. */
export interface ProductEndpoint extends EndpointFields {
  merchantKey: string;
}

/** The endpoint as partners read it; `secret` only where it was just issued. */
export function toWebhookEndpoint(
  row: EndpointFields,
  now: Date,
  secret?: string,
): WebhookEndpoint {
  // Fields in the order the reference lists them; absent optional ones are left out.
  const out: WebhookEndpoint = {
    webhook_endpoint_id: row.endpointId,
    url: row.url,
    ...(row.description === null ? {} : { description: row.description }),
    api_version: row.apiVersion,
    status: row.status,
    ...(row.disabledAt === null ? {} : { disabled_at: row.disabledAt }),
    ...(row.disabledReason === null ? {} : { disabled_reason: row.disabledReason }),
    created_at: row.createdAt,
  };
  if (secret !== undefined) out.secret = secret;
  if (row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now.toISOString()) {
    out.previous_secret_expires_at = row.previousSecretExpiresAt;
  }
  return out;
}

/** The secrets that sign a delivery at `now`: the current one, and a rolled one still honoured. */
export function signingSecrets(
  row: { secret: string; previousSecret: string | null; previousSecretExpiresAt: string | null },
  now: Date,
): string[] {
  const previousLive =
    row.previousSecret !== null &&
    row.previousSecretExpiresAt !== null &&
    row.previousSecretExpiresAt > now.toISOString();
  return previousLive ? [row.secret, row.previousSecret as string] : [row.secret];
}
