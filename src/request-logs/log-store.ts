// The request log in D1: the consumer's batched writes with their daily counts, the dashboard's
// reads (a page per filter, one request by id, 30 days of counts) and the retention purge. Each
// read is one indexed range: the log by `log_id` within a partner's environment, behind the
// filter's own index; the counts by their primary key.
import { and, desc, eq, gte, ne, sql, sum } from "drizzle-orm";
import type { Database } from "../db/client";
import { jsonChunks } from "../db/json-rows";
import { FROZEN_PARTNERS } from "../db/move-fences";
import type { Environment } from "../domain/environment";
import { logIdFloor, type RequestLogRecord, type VersionSource } from "../domain/request-log";
import { requestLogDays } from "./schema";

/** Whose log: a partner's environment. */
export interface LogScope {
  partnerId: string;
  environment: Environment;
}

/** The stored columns, each a field of the record of the same name but `status_class`. */
const COLUMNS = [
  "log_id",
  "partner_id",
  "environment",
  "at",
  "request_id",
  "key_id",
  "key_name",
  "method",
  "path",
  "route",
  "status",
  "error_type",
  "error_message",
  "version",
  "version_source",
  "latency_ms",
  "d1_round_trips",
  "d1_rows_read",
  "idempotency_key",
  "idempotent_replayed",
  "client_ip",
  "user_agent",
  "request_body",
  "response_body",
] as const satisfies readonly (keyof RequestLogRecord)[];

/** A chunk's records (JSON objects in `?1`) as rows: each field read back by its name. */
const FROM_RECORDS =
  `SELECT ${COLUMNS.map((c) => `value ->> '$.${c}' AS ${c}`).join(", ")}, ` +
  "(value ->> '$.status') / 100 AS status_class FROM json_each(?1)";

/** The rows of a chunk; a record written before (a message delivered twice) is ignored. */
const INSERT_LOGS =
  `INSERT OR IGNORE INTO request_logs (${COLUMNS.join(", ")}, status_class) ` +
  `SELECT * FROM (${FROM_RECORDS}) WHERE true`;

const DAY_KEY =
  "partner_id, environment, day, key_id, version, version_source, route, status_class, error_type";
/**
 * The chunk's requests added to their days' counts: only those not stored yet, so that a record
 * delivered twice counts once (this runs before the chunk's insert, in the same batch).
 */
const ADD_TO_DAYS =
  `INSERT INTO request_log_days (${DAY_KEY}, requests) SELECT partner_id, environment, ` +
  "substr(at, 1, 10), key_id, coalesce(version, ''), coalesce(version_source, ''), route, " +
  `status_class, coalesce(error_type, ''), count(*) FROM (${FROM_RECORDS}) AS r ` +
  "WHERE NOT EXISTS (SELECT 1 FROM request_logs WHERE request_logs.log_id = r.log_id) " +
  `GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 ON CONFLICT (${DAY_KEY}) DO UPDATE SET ` +
  "requests = request_log_days.requests + excluded.requests";

/**
 * Stores records and adds them to their days' counts, in one atomic batch (one round trip),
 * whatever their number: records travel as JSON. Writing the same records again changes nothing.
 */
export async function writeRequestLogs(
  binding: D1Database,
  records: readonly RequestLogRecord[],
): Promise<void> {
  const byId = new Map(records.map((r) => [r.log_id, r]));
  const statements = jsonChunks(byId.values(), (r) => r).flatMap((chunk) => [
    binding.prepare(ADD_TO_DAYS).bind(chunk),
    binding.prepare(INSERT_LOGS).bind(chunk),
  ]);
  if (statements.length > 0) await binding.batch(statements);
}

/** The filters of the dashboard's log, each served by its own index. */
export interface LogFilters {
  statusClass?: number;
  route?: string;
  method?: string;
  keyId?: string;
  /** A version, or null for requests refused before one was chosen. */
  version?: string | null;
  /** Requests at or after this instant. */
  from?: Date;
  /** Requests before this instant. */
  to?: Date;
}

/** A query with its bound values, as the counting client and EXPLAIN take it. */
export interface BoundQuery {
  sql: string;
  params: unknown[];
}

