// Webhook delivery settings, from `[vars]` (wrangler.toml), so test runs can shrink the timings.
import type { Bindings } from "../app/context";
import { positiveSetting as positive, type RetryPolicy } from "../domain/retry-schedule";

export interface DeliveryConfig {
  retry: RetryPolicy;
  /** An endpoint whose attempts have all failed for this long is disabled. */
  disableAfterSeconds: number;
  /** How long an endpoint has to answer. */
  timeoutMs: number;
  allowLoopback: boolean;
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
