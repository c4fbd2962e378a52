// The request log in D1: the consumer's batched writes with their daily counts, the dashboard's
// reads (a page per filter, one request by id, 30 days of counts) and the retention purge. Each
// read is one indexed range: the log by `log_id` within a partner's environment, behind the
// filter's own index; the counts by their primary key.
import { and, desc, eq, gte, isNull, lt, ne, type SQL, sql, sum } from "drizzle-orm";
import type { Bindings } from "../app/context";
import type { Database } from "../db/client";
import { jsonChunks } from "../db/json-rows";
import { requestLogDays, requestLogs } from "../db/schema";
import type { Environment } from "../domain/environment";
import {
  logIdFloor,
  type RequestLogRecord,
  statusClassOf,
  type VersionSource,
} from "../domain/request-log";

/** Whose log: a partner's environment. */
export interface LogScope {
  partnerId: string;
  environment: Environment;
}

/**
 * The database that holds a partner's request logs: the one place that says where they live, so
 * that the consumer, the purge and the dashboard agree.
 */
export function logDatabaseOf(env: Bindings, _scope: LogScope): D1Database {
  return env.DB;
}

/** Every database that may hold request logs, for the purge. */
export function logDatabases(env: Bindings): D1Database[] {
  return [env.DB];
}

/** The stored columns in order, each with its value in a record: the JSON rows' layout. */
const COLUMNS: [string, (r: RequestLogRecord) => unknown][] = [
  ["log_id", (r) => r.logId],
  ["partner_id", (r) => r.partnerId],
  ["environment", (r) => r.environment],
  ["at", (r) => r.at],
  ["request_id", (r) => r.requestId],
  ["key_id", (r) => r.keyId],
  ["key_name", (r) => r.keyName],
  ["method", (r) => r.method],
  ["path", (r) => r.path],
  ["route", (r) => r.route],
  ["status", (r) => r.status],
  ["status_class", (r) => statusClassOf(r.status)],
  ["error_type", (r) => r.errorType],
  ["error_message", (r) => r.errorMessage],
  ["version", (r) => r.version],
  ["version_source", (r) => r.versionSource],
  ["latency_ms", (r) => r.latencyMs],
  ["d1_round_trips", (r) => r.d1RoundTrips],
  ["d1_rows_read", (r) => r.d1RowsRead],
  ["idempotency_key", (r) => r.idempotencyKey],
  ["idempotent_replayed", (r) => (r.idempotentReplayed ? 1 : 0)],
  ["client_ip", (r) => r.clientIp],
  ["user_agent", (r) => r.userAgent],
  ["request_body", (r) => r.requestBody],
  ["response_body", (r) => r.responseBody],
];
const NAMES = COLUMNS.map(([name]) => name);
const VALUES = COLUMNS.map((_, i) => `value ->> ${i}`);
const COLUMN_OF = (name: string) => `value ->> ${NAMES.indexOf(name)}`;

/** The rows of a chunk; a record written before (a message delivered twice) is ignored. */
const INSERT_LOGS =
  `INSERT OR IGNORE INTO request_logs (${NAMES.join(", ")}) ` +
  `SELECT ${VALUES.join(", ")} FROM json_each(?1) WHERE true`;

const DAY_KEY = [
  "partner_id",
  "environment",
  "day",
  "key_id",
  "version",
  "version_source",
  "route",
  "status_class",
  "error_type",
];
/**
 * The chunk's requests added to their days' counts: only those not stored yet, so that a record
 * delivered twice counts once (this runs before the chunk's insert, in the same batch).
 */
const ADD_TO_DAYS =
  `INSERT INTO request_log_days (${DAY_KEY.join(", ")}, requests) ` +
  `SELECT partner_id, environment, day, key_id, version, version_source, route, status_class, ` +
  "error_type, count(*) FROM (SELECT " +
  [
    `${COLUMN_OF("log_id")} AS log_id`,
    `${COLUMN_OF("partner_id")} AS partner_id`,
    `${COLUMN_OF("environment")} AS environment`,
    `substr(${COLUMN_OF("at")}, 1, 10) AS day`,
    `${COLUMN_OF("key_id")} AS key_id`,
    `coalesce(${COLUMN_OF("version")}, '') AS version`,
    `coalesce(${COLUMN_OF("version_source")}, '') AS version_source`,
    `${COLUMN_OF("route")} AS route`,
    `${COLUMN_OF("status_class")} AS status_class`,
    `coalesce(${COLUMN_OF("error_type")}, '') AS error_type`,
  ].join(", ") +
  " FROM json_each(?1)) AS r WHERE NOT EXISTS " +
  "(SELECT 1 FROM request_logs WHERE request_logs.log_id = r.log_id) " +
  `GROUP BY ${DAY_KEY.join(", ")} ` +
  `ON CONFLICT (${DAY_KEY.join(", ")}) DO UPDATE SET ` +
  "requests = request_log_days.requests + excluded.requests";

/**
 * Stores records and adds them to their days' counts, in one atomic batch (one round trip),
 * whatever their number: rows travel as JSON. Writing the same records again changes nothing.
 */
