// The request log's vocabulary: what is recorded of every partner API request, how long it is
// kept, and how a log id orders and bounds it in time.
import { toBase62 } from "./encoding";
import type { Environment } from "./environment";
import { encodeIdSuffix } from "./ids";

/** How long a request stays in the log (and in the Overview's counts). */
export const REQUEST_LOG_RETENTION_DAYS = 30;
export const REQUEST_LOG_RETENTION_MS = REQUEST_LOG_RETENTION_DAYS * 86_400_000;

/** The most of a request's or an error response's body the log keeps (UTF-16 code units). */
export const MAX_LOGGED_BODY = 8 * 1024;

/** How the request's version was chosen. */
export type VersionSource = "header" | "saved";

/** One partner API request, as recorded after its response and shown in the dashboard. */
export interface RequestLogRecord {
  /** Time-ordered and unique (see `requestLogId`). */
  logId: string;
  partnerId: string;
  environment: Environment;
  /** When the request arrived (RFC 3339 UTC, milliseconds). */
  at: string;
  requestId: string;
  keyId: string;
  keyName: string | null;
  method: string;
  /** The path and query as sent, secret query parameters redacted. */
  path: string;
  /** The route pattern that answered, or `(unmatched)`. */
  route: string;
  status: number;
  errorType: string | null;
  errorMessage: string | null;
  version: string | null;
  versionSource: VersionSource | null;
  latencyMs: number;
  d1RoundTrips: number;
  d1RowsRead: number;
  idempotencyKey: string | null;
  idempotentReplayed: boolean;
  clientIp: string | null;
  userAgent: string | null;
  /** A write's body, redacted and cut to `MAX_LOGGED_BODY`; null for a request without one. */
  requestBody: string | null;
  /** An error's body as sent, redacted and cut; null for a success. */
  responseBody: string | null;
}

/** A log id for a request that arrived at `at`: its milliseconds first, so ids sort by time. */
export function requestLogId(at: Date): string {
  return encodeIdSuffix(at.getTime());
}

/**
 * The smallest log id of a request at or after `at`: `logId >= logIdFloor(t)` selects requests
 * from `t` on, `logId < logIdFloor(t)` those before it.
 */
export function logIdFloor(at: Date): string {
  return toBase62(Math.max(0, at.getTime()), 9);
}

/** Whether `text` has the shape of a log id (a page cursor is one). */
export function isLogId(text: string): boolean {
  return /^[0-9A-Za-z]{25}$/.test(text);
}

/** The class of a status: 2 for 2xx, 4 for 4xx, … */
export function statusClassOf(status: number): number {
  return Math.floor(status / 100);
}

/** `text` cut to `max` code units, saying how much was left out. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (cut: ${text.length - max} more characters)`;
}
