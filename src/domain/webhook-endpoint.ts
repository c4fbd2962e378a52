// The canonical webhook endpoint a partner registers, and the rules of its secret's rollover.
import { encodeIdSuffix } from "./ids";

export type EndpointStatus = "enabled" | "disabled";

/** How an endpoint has fared lately: what its page and its reads show. */
export interface EndpointHealth {
  /** Attempts counted: its latest ones of the last 24 hours, at most `HEALTH_SAMPLE`. */
  recent_attempts: number;
  /** The share of those that succeeded, 0 to 1; omitted when there were none. */
  recent_success_rate?: number;
  /** Failed attempts in a row since its last success (or since it was enabled). */
  failure_streak: number;
  /** When the current run of failed attempts began; omitted while it is not failing. */
  failing_since?: string;
  /** When it will be disabled if every attempt keeps failing; only while enabled and failing. */
  disables_at?: string;
}

export interface WebhookEndpoint {
  webhook_endpoint_id: string;
  url: string;
  description?: string;
  /** The API version every payload sent to this endpoint is shaped in. */
  api_version: string;
  /** The event types it receives, as its API version names them; `["*"]` for every type. */
  enabled_events: string[];
  status: EndpointStatus;
  disabled_at?: string;
  disabled_reason?: string;
  created_at: string;
  health: EndpointHealth;
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

/** Attempts an endpoint's health is worked out from: its latest, of the last 24 hours. */
export const HEALTH_SAMPLE = 100;
export const HEALTH_WINDOW_MS = 24 * 3600 * 1000;

/** An endpoint's latest attempts of the health window: how many, how many succeeded. */
export interface RecentAttempts {
  attempts: number;
  succeeded: number;
}

export interface EndpointFields {
  endpointId: string;
  url: string;
  description: string | null;
  apiVersion: string;
  /** A JSON array of the types it takes, in its version's names; null for every type. */
  enabledEvents: string | null;
  status: EndpointStatus;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  failureStreak: number;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  recent: RecentAttempts;
}

/** What an endpoint's read needs besides its row: the moment, and the disable window. */
export interface EndpointReadContext {
  now: Date;
  /** An endpoint whose attempts have all failed for this long is disabled. */
  disableAfterSeconds: number;
}

/** An endpoint with the product it serves: how the dashboard lists a partner's endpoints. */
export interface ProductEndpoint extends EndpointFields {
  merchantKey: string;
}

/** The endpoint's health, from its row at `ctx.now`. */
export function healthOf(row: EndpointFields, ctx: EndpointReadContext): EndpointHealth {
  const { attempts, succeeded } = row.recent;
  // Fields in the order the reference lists them.
  const health: EndpointHealth = {
    recent_attempts: attempts,
    ...(attempts > 0
      ? { recent_success_rate: Math.round((succeeded / attempts) * 1e4) / 1e4 }
      : {}),
    failure_streak: row.failureStreak,
  };
  if (row.failingSince !== null) {
    health.failing_since = row.failingSince;
    if (row.status === "enabled") {
      const at = Date.parse(row.failingSince) + ctx.disableAfterSeconds * 1000;
      health.disables_at = new Date(at).toISOString();
    }
  }
  return health;
}

/** The endpoint as partners read it; `secret` only where it was just issued. */
export function toWebhookEndpoint(
  row: EndpointFields,
  ctx: EndpointReadContext,
  secret?: string,
): WebhookEndpoint {
  const { now } = ctx;
  // Fields in the order the reference lists them; absent optional ones are left out.
  const out: WebhookEndpoint = {
    webhook_endpoint_id: row.endpointId,
    url: row.url,
    ...(row.description === null ? {} : { description: row.description }),
    api_version: row.apiVersion,
    enabled_events: enabledEventsOf(row.enabledEvents),
    status: row.status,
    ...(row.disabledAt === null ? {} : { disabled_at: row.disabledAt }),
    ...(row.disabledReason === null ? {} : { disabled_reason: row.disabledReason }),
    created_at: row.createdAt,
    health: healthOf(row, ctx),
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
  const { previousSecret, previousSecretExpiresAt } = row;
  const previousLive =
    previousSecretExpiresAt !== null && previousSecretExpiresAt > now.toISOString();
  return previousSecret !== null && previousLive ? [row.secret, previousSecret] : [row.secret];
}

/** The wildcard of `enabled_events`: every type, present and future. */
export const ALL_EVENTS = "*";

/**
 * The types a stored filter's `enabledEvents` names: the JSON list `storedFilter` wrote. Anything
 * else is a corrupt row, and throws.
 */
export function storedEventTypes(enabledEvents: string): string[] {
  const types: unknown = JSON.parse(enabledEvents);
  if (!isTypeList(types)) throw new Error("a stored event filter is not a list of types");
  return types;
}

function isTypeList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((type) => typeof type === "string");
}

/** `enabled_events` as partners read a stored filter (null: every type, read as `["*"]`). */
export function enabledEventsOf(stored: string | null): string[] {
  return stored === null ? [ALL_EVENTS] : storedEventTypes(stored);
}
