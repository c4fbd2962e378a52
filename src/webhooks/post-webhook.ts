// One HTTP attempt at an endpoint: POST, no redirect followed, a deadline, and the outcome.
import type { AttemptStatus } from "../domain/delivery-attempt";

export interface PostOutcome {
  status: AttemptStatus;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
}

/** Posts `body`; never throws. Any 2xx is a success; redirects are not followed. */
export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostOutcome> {
  const started = Date.now();
  const elapsed = () => Math.max(0, Date.now() - started);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Nothing of the answer is kept but its status: let the connection go.
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    let error: string | null = null;
    if (!ok) {
      error =
        response.status >= 300 && response.status < 400
          ? `redirect to ${response.headers.get("location") ?? "nowhere"} not followed`.slice(
              0,
              300,
            )
          : `endpoint answered HTTP ${response.status}`;
    }
    return {
      status: ok ? "succeeded" : "failed",
      durationMs: elapsed(),
      responseStatus: response.status,
      error,
    };
  } catch (err) {
    const timedOut =
      err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    return {
      status: timedOut ? "timed_out" : "failed",
      durationMs: elapsed(),
      responseStatus: null,
      error: timedOut
        ? `no answer within ${timeoutMs} ms`
        : `could not connect: ${String(err instanceof Error ? err.message : err)}`.slice(0, 300),
    };
  }
}
