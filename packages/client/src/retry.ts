// Retries below the typed client: 429, 503 and network errors, for GETs and for writes that carry
// an Idempotency-Key (the client gives every write one, kept across its retries). The wait is the
// server's Retry-After when it sends one, else exponential backoff with full jitter.

export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** First backoff ceiling; doubles per retry. Default 500 ms. */
  baseDelayMs?: number;
  /** Longest wait between attempts, Retry-After included. Default 30 s. */
  maxDelayMs?: number;
  /** For tests: how to wait, and the jitter's randomness. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const RETRY_STATUSES = new Set([429, 503]);

/** Milliseconds a Retry-After header asks for (delta-seconds or an HTTP date), or null. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function retryable(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") return true;
  return request.headers.has("idempotency-key");
}

/** A failure to reach the server, as opposed to an abort the caller asked for. */
function isNetworkError(error: unknown): boolean {
  return error instanceof Error && error.name !== "AbortError" && error.name !== "TimeoutError";
}

/** `fetch` with retries; the request is replayed from a clone, so bodies survive. */
export function retryingFetch(inner: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const maxRetries = options.maxRetries ?? 3;
  const base = options.baseDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const sleep = options.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;

  return async (input, init) => {
    const request = new Request(input, init);
    const canRetry = retryable(request);
    for (let attempt = 0; ; attempt++) {
      let response: Response | undefined;
      try {
        response = await inner(request.clone());
      } catch (error) {
        if (!canRetry || attempt >= maxRetries || !isNetworkError(error)) throw error;
      }
      if (
        response &&
        (!canRetry || attempt >= maxRetries || !RETRY_STATUSES.has(response.status))
      ) {
        return response;
      }
      const asked = retryAfterMs(response?.headers.get("retry-after") ?? null);
      // A server asking for longer than we would wait gets its answer back instead.
      if (asked !== null && asked > maxDelay && response) return response;
      const backoff = random() * Math.min(maxDelay, base * 2 ** attempt);
      await response?.body?.cancel();
      await sleep(asked ?? backoff);
    }
  };
}
