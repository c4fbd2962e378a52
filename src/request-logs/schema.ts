// The request log's tables: one row per request, and the daily counts the Overview reads (shard
// tables: see src/db/schema.ts).
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Every partner API request, as the partner's dashboard shows it (src/request-logs/): written
 * after the response, through a queue, by the consumer in batches; kept 30 days (the maintenance
 * cron purges by `log_id`, which starts with the request's time). `log_id` orders the log newest
 * first; each filter of the dashboard's log has its own index ending in it, so a filtered page is
 * one indexed range whatever the filter.
 */
export const requestLogs = sqliteTable(
  "request_logs",
  {
    /** 9 base62 characters of the request's epoch milliseconds, then 16 random ones. */
    logId: text("log_id").primaryKey(),
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    /** When the request arrived (RFC 3339, milliseconds). */
    at: text("at").notNull(),
    /** The response's `x-request-id` (the client's own, when it sent a well-formed one). */
    requestId: text("request_id").notNull(),
    keyId: text("key_id").notNull(),
    keyName: text("key_name"),
    method: text("method").notNull(),
    /** The path and query as sent. */
    path: text("path").notNull(),
    /** The route pattern that answered (`/v2/customers/:customer_id`), or `(unmatched)`. */
    route: text("route").notNull(),
    status: integer("status").notNull(),
    /** `status` / 100, rounded down: the log's status filter (2 for 2xx). */
    statusClass: integer("status_class").notNull(),
    errorType: text("error_type"),
    errorMessage: text("error_message"),
    /** The version chosen; null when the request was refused before one was. */
    version: text("version"),
    /** `header` or `saved`: how the version was chosen. */
    versionSource: text("version_source", { enum: ["header", "saved"] }),
    latencyMs: integer("latency_ms").notNull(),
    d1RoundTrips: integer("d1_round_trips").notNull(),
    d1RowsRead: integer("d1_rows_read").notNull(),
    /** The first 16 hex digits of the Idempotency-Key's SHA-256 (never the key itself). */
    idempotencyKey: text("idempotency_key"),
    idempotentReplayed: integer("idempotent_replayed", { mode: "boolean" }).notNull(),
    clientIp: text("client_ip"),
    userAgent: text("user_agent"),
    /** A write's body, secrets redacted (src/request-logs/redaction.ts); null for reads. */
    requestBody: text("request_body"),
    /** An error's body as sent, secrets redacted; success bodies are not kept. */
    responseBody: text("response_body"),
  },
  (t) => [
    index("request_logs_scope_idx").on(t.partnerId, t.environment, t.logId),
    index("request_logs_status_idx").on(t.partnerId, t.environment, t.statusClass, t.logId),
    index("request_logs_route_idx").on(t.partnerId, t.environment, t.route, t.logId),
    index("request_logs_method_idx").on(t.partnerId, t.environment, t.method, t.logId),
    index("request_logs_key_idx").on(t.partnerId, t.environment, t.keyId, t.logId),
    index("request_logs_version_idx").on(t.partnerId, t.environment, t.version, t.logId),
    index("request_logs_request_idx").on(t.partnerId, t.environment, t.requestId, t.logId),
  ],
);

/**
 * Requests per day of a partner's environment, by key, version (and how it was chosen), route,
 * status class and error type: the dashboard's Overview reads 30 days of it as one range of the
 * primary key, instead of 30 days of logs. Added to in the same batch as the logs it counts.
 * Values that do not apply are '' (not NULL), so that every row has one key.
 */
export const requestLogDays = sqliteTable(
  "request_log_days",
  {
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    day: text("day").notNull(),
    keyId: text("key_id").notNull(),
    version: text("version").notNull(),
    versionSource: text("version_source").notNull(),
    route: text("route").notNull(),
    statusClass: integer("status_class").notNull(),
    errorType: text("error_type").notNull(),
    requests: integer("requests").notNull(),
  },
  (t) => [
    primaryKey({
      columns: [
        t.partnerId,
        t.environment,
        t.day,
        t.keyId,
        t.version,
        t.versionSource,
        t.route,
        t.statusClass,
        t.errorType,
      ],
    }),
    // The retention purge deletes by day.
    index("request_log_days_day_idx").on(t.day),
  ],
);