/** The columns a page lists: all but the bodies (a page of the log lists 50). */
const LISTED = COLUMNS.filter((c) => c !== "request_body" && c !== "response_body").join(", ");

/**
 * A page of the log, newest first: up to `limit + 1` requests matching `filters`, older than the
 * request `before` when given. One range of the filter's index (`request_logs_*_idx`, which ends
 * in `log_id`), so the page costs `limit + 1` rows whatever its depth and filter.
 */
export function logPageQuery(
  scope: LogScope,
  filters: LogFilters,
  before: string | null,
  limit: number,
): BoundQuery {
  const where = ["partner_id = ?", "environment = ?"];
  const params: unknown[] = [scope.partnerId, scope.environment];
  const add = (condition: string, value: unknown) => {
    where.push(condition);
    params.push(value);
  };
  if (filters.statusClass !== undefined) add("status_class = ?", filters.statusClass);
  if (filters.route !== undefined) add("route = ?", filters.route);
  if (filters.method !== undefined) add("method = ?", filters.method);
  if (filters.keyId !== undefined) add("key_id = ?", filters.keyId);
  if (filters.version === null) where.push("version IS NULL");
  else if (filters.version !== undefined) add("version = ?", filters.version);
  if (filters.from) add("log_id >= ?", logIdFloor(filters.from));
  if (filters.to) add("log_id < ?", logIdFloor(filters.to));
  if (before !== null) add("log_id < ?", before);
  params.push(limit + 1);
  const sql = `SELECT ${LISTED} FROM request_logs WHERE ${where.join(" AND ")} ORDER BY log_id DESC LIMIT ?`;
  return { sql, params };
}

type Row = Omit<RequestLogRecord, "idempotent_replayed" | "request_body" | "response_body"> & {
  idempotent_replayed: number;
  request_body?: string | null;
  response_body?: string | null;
};

async function readRecords(db: Database, query: BoundQuery): Promise<RequestLogRecord[]> {
  const { results } = await db.$client
    .prepare(query.sql)
    .bind(...query.params)
    .all<Row>();
  return results.map((row) => ({
    ...row,
    idempotent_replayed: row.idempotent_replayed === 1,
    request_body: row.request_body ?? null,
    response_body: row.response_body ?? null,
  }));
}

