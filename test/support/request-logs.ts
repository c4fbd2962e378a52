// The request log as tests read it: a request's stored row, once the queue's consumer wrote it
// (records are written a few seconds after their responses), and the daily counts.
import { env } from "cloudflare:workers";

/** A stored request, as the table holds it. */
export interface StoredRequest {
  log_id: string;
  partner_id: string;
  environment: string;
  at: string;
  request_id: string;
  key_id: string;
  key_name: string | null;
  method: string;
  path: string;
  route: string;
  status: number;
  status_class: number;
  error_type: string | null;
  error_message: string | null;
  version: string | null;
  version_source: string | null;
  latency_ms: number;
  d1_round_trips: number;
  d1_rows_read: number;
  idempotency_key: string | null;
  idempotent_replayed: number;
  client_ip: string | null;
  user_agent: string | null;
  request_body: string | null;
  response_body: string | null;
}

/** The stored requests answered with this `x-request-id` (newest first), without waiting. */
export async function storedRequests(requestId: string): Promise<StoredRequest[]> {
  const { results } = await env.DB.prepare(
    "SELECT * FROM request_logs WHERE request_id = ? ORDER BY log_id DESC",
  )
    .bind(requestId)
    .all<StoredRequest>();
  return results;
}

/** The stored request with this `x-request-id`, waiting for the consumer to write it. */
export async function loggedRequest(requestId: string, timeoutMs = 20_000): Promise<StoredRequest> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await storedRequests(requestId);
    if (row) return row;
    if (Date.now() > deadline) throw new Error(`request ${requestId} was not logged`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until every request id is logged. */
export async function allLogged(requestIds: readonly string[]): Promise<StoredRequest[]> {
  return Promise.all(requestIds.map((id) => loggedRequest(id)));
}

/** The response's request id (every response has one). */
export function requestIdOf(res: Response): string {
  const id = res.headers.get("x-request-id");
  if (!id) throw new Error("the response has no x-request-id");
  return id;
}

/** A request id of the test's own, sent as `x-request-id` (the service keeps a well-formed one). */
export function newRequestId(): string {
  return `req-${crypto.randomUUID()}`;
}
