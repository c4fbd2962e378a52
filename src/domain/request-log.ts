// The request log's vocabulary: what is recorded of every partner API request, how long it is
// kept, and how a log id orders and bounds it in time.
import { hmac } from "fast-sha256";
import { sha256HexNow, toBase62, toHex } from "./encoding";
import type { Environment } from "./environment";
import { encodeIdSuffix } from "./ids";

/** How long a request stays in the log (and in the Overview's counts). */
export const REQUEST_LOG_RETENTION_DAYS = 30;
export const REQUEST_LOG_RETENTION_MS = REQUEST_LOG_RETENTION_DAYS * 86_400_000;

/**
 * The most of each free-text field the log keeps, in bytes as the queue counts them: the UTF-8 of
 * the field's JSON string in the record, escapes included. Every other field is an id or a number
 * of bounded length, so a record is at most about 24 KB, and any record fits a message alone.
 */
export const MAX_LOGGED_BYTES = {
  request_body: 8 * 1024,
  response_body: 8 * 1024,
  path: 4 * 1024,
  error_message: 2 * 1024,
  user_agent: 512,
  key_name: 512,
} as const satisfies Partial<Record<keyof RequestLogRecord, number>>;

/** A client's `x-request-id` the service keeps (and the log can hold): 1 to 128 of these. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function isRequestId(value: string): boolean {
  return REQUEST_ID.test(value);
}

/** How the request's version was chosen. */
export type VersionSource = "header" | "saved";

/**
 * One partner API request, as recorded after its response: the queue message's item, the stored
 * row (under the same names) and what the dashboard shows.
 */
export interface RequestLogRecord {
  /** Time-ordered and unique (see `requestLogId`). */
  log_id: string;
  partner_id: string;
  environment: Environment;
  /** When the request arrived (RFC 3339 UTC, milliseconds). */
  at: string;
  request_id: string;
  key_id: string;
  key_name: string | null;
  method: string;
  /** The path and query as sent, secret query parameters redacted. */
  path: string;
  /** The route pattern that answered, or `(unmatched)`. */
  route: string;
  status: number;
  error_type: string | null;
  error_message: string | null;
  version: string | null;
  version_source: VersionSource | null;
  latency_ms: number;
  d1_round_trips: number;
  d1_rows_read: number;
  /** The Idempotency-Key's short hash (`idempotencyKeyDigest`), never the key. */
  idempotency_key: string | null;
  idempotent_replayed: boolean;
  client_ip: string | null;
  user_agent: string | null;
  /** A write's body, redacted and cut to `MAX_LOGGED_BODY`; null for a request without one. */
  request_body: string | null;
  /** An error's body as sent, redacted and cut; null for a success. */
  response_body: string | null;
  /**
   * The code of the shard the partner lived on when it made the request: where the consumer
   * writes the record (absent from records queued before shards: the first shard). Not stored.
   */
  shard?: string;
}

/** The fields of a record, by kind: what the consumer checks a message's items against. */
export const RECORD_FIELDS = {
  text: ["log_id", "partner_id", "at", "request_id", "key_id", "method", "path", "route"],
  optionalText: [
    "key_name",
    "error_type",
    "error_message",
    "version",
    "version_source",
    "idempotency_key",
    "client_ip",
    "user_agent",
    "request_body",
    "response_body",
  ],
  integer: ["status", "latency_ms", "d1_round_trips", "d1_rows_read"],
} as const satisfies Record<string, readonly (keyof RequestLogRecord)[]>;

/** A log id for a request that arrived at `at`: its milliseconds first, so ids sort by time. */
export function requestLogId(at: Date): string {
  return encodeIdSuffix(at.getTime());
}

/**
 * The smallest log id of a request at or after `at`: `log_id >= logIdFloor(t)` selects requests
 * from `t` on, `log_id < logIdFloor(t)` those before it.
 */
export function logIdFloor(at: Date): string {
  return toBase62(Math.max(0, at.getTime()), 9);
}

/** Hex digits of an Idempotency-Key's SHA-256 that the log keeps in place of the key. */
const IDEMPOTENCY_KEY_HASH_DIGITS = 16;

/**
 * The Idempotency-Key as the log keeps it: the first 16 hex digits of its SHA-256, enough to
 * match a request to the key its client holds (`printf %s "$KEY" | sha256sum | cut -c1-16`),
 * never the key itself (a client may use one that names its own records).
 */
export function idempotencyKeyDigest(key: string): string {
  return sha256HexNow(key).slice(0, IDEMPOTENCY_KEY_HASH_DIGITS);
}

/**
 * The Idempotency-Key as a masked view shows it: an HMAC of the stored digest under a service
 * secret, bound to the partner, cut to 16 hex digits. Two requests sent with one key still show
 * the same value, but a reader without the secret cannot test a guessed key against it (the
 * stored digest is an unsalted hash that anyone can compute for a guess).
 */
export function maskedIdempotencyDigest(secret: string, partnerId: string, digest: string): string {
  const encoder = new TextEncoder();
  const mac = hmac(encoder.encode(secret), encoder.encode(`request-log:${partnerId}:${digest}`));
  return toHex(mac).slice(0, IDEMPOTENCY_KEY_HASH_DIGITS);
}

/** Whether `text` has the shape of a log id (a page cursor is one). */
export function isLogId(text: string): boolean {
  return /^[0-9A-Za-z]{25}$/.test(text);
}

/** The class of a status: 2 for 2xx, 4 for 4xx, … */
export function statusClassOf(status: number): number {
  return Math.floor(status / 100);
}

/**
 * The bytes a code point takes in a JSON string, UTF-8 encoded: what a queue message holding it
 * costs. `"` and `\` take an escape, control characters `\n`-style or `\u00XX` escapes, and a
 * lone surrogate (text decoded from invalid UTF-16) the `\uDXXX` escape JSON.stringify writes.
 */
function jsonBytesOf(codePoint: number): number {
  if (codePoint === 0x22 || codePoint === 0x5c) return 2;
  if (codePoint < 0x20) return [0x08, 0x09, 0x0a, 0x0c, 0x0d].includes(codePoint) ? 2 : 6;
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 6;
  return codePoint < 0x10000 ? 3 : 4;
}

/** The bytes `text` takes as a JSON string in a queue message (its quotes left out). */
export function jsonTextBytes(text: string): number {
  let bytes = 0;
  for (const char of text) bytes += jsonBytesOf(char.codePointAt(0) ?? 0);
  return bytes;
}

/**
 * `text` cut to at most `max` bytes as a JSON string in a queue message (whole characters only),
 * saying how many bytes were left out; as it is when it fits.
 */
export function cutText(text: string, max: number): string {
  let kept = 0;
  let end = 0;
  for (const char of text) {
    const bytes = jsonBytesOf(char.codePointAt(0) ?? 0);
    if (kept + bytes > max) {
      return `${text.slice(0, end)}… (cut: ${jsonTextBytes(text.slice(end))} more bytes)`;
    }
    kept += bytes;
    end += char.length;
  }
  return text;
}
