// Records every authenticated partner API request, for the partner's dashboard, with no D1 write
// in the request's path: as the response leaves, the recorder keeps only what changes after it
// (status, latency, the request's D1 cost) and the bodies it will read; the record is built,
// serialised and handed to a queue after the response (`waitUntil`), never awaited by the
// request; the consumer (consumer.ts) writes it into the partner's storage. Requests that end
// close together in an isolate share a message: a record waits GATHER_MS for others before it is
// built and sent, and while one send is in flight the records of the others wait for the next, so
// a busy isolate sends a message every GATHER_MS or so rather than one per request (each send is
// a call to the queue, the largest part of recording). The request that starts a send keeps it
// alive (`waitUntil`) until every record that joined it is sent; the others have nothing of their
// own to wait for. A request that fails authentication has no partner and is not recorded here
// (the Worker's own log line has it). A partner with a jurisdiction has its records sent through
// that jurisdiction's queue (`REQUEST_LOGS_EU`, …) alone; without it, they are not kept.
import type { Context } from "hono";
import { clientIp } from "../app/actor";
import type { AppEnv, Caller } from "../app/context";
import { ApiError } from "../app/errors";
import { versionHeader } from "../app/headers";
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from "../app/idempotency";
import { readBoundedBody } from "../app/read-body";
import { pathAndQuery, type RequestRecorder } from "../app/request-context";
import { requestLogQueueOf } from "../db/jurisdiction-stores";
import {
  cutText,
  idempotencyKeyDigest,
  MAX_LOGGED_BYTES,
  type RequestLogRecord,
  requestLogId,
} from "../domain/request-log";
import { takeMessage } from "./messages";
import { redactBody, redactPath, redactText } from "./redaction";

/** A body larger than this is not read for the log; its size is recorded instead. */
const MAX_READ_BYTES = 64 * 1024;
/**
 * How long a record waits for others to share its message (ms): short beside the queue's own
 * batching (wrangler.toml's `max_batch_timeout`), long enough for a busy isolate's requests.
 */
const GATHER_MS = 50;

/** An isolate's outgoing records: one per app (it holds the records waiting for a message). */
export interface RequestLogSender {
  /**
   * Queues a record for a message; `build` makes it when the message is made, after the
   * response. When it starts a send, answers the send's promise, which settles once every record
   * waiting is sent (or its send failed, logged): the caller keeps it alive (`waitUntil`). A
   * record that joins a send already under way answers null: the request that started it keeps it
   * alive until this record is sent too.
   */
  submit(build: () => RequestLogRecord, queue: Queue): Promise<void> | null;
}

/** `gatherMs`: how long a record waits for others to share its message (GATHER_MS). */
export function createRequestLogSender(gatherMs = GATHER_MS): RequestLogSender {
  // Each queue (one per jurisdiction) gathers its own records into its own messages.
  const senders = new Map<Queue, RequestLogSender>();
  return {
    submit(build, queue) {
      let sender = senders.get(queue);
      if (!sender) {
        sender = queueSender(gatherMs, () => senders.delete(queue));
        senders.set(queue, sender);
      }
      return sender.submit(build, queue);
    },
  };
}

/**
 * Sends records as one message. Messages are sized in bytes as the queue counts them, so the
 * queue should never refuse one for its size; if it refuses one all the same (its error does not
 * always say why), each half is sent on its own, down to single records, so that no record is
 * lost with another. A record the queue refuses on its own is lost, logged: at most twice as
 * many calls as records, while the queue is down.
 */
async function send(queue: Queue, records: string[]): Promise<void> {
  try {
    await queue.send(`[${records.join(",")}]`, { contentType: "text" });
  } catch (err) {
    if (records.length > 1) {
      const half = Math.ceil(records.length / 2);
      await send(queue, records.slice(0, half));
      await send(queue, records.slice(half));
      return;
    }
    // A lost record costs the partner one line of their log, never their request.
    console.error(
      JSON.stringify({ request_log: "send failed", records: records.length, error: String(err) }),
    );
  }
}

/** The sender of one queue's records; `drained` is called once it has none left to send. */
function queueSender(gatherMs: number, drained: () => void): RequestLogSender {
  /** Records to send: serialised, or still to be built (each is built once, when first sent). */
  const waiting: (string | (() => string))[] = [];
  let sending: Promise<void> | null = null;

  async function drain(queue: Queue): Promise<void> {
    try {
      while (waiting.length > 0) {
        // `scheduler.wait`, not a timer: it is the runtime's own, whatever mocks the clock.
        await scheduler.wait(gatherMs);
        let records: string[];
        try {
          records = takeMessage(waiting);
        } catch (err) {
          // A record that cannot be built loses the records gathered with it (logged), never
          // the ones still waiting, nor the request.
          console.error(JSON.stringify({ request_log: "record not built", error: String(err) }));
          continue;
        }
        await send(queue, records);
      }
    } finally {
      // In the same turn as the last check of `waiting`: a record added after it starts a drain.
      sending = null;
      drained();
    }
  }

  return {
    submit(build, queue) {
      waiting.push(() => JSON.stringify(build()));
      if (sending) return null;
      sending = drain(queue);
      return sending;
    },
  };
}

/** What the record takes as the response leaves: the rest does not change after it. */
interface Answered {
  caller: Caller;
  route: string;
  at: Date;
  status: number;
  replayed: boolean;
  latencyMs: number;
  d1RoundTrips: number;
  d1RowsRead: number;
}