export async function writeRequestLogs(
  binding: D1Database,
  records: readonly RequestLogRecord[],
): Promise<void> {
  const byId = new Map(records.map((r) => [r.logId, r]));
  const statements = jsonChunks(byId.values(), (r) => COLUMNS.map(([, value]) => value(r))).flatMap(
    (chunk) => [binding.prepare(ADD_TO_DAYS).bind(chunk), binding.prepare(INSERT_LOGS).bind(chunk)],
  );
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

const inScope = (scope: LogScope) =>
  and(eq(requestLogs.partnerId, scope.partnerId), eq(requestLogs.environment, scope.environment));

/** The columns of a record, without its bodies (a page of the log lists 50). */
const LISTED = {
  logId: requestLogs.logId,
  partnerId: requestLogs.partnerId,
  environment: requestLogs.environment,
  at: requestLogs.at,
  requestId: requestLogs.requestId,
  keyId: requestLogs.keyId,
  keyName: requestLogs.keyName,
  method: requestLogs.method,
  path: requestLogs.path,
  route: requestLogs.route,
  status: requestLogs.status,
  errorType: requestLogs.errorType,
  errorMessage: requestLogs.errorMessage,
  version: requestLogs.version,
  versionSource: requestLogs.versionSource,
  latencyMs: requestLogs.latencyMs,
  d1RoundTrips: requestLogs.d1RoundTrips,
  d1RowsRead: requestLogs.d1RowsRead,
  idempotencyKey: requestLogs.idempotencyKey,
  idempotentReplayed: requestLogs.idempotentReplayed,
  clientIp: requestLogs.clientIp,
  userAgent: requestLogs.userAgent,
};

/**
 * A page of the log, newest first: up to `limit + 1` requests matching `filters`, older than the
 * request `before` when given. One range of the filter's index (`request_logs_*_idx`, which ends
 * in `log_id`), so the page costs `limit + 1` rows whatever its depth and filter.
 */
export function logPageQuery(
  db: Database,
  scope: LogScope,
  filters: LogFilters,
  before: string | null,
  limit: number,
) {
  const where: (SQL | undefined)[] = [inScope(scope)];
  if (filters.statusClass !== undefined)
    where.push(eq(requestLogs.statusClass, filters.statusClass));
  if (filters.route !== undefined) where.push(eq(requestLogs.route, filters.route));
  if (filters.method !== undefined) where.push(eq(requestLogs.method, filters.method));
  if (filters.keyId !== undefined) where.push(eq(requestLogs.keyId, filters.keyId));
  if (filters.version !== undefined) {
    where.push(
      filters.version === null
        ? isNull(requestLogs.version)
        : eq(requestLogs.version, filters.version),
    );
  }
  if (filters.from) where.push(gte(requestLogs.logId, logIdFloor(filters.from)));
  if (filters.to) where.push(lt(requestLogs.logId, logIdFloor(filters.to)));
  if (before !== null) where.push(lt(requestLogs.logId, before));
  return db
    .select(LISTED)
    .from(requestLogs)
    .where(and(...where))
    .orderBy(desc(requestLogs.logId))
    .limit(limit + 1);
}

/** A stored row as the domain's record. */
function toRecord(
  row: Omit<RequestLogRecord, "requestBody" | "responseBody"> &
    Partial<Pick<RequestLogRecord, "requestBody" | "responseBody">>,
): RequestLogRecord {
  return {
    ...row,
    versionSource: row.versionSource as VersionSource | null,
    requestBody: row.requestBody ?? null,
    responseBody: row.responseBody ?? null,
  };
}

/** A page of the log (see `logPageQuery`): its records, and whether older ones match too. */
export async function readLogPage(
  db: Database,
  scope: LogScope,
  filters: LogFilters,
  before: string | null,
  limit: number,
): Promise<{ records: RequestLogRecord[]; hasMore: boolean }> {
  const rows = await logPageQuery(db, scope, filters, before, limit);
  return { records: rows.slice(0, limit).map(toRecord), hasMore: rows.length > limit };
}

/** The most requests one request id shows (a client may send its own id again). */
const MAX_SAME_ID = 20;

/** The requests that answered with this `x-request-id`, in full, newest first. */
export function requestsByIdQuery(db: Database, scope: LogScope, requestId: string) {
  return db
    .select({
      ...LISTED,
      requestBody: requestLogs.requestBody,
      responseBody: requestLogs.responseBody,
    })
    .from(requestLogs)
    .where(and(inScope(scope), eq(requestLogs.requestId, requestId)))
    .orderBy(desc(requestLogs.logId))
    .limit(MAX_SAME_ID);
}

export async function readRequestsById(
  db: Database,
  scope: LogScope,
  requestId: string,
): Promise<RequestLogRecord[]> {
  return (await requestsByIdQuery(db, scope, requestId)).map(toRecord);
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

/** 30 days of counts in one round trip: per day and status class, errors, versions per key. */
export async function readUsage(db: Database, scope: LogScope, since: string): Promise<Usage> {
  const [days, errors, versions] = await db.batch(usageQueries(db, scope, since));
  return {
    days,
    errors,
    versions: versions.map((v) => ({ ...v, versionSource: v.versionSource as VersionSource })),
  };
}

/** `?1` a log id floor, `?2` how many: the oldest requests, by the primary key. */
export const PURGE_LOGS =
  "DELETE FROM request_logs WHERE log_id IN " +
  "(SELECT log_id FROM request_logs WHERE log_id < ?1 ORDER BY log_id LIMIT ?2)";
/** `?1` a day, `?2` how many: daily counts of earlier days, by `request_log_days_day_idx`. */
export const PURGE_DAYS =
  "DELETE FROM request_log_days WHERE rowid IN " +
  "(SELECT rowid FROM request_log_days WHERE day < ?1 LIMIT ?2)";

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
