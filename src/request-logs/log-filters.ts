// The request log's filters as query parameters, so that a filtered view is a link:
// `status=2xx|3xx|4xx|5xx`, `route`, `method`, `key`, `version` (`none`: refused before one was
// chosen), `from` and `to` (UTC), `request_id`, and `before` (the page cursor, a log id).
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { invalidRequest } from "../app/errors";
import type { Environment } from "../domain/environment";
import { isLogId, isRequestId } from "../domain/request-log";
import type { LogFilters } from "./log-store";

/** What the log page was asked for. */
export interface LogQuery {
  filters: LogFilters;
  /** A request id searched for (the other filters then do not apply). */
  requestId: string | null;
  /** The cursor: requests older than this log id. */
  before: string | null;
  /** The parameters as sent, for the form and the next page's link. */
  sent: Record<string, string>;
}

const PARAMETERS = ["status", "route", "method", "key", "version", "from", "to", "request_id"];

/**
 * An instant of a `from`/`to` field: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]` (a browser's
 * date-time field; read as UTC) or an RFC 3339 timestamp. Null for anything else.
 */
function instantOf(text: string): Date | null {
  let iso: string;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) iso = `${text}T00:00:00Z`;
  else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(text)) iso = `${text}Z`;
  else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(text)) {
    iso = text;
  } else return null;
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Reads the log's query; a malformed parameter answers 400, naming it. */
export function readLogQuery(c: Context<AppEnv>): LogQuery {
  const sent: Record<string, string> = {};
  for (const name of PARAMETERS) {
    const value = c.req.query(name)?.trim();
    if (value) sent[name] = value;
  }
  const problems: string[] = [];
  const filters: LogFilters = {};
  if (sent.status !== undefined) {
    const match = /^([2-5])xx$/.exec(sent.status);
    if (match) filters.statusClass = Number(match[1]);
    else problems.push("status must be 2xx, 3xx, 4xx or 5xx.");
  }
  if (sent.route !== undefined) {
    if (sent.route.length <= 200) filters.route = sent.route;
    else problems.push("route is too long.");
  }
  if (sent.method !== undefined) {
    if (/^[A-Z]{1,10}$/.test(sent.method)) filters.method = sent.method;
    else problems.push("method must be an HTTP method, such as GET or POST.");
  }
  if (sent.key !== undefined) {
    if (/^[A-Za-z0-9_]{1,64}$/.test(sent.key)) filters.keyId = sent.key;
    else problems.push("key must be a key id, such as key_….");
  }
  if (sent.version !== undefined) {
    if (sent.version === "none") filters.version = null;
    else if (/^(latest|\d{4}-\d{2}-\d{2})$/.test(sent.version)) filters.version = sent.version;
    else problems.push("version must be a version, such as 2025-05-05, or none.");
  }
  for (const bound of ["from", "to"] as const) {
    const text = sent[bound];
    if (text === undefined) continue;
    const at = instantOf(text);
    if (at) filters[bound] = at;
    else problems.push(`${bound} must be a date and time, such as 2026-11-25T14:30 (UTC).`);
  }
  const requestId = sent.request_id ?? null;
  if (requestId !== null && !isRequestId(requestId)) {
    problems.push("request_id must be 1 to 128 letters, digits, '.', '_' or '-'.");
  }
  const before = c.req.query("before") ?? null;
  if (before !== null && !isLogId(before)) problems.push("before is not a page of this log.");
  if (problems.length > 0) throw invalidRequest(problems);
  return { filters, requestId, before, sent };
}

/** A link to the log with these filters (and page cursor). */
export function logsLink(
  environment: Environment,
  filters: LogFilters & { requestId?: string },
  before?: string,
): string {
  const query = new URLSearchParams();
  if (filters.statusClass !== undefined) query.set("status", `${filters.statusClass}xx`);
  if (filters.route !== undefined) query.set("route", filters.route);
  if (filters.method !== undefined) query.set("method", filters.method);
  if (filters.keyId !== undefined) query.set("key", filters.keyId);
  if (filters.version !== undefined) query.set("version", filters.version ?? "none");
  if (filters.from) query.set("from", filters.from.toISOString());
  if (filters.to) query.set("to", filters.to.toISOString());
  if (filters.requestId !== undefined) query.set("request_id", filters.requestId);
  if (before !== undefined) query.set("before", before);
  const text = query.toString();
  return `/dashboard/${environment}/logs${text ? `?${text}` : ""}`;
}
