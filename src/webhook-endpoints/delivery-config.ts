// Webhook delivery settings, from `[vars]` (wrangler.toml), so test runs can shrink the timings.
import type { Bindings } from "../app/context";
import { positiveSetting as positive, type RetryPolicy } from "../domain/retry-schedule";

/**
 * Slots of one second are numbered below this (see webhook-deliveries/throttle.ts): at most 1000
 * attempts an endpoint a second.
 */
export const SLOTS_PER_SECOND_MAX = 1000;

export interface DeliveryConfig {
  retry: RetryPolicy;
  /** An endpoint whose attempts have all failed for this long is disabled. */
  disableAfterSeconds: number;
  /** Its Admins are told it is failing once its attempts have all failed for this long. */
  failingNoticeAfterSeconds: number;
  /** …and warned this long before it would be disabled. */
  disableWarningSeconds: number;
  /** How long an endpoint has to answer. */
  timeoutMs: number;
  /** Attempts one endpoint gets per second at most (1 to 1000); the others wait their turn. */
  maxPerSecond: number;
  allowLoopback: boolean;
}

/** The defaults, as wrangler.toml sets them and the reference states them. */
export const DELIVERY_DEFAULTS = {
  retryBaseSeconds: 30,
  retryWindowSeconds: 3 * 24 * 3600,
  disableAfterSeconds: 3 * 24 * 3600,
  failingNoticeAfterSeconds: 3600,
  disableWarningSeconds: 24 * 3600,
  timeoutMs: 10_000,
  maxPerSecond: 10,
} as const;

export function deliveryConfig(env: Bindings): DeliveryConfig {
  const d = DELIVERY_DEFAULTS;
  return {
    retry: {
      baseSeconds: positive(env.WEBHOOK_RETRY_BASE_SECONDS, d.retryBaseSeconds),
      windowSeconds: positive(env.WEBHOOK_RETRY_WINDOW_SECONDS, d.retryWindowSeconds),
    },
    disableAfterSeconds: positive(env.WEBHOOK_DISABLE_AFTER_SECONDS, d.disableAfterSeconds),
    failingNoticeAfterSeconds: positive(
      env.WEBHOOK_FAILING_NOTICE_AFTER_SECONDS,
      d.failingNoticeAfterSeconds,
    ),
    disableWarningSeconds: positive(env.WEBHOOK_DISABLE_WARNING_SECONDS, d.disableWarningSeconds),
    timeoutMs: positive(env.WEBHOOK_TIMEOUT_MS, d.timeoutMs),
    maxPerSecond: Math.min(
      Math.floor(positive(env.WEBHOOK_MAX_PER_SECOND, d.maxPerSecond)) || 1,
      SLOTS_PER_SECOND_MAX,
    ),
    allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === "true",
  };
}