/** `text` cut to `max` bytes as the queue counts them; null stays null. */
function cutOrNull(text: string | null, max: number): string | null {
  return text === null ? null : cutText(text, max);
}

/**
 * The record of a request answered as `answered` says, with the bodies the log keeps. Its text
 * fields are cut to their bytes (MAX_LOGGED_BYTES), so that it fits a queue message alone.
 */
function recordOf(
  c: Context<AppEnv>,
  answered: Answered,
  bodies: Pick<RequestLogRecord, "request_body" | "response_body">,
): RequestLogRecord {
  const { caller, at } = answered;
  const { pathname, search } = pathAndQuery(c.req.url);
  const error = c.get("apiError");
  const version = c.get("version") ?? null;
  const idempotencyKey = c.req.header(IDEMPOTENCY_HEADER);
  const userAgent = c.req.header("user-agent");
  return {
    log_id: requestLogId(at),
    partner_id: caller.partnerId,
    environment: caller.environment,
    at: at.toISOString(),
    request_id: c.get("requestId"),
    key_id: caller.keyId,
    key_name: cutOrNull(caller.keyName, MAX_LOGGED_BYTES.key_name),
    method: c.req.method,
    path: cutText(redactPath(pathname, search), MAX_LOGGED_BYTES.path),
    route: answered.route,
    status: answered.status,
    error_type: error?.type ?? null,
    error_message: error
      ? cutText(redactText(error.message), MAX_LOGGED_BYTES.error_message)
      : null,
    version,
    version_source:
      version === null
        ? null
        : c.req.header(versionHeader(c.env)) === undefined
          ? "saved"
          : "header",
    latency_ms: Math.round(answered.latencyMs),
    d1_round_trips: answered.d1RoundTrips,
    d1_rows_read: answered.d1RowsRead,
    idempotency_key: idempotencyKey === undefined ? null : idempotencyKeyDigest(idempotencyKey),
    idempotent_replayed: answered.replayed,
    client_ip: clientIp(c),
    user_agent: cutOrNull(userAgent ?? null, MAX_LOGGED_BYTES.user_agent),
    ...bodies,
    shard: caller.shard,
  };
}

/**
 * A body as the log keeps it: decoded (bytes that are not UTF-8 become U+FFFD), redacted and cut
 * to `max` bytes; its size alone when too large to read.
 */
async function keptBody(message: Request | Response, max: number): Promise<string | null> {
  const tooLarge = () => new ApiError("PAYLOAD_TOO_LARGE_ERROR", "not kept");
  let bytes: Uint8Array;
  try {
    bytes = await readBoundedBody(message, MAX_READ_BYTES, tooLarge);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const size = message.headers.get("content-length");
    return `[body of ${size ? `${size} bytes` : `more than ${MAX_READ_BYTES} bytes`}: not kept]`;
  }
  if (bytes.byteLength === 0) return null;
  const text = new TextDecoder().decode(bytes);
  return cutText(redactBody(text, message.headers.get("content-type")), max);
}

/** Reads the bodies the log keeps, after the response: a write's request, an error's response. */
async function keptBodies(
  request: Request | null,
  response: Response | null,
): Promise<Pick<RequestLogRecord, "request_body" | "response_body">> {
  const [requestBody, responseBody] = await Promise.all([
    request ? keptBody(request, MAX_LOGGED_BYTES.request_body).catch(() => null) : null,
    response ? keptBody(response, MAX_LOGGED_BYTES.response_body).catch(() => null) : null,
  ]);
  return { request_body: requestBody, response_body: responseBody };
}

const NO_BODIES = { request_body: null, response_body: null };

/**
 * The recorder of every request (the request context calls it): once the response is built,
 * records the request of a caller whose API key authenticated, which only the partner API's
 * pipeline does (see the module comment). Without the REQUEST_LOGS queue it records nothing.
 */
export function requestRecorder(sender: RequestLogSender): RequestRecorder {
  return (c) => {
    if (!c.env.REQUEST_LOGS) return null;
    const at = c.get("now")();
    // A write's body is read by its route; the log reads its own copy, after the response. The
    // copy is taken once the caller is known (before any body is read): a request that never
    // authenticates is not recorded, and its body is not copied.
    let request: Request | null = null;
    c.set("onAuthenticated", () => {
      if (c.req.raw.body !== null) request = c.req.raw.clone();
    });
    return (res, route, elapsedMs) => {
      // Unset (whatever its type says) for a request no key authenticated.
      const caller: Caller | undefined = c.get("caller");
      if (!caller) return;
      // The queue of the jurisdiction of the partner's shard, never another's.
      const queue = requestLogQueueOf(c.env, caller.shard);
      if (!queue) return;
      const stats = c.get("queryStats");
      const answered: Answered = {
        caller,
        route,
        at,
        status: res.status,
        replayed: res.headers.get(REPLAYED_HEADER) === "true",
        latencyMs: elapsedMs,
        d1RoundTrips: stats.roundTrips,
        d1RowsRead: stats.rowsRead,
      };
      const response = res.status >= 400 ? res.clone() : null;
      const work =
        request || response
          ? keptBodies(request, response).then((bodies) =>
              sender.submit(() => recordOf(c, answered, bodies), queue),
            )
          : sender.submit(() => recordOf(c, answered, NO_BODIES), queue);
      // Joined a send another request keeps alive: nothing of this request's own to wait for.
      if (work === null) return;
      try {
        c.executionCtx.waitUntil(work);
      } catch {
        // No execution context (the app called directly): the send goes on by itself.
      }
    };
  };
}
