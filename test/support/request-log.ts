// Reads the Worker's per-request log line, which reports the D1 round trips a request cost.
import { vi } from "vitest";

export interface RequestLog {
  route: string;
  status: number;
  /** Milliseconds from the request's start to its response, two decimals. */
  duration_ms: number;
  d1_queries: number;
  d1_rows_read: number;
  d1_rows_written: number;
  d1_longest_ms: number;
  d1_sql_ms: number;
  d1_replica_trips: number;
  /** The D1 session's bookmark after the request's last round trip (absent if none). */
  d1_bookmark?: string;
}

/** Runs `send` and returns its response with the log line of the request it made. */
export async function withRequestLog(
  send: () => Promise<Response>,
): Promise<{ res: Response; log: RequestLog }> {
  const spy = vi.spyOn(console, "log");
  try {
    const res = await send();
    const lines = spy.mock.calls
      .map(([line]) => (typeof line === "string" ? line : ""))
      .filter((line) => line.includes('"d1_queries"'));
    const last = lines.at(-1);
    if (last === undefined) throw new Error("the request wrote no log line");
    return { res, log: JSON.parse(last) as RequestLog };
  } finally {
    spy.mockRestore();
  }
}