/** A page of the log (see `logPageQuery`): its records, and whether older ones match too. */
export async function readLogPage(
  db: Database,
  scope: LogScope,
  filters: LogFilters,
  before: string | null,
  limit: number,
): Promise<{ records: RequestLogRecord[]; hasMore: boolean }> {
  const rows = await readRecords(db, logPageQuery(scope, filters, before, limit));
  return { records: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** The most requests one request id shows (a client may send its own id again). */
const MAX_SAME_ID = 20;

/** The requests that answered with this `x-request-id`, in full, newest first. */
export function requestsByIdQuery(scope: LogScope, requestId: string): BoundQuery {
  return {
    sql:
      `SELECT ${COLUMNS.join(", ")} FROM request_logs WHERE partner_id = ? AND environment = ? ` +
      "AND request_id = ? ORDER BY log_id DESC LIMIT ?",
    params: [scope.partnerId, scope.environment, requestId, MAX_SAME_ID],
  };
}

export function readRequestsById(
  db: Database,
  scope: LogScope,
  requestId: string,
): Promise<RequestLogRecord[]> {
  return readRecords(db, requestsByIdQuery(scope, requestId));
}

/** The request with this log id, in full; null when the scope has none. */
export async function readRequestByLogId(
  db: Database,
  scope: LogScope,
  logId: string,
): Promise<RequestLogRecord | null> {
  const [record] = await readRecords(db, {
    sql:
      `SELECT ${COLUMNS.join(", ")} FROM request_logs WHERE log_id = ? AND partner_id = ? ` +
      "AND environment = ?",
    params: [logId, scope.partnerId, scope.environment],
  });
  return record ?? null;
}

/** Requests of one day by status class. */
export interface DayCount {
  day: string;
  statusClass: number;
  requests: number;
}

/** Errors of one type on one route. */
export interface ErrorGroup {
  errorType: string;
  route: string;
  statusClass: number;
  requests: number;
  lastDay: string;
}

/** Requests one key sent in one version, chosen one way. */
export interface VersionInUse {
  keyId: string;
  version: string;
  versionSource: VersionSource;
  requests: number;
  lastDay: string;
}

export interface Usage {
  days: DayCount[];
  errors: ErrorGroup[];
  versions: VersionInUse[];
}

const daysOf = (scope: LogScope, since: string) =>
  and(
    eq(requestLogDays.partnerId, scope.partnerId),
    eq(requestLogDays.environment, scope.environment),
    gte(requestLogDays.day, since),
  );
const total = sql<number>`cast(${sum(requestLogDays.requests)} as integer)`;
const lastDay = sql<string>`max(${requestLogDays.day})`;

/** The Overview's three aggregations over the days since `since` (`YYYY-MM-DD`). */
export function usageQueries(db: Database, scope: LogScope, since: string) {
  const where = daysOf(scope, since);
  return [
    db
      .select({ day: requestLogDays.day, statusClass: requestLogDays.statusClass, requests: total })
      .from(requestLogDays)
      .where(where)
      .groupBy(requestLogDays.day, requestLogDays.statusClass),
    db
      .select({
        errorType: requestLogDays.errorType,
        route: requestLogDays.route,
        statusClass: sql<number>`max(${requestLogDays.statusClass})`,
        requests: total,
        lastDay,
      })
      .from(requestLogDays)
      .where(and(where, ne(requestLogDays.errorType, "")))
      .groupBy(requestLogDays.errorType, requestLogDays.route)
      .orderBy(desc(total))
      .limit(50),
    db
      .select({
        keyId: requestLogDays.keyId,
        version: requestLogDays.version,
        versionSource: requestLogDays.versionSource,
        requests: total,
        lastDay,
      })
      .from(requestLogDays)
      .where(and(where, ne(requestLogDays.version, "")))
      .groupBy(requestLogDays.keyId, requestLogDays.version, requestLogDays.versionSource),
  ] as const;
}

/**
 * How a day row's version was chosen: the recorder writes `header` or `saved` with every version
 * (only rows with a version are read for it); whatever is not the header reads as saved.
 */
function versionSourceOf(stored: string): VersionSource {
  return stored === "header" ? "header" : "saved";
}

/** 30 days of counts in one round trip: per day and status class, errors, versions per key. */
export async function readUsage(db: Database, scope: LogScope, since: string): Promise<Usage> {
  const [days, errors, versions] = await db.batch(usageQueries(db, scope, since));
  return {
    days,
    errors,
    versions: versions.map((v) => ({ ...v, versionSource: versionSourceOf(v.versionSource) })),
  };
}

/**
 * `?1` a log id floor, `?2` how many: the oldest requests, by the primary key; a partner frozen
 * by a move keeps its own until the move is over (its rows take no delete meanwhile).
 */
export const PURGE_LOGS =
  "DELETE FROM request_logs WHERE log_id IN " +
  "(SELECT log_id FROM request_logs WHERE log_id < ?1 " +
  `AND partner_id NOT IN ${FROZEN_PARTNERS} ORDER BY log_id LIMIT ?2)`;
/** `?1` a day, `?2` how many: daily counts of earlier days, by `request_log_days_day_idx`. */
export const PURGE_DAYS =
  "DELETE FROM request_log_days WHERE rowid IN " +
  `(SELECT rowid FROM request_log_days WHERE day < ?1 AND partner_id NOT IN ${FROZEN_PARTNERS} ` +
  "LIMIT ?2)";

/** Deletes up to `limit` requests older than `before`; answers how many (`log_id` is the order). */
export async function purgeExpiredRequestLogs(
  binding: D1Database,
  before: Date,
  limit: number,
): Promise<number> {
  const result = await binding.prepare(PURGE_LOGS).bind(logIdFloor(before), limit).run();
  return result.meta.changes ?? 0;
}

/** Deletes up to `limit` daily counts of days before `beforeDay` (`YYYY-MM-DD`). */
export async function purgeExpiredRequestLogDays(
  binding: D1Database,
  beforeDay: string,
  limit: number,
): Promise<number> {
  const result = await binding.prepare(PURGE_DAYS).bind(beforeDay, limit).run();
  return result.meta.changes ?? 0;
}
