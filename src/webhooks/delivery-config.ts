// Webhook delivery settings, from `[vars]` (wrangler.toml), so test runs can shrink the timings.
import type { Bindings } from "../app/context";
import type { RetryPolicy } from "../domain/retry-schedule";

export interface DeliveryConfig {
  retry: RetryPolicy;
  /** An endpoint whose attempts have all failed for this long is disabled. */
  disableAfterSeconds: number;
  /** How long an endpoint has to answer. */
  timeoutMs: number;
  allowLoopback: boolean;
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function deliveryConfig(env: Bindings): DeliveryConfig {
  return {
    retry: {
      baseSeconds: positive(env.WEBHOOK_RETRY_BASE_SECONDS, 30),
      windowSeconds: positive(env.WEBHOOK_RETRY_WINDOW_SECONDS, 3 * 24 * 3600),
    },
    disableAfterSeconds: positive(env.WEBHOOK_DISABLE_AFTER_SECONDS, 3 * 24 * 3600),
    timeoutMs: positive(env.WEBHOOK_TIMEOUT_MS, 10_000),
    allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === "true",
  };
}
