// Load generation: autocannon against one arm, with every response time kept at full precision
// (autocannon's own histogram rounds to whole milliseconds, coarser than these latencies).
import autocannon from "autocannon";

export interface Target {
  url: string;
  headers?: Record<string, string>;
  /**
   * Requests each connection sends in turn instead of `url` alone (paths on the same host, each
   * with its own headers): load spread over several partners.
   */
  rotation?: { path: string; headers: Record<string, string> }[];
  /**
   * POSTs instead of GETs: `body` as JSON, its `field` set to each of `values` in turn (shared by
   * the connections, from a random start), so that writes spread over as many rows as `values`.
   */
  post?: { body: Record<string, unknown>; field: string; values: string[] };
}

/** The autocannon requests of a `post` target: each one's body built as it is sent. */
function postRequests(post: NonNullable<Target["post"]>, headers: Record<string, string>) {
  let next = Math.floor(Math.random() * post.values.length);
  return [
    {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      setupRequest: (request: Record<string, unknown>) => {
        const value = post.values[next % post.values.length];
        next += 1;
        return { ...request, body: JSON.stringify({ ...post.body, [post.field]: value }) };
      },
    },
  ];
}

export interface Measurement {
  /** Successful responses per second over the run. */
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  requests: number;
}

/** The nearest-rank percentile `p` of numbers sorted ascending. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

/** How long past its `seconds` a load may run before it is stopped and failed. */
export const LOAD_GRACE_SECONDS = 30;

/**
 * Runs `connections` keep-alive connections against `target` for `seconds`. Any error or non-2xx
 * answer fails the run: a bench that measures failures measures nothing. A load still running
 * `LOAD_GRACE_SECONDS` past its time (a runtime that stopped answering) is stopped and fails.
 */
export async function measure(
  target: Target,
  options: { connections: number; seconds: number },
): Promise<Measurement> {
  const times: number[] = [];
  let failures = 0;
  const instance = autocannon({
    url: target.url,
    headers: target.headers ?? {},
    ...(target.rotation
      ? {
          requests: target.rotation.map((r) => ({
            method: "GET",
            path: r.path,
            headers: r.headers,
          })),
        }
      : {}),
    ...(target.post ? { requests: postRequests(target.post, target.headers ?? {}) } : {}),
    connections: options.connections,
    duration: options.seconds,
    pipelining: 1,
    timeout: 10,
  });
  instance.on("response", (_client: unknown, status: number, _bytes: number, time: number) => {
    if (status >= 200 && status < 300) times.push(time);
    else failures += 1;
  });
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        instance.stop();
        reject(
          new Error(
            `${target.url}: the load did not end within ${options.seconds} s + ${LOAD_GRACE_SECONDS} s`,
          ),
        );
      },
      (options.seconds + LOAD_GRACE_SECONDS) * 1000,
    );
  });
  const result = await Promise.race([instance, overrun]).finally(() => clearTimeout(timer));
  if (failures > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${target.url}: ${failures} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  const sorted = Float64Array.from(times).sort();
  return {
    rps: times.length / result.duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    requests: times.length,
  };
}

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
