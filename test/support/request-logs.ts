// The request log as tests read it: a request's stored row, once the queue's consumer wrote it
// (records are written a few seconds after their responses); and records delivered to the
// consumer as the queue delivers them, for logs of a chosen time.
import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { type RequestLogRecord, requestLogId } from "../../src/domain/request-log";
import { consumeRequestLogs } from "../../src/request-logs/consumer";
import { OLDEST } from "./bundle-versions";
import { SHARDS, shardDatabase } from "./shards";

/** A stored request, as the table holds it: the record, its status class, SQLite's 0 or 1. */
export type StoredRequest = Omit<RequestLogRecord, "idempotent_replayed"> & {
  status_class: number;
  idempotent_replayed: number;
};

/** The stored requests answered with this `x-request-id` (newest first), without waiting. */
export async function storedRequests(requestId: string): Promise<StoredRequest[]> {
  const rows: StoredRequest[] = [];
  // On the shard of the request's partner, wherever that is.
  for (const shard of SHARDS) {
    const { results } = await shardDatabase(shard)
      .prepare("SELECT * FROM request_logs WHERE request_id = ? ORDER BY log_id DESC")
      .bind(requestId)
      .all<StoredRequest>();
    rows.push(...results);
  }
  return rows.sort((a, b) => b.log_id.localeCompare(a.log_id));
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

/** A record as the recorder sends it, of a request of `partnerId` at `at`. */
export function logRecord(
  partnerId: string,
  at: Date,
  overrides: Partial<RequestLogRecord> = {},
): RequestLogRecord {
  return {
    log_id: requestLogId(at),
    partner_id: partnerId,
    environment: "sandbox",
    at: at.toISOString(),
    request_id: newRequestId(),
    key_id: "key_test",
    key_name: null,
    method: "GET",
    path: "/v2/customers",
    route: "/v2/customers",
    status: 200,
    error_type: null,
    error_message: null,
    version: OLDEST,
    version_source: "saved",
    latency_ms: 3,
    d1_round_trips: 1,
    d1_rows_read: 2,
    idempotency_key: null,
    idempotent_replayed: false,
    client_ip: null,
    user_agent: null,
    request_body: null,
    response_body: null,
    ...overrides,
  };
}

/** A delivery of the request-log queue holding these messages (each a JSON array of records). */
export function delivery(messages: unknown[]): MessageBatch<unknown> {
  return createMessageBatch(
    "request-logs",
    messages.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
  );
}

/** Writes records as the consumer does when the queue delivers them (in messages of 100). */
export async function deliverRecords(records: readonly RequestLogRecord[]): Promise<void> {
  // Each record names its partner's shard, as the recorder's do.
  const partners = [...new Set(records.map((r) => r.partner_id))];
  const { results } = await env.DIRECTORY.prepare(
    "SELECT partner_id, shard FROM partner_shards WHERE partner_id IN (SELECT value FROM json_each(?))",
  )
    .bind(JSON.stringify(partners))
    .all<{ partner_id: string; shard: string }>();
  const shardOf = new Map(results.map((r) => [r.partner_id, r.shard]));
  const placed = records.map((r) => ({
    ...r,
    shard: r.shard ?? shardOf.get(r.partner_id) ?? (SHARDS[0] as string),
  }));
  const messages: string[] = [];
  for (let i = 0; i < placed.length; i += 100) {
    messages.push(JSON.stringify(placed.slice(i, i + 100)));
  }
  await consumeRequestLogs(delivery(messages), env);
}

/** A queue that keeps the messages sent to it, each send taking `sendMs`. */
export function keptQueue(sendMs = 0): { queue: Queue; sent: string[] } {
  const sent: string[] = [];
  const queue = {
    async send(body: string) {
      sent.push(body);
      await new Promise((resolve) => setTimeout(resolve, sendMs));
    },
  } as unknown as Queue;
  return { queue, sent };
}
