// When a failed webhook delivery or statement render is tried again: exponential backoff with
// jitter, each wait at most the 12 hours a queue message may be delayed, until the retry window
// has passed.

/** The longest delay Cloudflare Queues accept for one message. */
export const MAX_DELAY_SECONDS = 12 * 3600;

/** A `[vars]` setting that must be a positive number: its value, or `fallback` when it is not. */
export function positiveSetting(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export interface RetryPolicy {
  /** Wait before the first retry (before jitter). */
  baseSeconds: number;
  /** Retries go on until this long after the cycle's first attempt. */
  windowSeconds: number;
}

/**
 * Seconds to wait after the `attempts`-th failed attempt, or null when the window has passed and
 * the delivery is given up. The wait doubles per failure, capped at 12 h, and is drawn uniformly
 * from its upper half ("equal jitter"), so that many deliveries failing together spread out. The
 * last retry falls at or after the window's end, so retries span at least the whole window.
 */
export function nextRetryDelay(
  policy: RetryPolicy,
  attempts: number,
  elapsedSeconds: number,
  random: () => number = Math.random,
): number | null {
  if (elapsedSeconds >= policy.windowSeconds) return null;
  const exponential = policy.baseSeconds * 2 ** Math.max(0, attempts - 1);
  const capped = Math.min(exponential, MAX_DELAY_SECONDS);
  return Math.max(1, Math.round(capped / 2 + (random() * capped) / 2));
}
