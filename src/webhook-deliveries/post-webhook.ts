import type { AttemptStatus } from "./delivery-attempt";
// One HTTP attempt at an endpoint: POST, no redirect followed, a deadline, and the outcome, with
// a reason a partner can act on when it fails.

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
  const target = new URL(url);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const ok = response.status >= 200 && response.status < 300;
    const error = ok ? null : await answerReason(target, response);
    // Nothing more of the answer is kept: let the connection go.
    if (response.body && !response.body.locked) await response.body.cancel();
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
        ? `no answer from ${target.host} within ${timeoutMs} ms`
        : connectionReason(target, err),
    };
  }
}

/**
 * Answers Cloudflare gives in place of an endpoint it could not reach: in production a Worker's
 * fetch reports DNS, TLS and connection failures this way rather than throwing.
 */
const CLOUDFLARE_ANSWERS: Record<number, (host: string) => string> = {
  521: (host) => `${host} refused the connection`,
  522: (host) => `connecting to ${host} timed out`,
  523: (host) => `${host} is unreachable`,
  525: (host) => `TLS handshake with ${host} failed`,
  526: (host) => `the TLS certificate of ${host} is not valid`,
};

/** Why a non-2xx answer is a failure. */
async function answerReason(target: URL, response: Response): Promise<string> {
  const { status } = response;
  if (status >= 300 && status < 400) {
    return `redirect to ${response.headers.get("location") ?? "nowhere"} not followed`.slice(
      0,
      300,
    );
  }
  const cloudflare = CLOUDFLARE_ANSWERS[status];
  if (cloudflare) return `${cloudflare(target.host)} (HTTP ${status})`;
  if (status === 530) {
    // Cloudflare's body names its error ("error code: 1016" is its origin DNS error).
    const code = /error code: (\d+)/.exec(await firstChunk(response))?.[1];
    if (code === "1016") return `DNS lookup failed for ${target.hostname} (HTTP 530, error 1016)`;
    return `endpoint answered HTTP 530${code ? ` (Cloudflare error ${code})` : ""}`;
  }
  return `endpoint answered HTTP ${status}`;
}

/** The start of a body, read once and no further, so a large answer costs nothing more. */
async function firstChunk(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value?.subarray(0, 200));
}

/** Host names that need no DNS lookup: IP literals and localhost. */
function resolvesLocally(hostname: string): boolean {
  return hostname === "localhost" || hostname.startsWith("[") || /^[\d.]+$/.test(hostname);
}

/**
 * Why the request never got an answer, from what the runtime threw. workerd (local runs) says
 * "Network connection lost." when a connection is refused or dropped, and only "internal error;
 * reference = …" when a DNS lookup or a TLS handshake fails, logging the cause on its own; the
 * URL tells which of the two it can be. Nothing internal (a reference, a stack) is recorded.
 */
export function connectionReason(target: URL, err: unknown): string {
  const message = String(err instanceof Error ? err.message : err);
  if (message === "Network connection lost.") {
    return `connection to ${target.host} refused or lost before an answer`;
  }
  if (message.startsWith("internal error")) {
    if (target.protocol === "http:") return `DNS lookup failed for ${target.hostname}`;
    if (resolvesLocally(target.hostname)) return `TLS handshake with ${target.host} failed`;
    return `DNS lookup or TLS handshake failed for ${target.hostname}`;
  }
  return `could not connect to ${target.host}: ${message}`.slice(0, 300);
}
