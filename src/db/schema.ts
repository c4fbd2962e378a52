// The schema of every shard (each partner's data lives in one shard: see src/db/shards.ts): the
// single source of truth; `npm run db:generate` writes migrations/ from it. What must be found
// without knowing the shard lives in the directory (src/db/directory-schema.ts).
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

/** A company running a co-brand card programme. Saved API versions are per environment. */
export const partners = sqliteTable("partners", {
  partnerId: text("partner_id").primaryKey(),
  name: text("name").notNull(),
  savedVersionSandbox: text("saved_version_sandbox").notNull(),
  savedVersionProduction: text("saved_version_production").notNull(),
  /**
   * JSON array of the partner's merchant keys, a copy of `products` kept by the import so that
   * authentication reads one partner row instead of every product row.
   */
  merchantKeys: text("merchant_keys").notNull().default("[]"),
  createdAt: text("created_at").notNull(),
  /**
   * Set while the partner is being moved away from this shard (the shard code it goes to): its
   * data here is frozen, so writes are refused until the move switches over. Null otherwise.
   */
  movingTo: text("moving_to"),
  /**
   * Set once a move has switched the partner over to another shard (its code): this row and the
   * partner's credentials (keys, users, sessions) stay here to forward what still names this
   * shard. Null on the partner's own shard.
   */
  movedTo: text("moved_to"),
});

/**
 * A card product of a partner, addressed by the merchant-key header, and how its statement
 * documents come to be: `rendered` by the service (the default) or `uploaded` by the operator
 * (products stored before the service rendered documents were set to `uploaded`: migration 0012).
 * Its presentation on those documents: a display name (else `name`), an accent colour (else the
 * service's) and a logo, stored in R2 under its content hash, with its alternative text.
 */
export const products = sqliteTable(
  "products",
  {
    merchantKey: text("merchant_key").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    name: text("name").notNull(),
    documents: text("documents", { enum: ["rendered", "uploaded"] })
      .notNull()
      .default("rendered"),
    displayName: text("display_name"),
    /** `#RRGGBB`. */
    accentColour: text("accent_colour"),
    /** R2 object key of the logo; the three logo columns are all set or all null. */
    logoKey: text("logo_key"),
    logoMediaType: text("logo_media_type", { enum: ["image/png", "image/jpeg"] }),
    logoAltText: text("logo_alt_text"),
  },
  (t) => [index("products_partner_idx").on(t.partnerId, t.merchantKey)],
);

/** API keys: only the SHA-256 of the key is stored; the plaintext is shown once, at creation. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    keyId: text("key_id").primaryKey(),
    keyHash: text("key_hash").notNull(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    /** JSON array of scope names. */
    scopes: text("scopes").notNull(),
    name: text("name"),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
    /** A key is live until this instant (null: no expiry); a roll sets it on the old key. */
    expiresAt: text("expires_at"),
    /** The key that minted this one with `POST /v2/keys`; revoking it revokes this one too. */
    parentKeyId: text("parent_key_id"),
    /** Who created the key; null for keys created before creators were recorded. */
    createdBy: text("created_by", { enum: ["operator", "user", "key"] }),
    /** The dashboard user who created (or rolled into) the key, when `created_by` is `user`. */
    createdByUserId: text("created_by_user_id"),
    /** Prefix and last four characters (`sk_live_…Ab3d`); null for keys older than the column. */
    maskedKey: text("masked_key"),
    /**
     * Whether the key carries the operator's grant of its scopes: created by the operator, or
     * rolled from a key that carried it. Dashboard keys take their scopes among those of the live
     * keys that carry it. Null for keys older than the column, whose `created_by` says instead.
     */
    operatorGrant: integer("operator_grant", { mode: "boolean" }),
    /**
     * UTC day (`YYYY-MM-DD`) the key last authenticated a request. Written at most once a day,
     * after the response, only when the key lookup saw an older day.
     */
    lastUsedOn: text("last_used_on"),
  },
  (t) => [
    uniqueIndex("api_keys_hash_idx").on(t.keyHash),
    index("api_keys_partner_idx").on(t.partnerId, t.environment, t.createdAt),
    index("api_keys_parent_idx").on(t.parentKeyId),
  ],
);

export const customers = sqliteTable(
  "customers",
  {
    customerId: text("customer_id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key")
      .notNull()
      .references(() => products.merchantKey),
    partnerCustomerId: text("partner_customer_id"),
    /** JSON array of authorized users, or null. */
    authorizedUsers: text("authorized_users"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("customers_scope_idx").on(t.partnerId, t.environment, t.merchantKey, t.customerId)],
);

export const accounts = sqliteTable(
  "accounts",
  {
    accountId: text("account_id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.customerId),
    // The owning customer's read scope, copied at import. A customer's partner, environment and
    // product never change (the import refuses it), so the copy cannot drift, and one account row
    // proves the whole ownership chain of a statements read.
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key").notNull(),
    status: text("status"),
    currency: text("currency"),
    creditLimit: integer("credit_limit"),
    currentBalance: integer("current_balance"),
    availableCredit: integer("available_credit"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("accounts_customer_idx").on(t.customerId, t.accountId)],
);

/**
 * Closed billing cycles. Dates are stored as normalised UTC RFC 3339 text (`toISOString()`), which
 * sorts lexicographically in time order. Figures are immutable (a trigger enforces it, see
 * migrations); only `pdf_key` and `hidden_at` change after import.
 */
export const statements = sqliteTable(
  "statements",
  {
    statementId: text("statement_id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.accountId),
    periodStartDate: text("period_start_date"),
    periodEndDate: text("period_end_date").notNull(),
    dueDate: text("due_date"),
    currency: text("currency"),
    statementBalance: integer("statement_balance"),
    minimumDue: integer("minimum_due"),
    previousBalance: integer("previous_balance"),
    purchases: integer("purchases"),
    payments: integer("payments"),
    credits: integer("credits"),
    refunds: integer("refunds"),
    interest: integer("interest"),
    fees: integer("fees"),
    overdueAmount: integer("overdue_amount"),
    /** R2 object key of the rendered PDF; null until the document is uploaded. */
    pdfKey: text("pdf_key"),
    hiddenAt: text("hidden_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    // The keyset page index: only visible rows, in listing order (scanned backwards for DESC).
    index("statements_page_idx")
      .on(t.accountId, t.periodEndDate, t.statementId)
      .where(sql`hidden_at IS NULL`),
  ],
);

/**
 * The rendering of a statement's document: written with the statement when its product renders
 * documents (the outbox the render queue works from), or when the operator asks for a render.
 * `generation` changes with each request, so that a message of an earlier one never stores a
 * document. `superseded`: an upload replaced the document, and no render may overwrite it.
 */
export const statementRenders = sqliteTable(
  "statement_renders",
  {
    statementId: text("statement_id")
      .primaryKey()
      .references(() => statements.statementId),
    // The statement's read scope, copied like `events`: the operator lists a partner's renders
    // from one index range.
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key").notNull(),
    status: text("status", { enum: ["pending", "rendered", "failed", "superseded"] }).notNull(),
    generation: integer("generation").notNull().default(0),
    /** Failed attempts of the current generation. */
    attempts: integer("attempts").notNull().default(0),
    /** When the current generation was asked for: its retry window counts from here. */
    requestedAt: text("requested_at").notNull(),
    /** When a pending render is due; the sweep re-sends a message long overdue. */
    nextAttemptAt: text("next_attempt_at").notNull(),
    completedAt: text("completed_at"),
    /** Why the last attempt failed (a failed render keeps it). */
    error: text("error"),
  },
  (t) => [
    index("statement_renders_due_idx").on(t.status, t.nextAttemptAt),
    index("statement_renders_partner_idx").on(t.partnerId, t.status, t.statementId),
  ],
);

/** Dashboard users: invitation-only members of one partner. Addresses are stored lowercased. */
export const users = sqliteTable(
  "users",
  {
    userId: text("user_id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    email: text("email").notNull(),
    role: text("role", { enum: ["Admin", "Developer"] }).notNull(),
    createdAt: text("created_at").notNull(),
    lastSignedInAt: text("last_signed_in_at"),
  },
  (t) => [
    uniqueIndex("users_partner_email_idx").on(t.partnerId, t.email),
    index("users_email_idx").on(t.email),
  ],
);

/** One-time sign-in links: only the SHA-256 of the token is stored; single use, short-lived. */
export const signInTokens = sqliteTable(
  "sign_in_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.userId),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [index("sign_in_tokens_user_idx").on(t.userId)],
);

/** Dashboard sessions: only the SHA-256 of the cookie's id is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    sessionHash: text("session_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.userId),
    createdAt: text("created_at").notNull(),
    /** Moves with use (at most once a minute); the idle timeout counts from here. */
    lastSeenAt: text("last_seen_at").notNull(),
    /** The absolute end of the session, whatever its use. */
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * Who changed what, for a partner: keys, saved versions, users and sign-ins, from the dashboard,
 * the operator API and `POST /v2/keys`. Append-only; `id` orders it (newest first by keyset).
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    occurredAt: text("occurred_at").notNull(),
    actorType: text("actor_type", { enum: ["user", "key", "operator"] }).notNull(),
    /** The user id or key id; null for the operator. */
    actorId: text("actor_id"),
    /** What to show for the actor, as it was then (a user's address, a key id, `operator`). */
    actorLabel: text("actor_label").notNull(),
    action: text("action").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }),
    /** The key id, user id or version the action was about. */
    target: text("target"),
    /** JSON object with the action's particulars. */
    details: text("details"),
    ip: text("ip"),
  },
  (t) => [index("audit_events_partner_idx").on(t.partnerId, t.id)],
);

/** Each change of a partner's saved version; the newest one may be rolled back for 72 hours. */
export const savedVersionChanges = sqliteTable(
  "saved_version_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    fromVersion: text("from_version").notNull(),
    toVersion: text("to_version").notNull(),
    /** `change`, or `rollback` (which cannot itself be rolled back). */
    kind: text("kind", { enum: ["change", "rollback"] }).notNull(),
    changedAt: text("changed_at").notNull(),
    /** Random, unique: lets the statements of the change's batch find the row it wrote. */
    ref: text("ref").notNull(),
  },
  (t) => [index("saved_version_changes_idx").on(t.partnerId, t.environment, t.id)],
);

/**
 * Statement events: one row per change a partner can learn of, written in the same atomic batch as
 * the change itself. Each carries the read scope of the statement's account (copied, like
 * `accounts`), so listing a product's events reads one index range. Kept 30 days.
 */
export const events = sqliteTable(
  "events",
  {
    eventId: text("event_id").primaryKey(),
    type: text("type", {
      enum: ["statement.created", "statement.pdf_available", "statement.hidden"],
    }).notNull(),
    statementId: text("statement_id")
      .notNull()
      .references(() => statements.statementId),
    accountId: text("account_id").notNull(),
    customerId: text("customer_id").notNull(),
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    // The keyset page index of `GET /v2/events`, newest first within one read scope.
    index("events_page_idx").on(t.partnerId, t.environment, t.merchantKey, t.createdAt, t.eventId),
    // Each transition happens once per statement: a concurrent import cannot announce it twice.
    uniqueIndex("events_statement_type_idx").on(t.statementId, t.type),
    // The retention purge deletes by age.
    index("events_created_idx").on(t.createdAt),
  ],
);

/**
 * Where a partner's events are pushed: one product of one environment, pinned to the API version
 * it was created under. The signing secret must stay usable, so it is stored as issued (never
 * logged, shown only when created or rolled); the previous one keeps signing until it expires.
 */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    endpointId: text("endpoint_id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.partnerId),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    merchantKey: text("merchant_key").notNull(),
    url: text("url").notNull(),
    description: text("description"),
    apiVersion: text("api_version").notNull(),
    /** Origin of the API the endpoint was registered through: where payload links point. */
    apiOrigin: text("api_origin").notNull(),
    /** The signing secret, sealed (see domain/secret-sealing.ts) under `secret_key_id`. */
    secret: text("secret").notNull(),
    /**
     * The id of the SIGNING_SECRET whose derived key sealed `secret`; null for a secret stored
     * before sealing (as issued), until the maintenance cron seals it.
     */
    secretKeyId: text("secret_key_id"),
    previousSecret: text("previous_secret"),
    /** As `secret_key_id`, for `previous_secret`. */
    previousSecretKeyId: text("previous_secret_key_id"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    status: text("status", { enum: ["enabled", "disabled"] }).notNull(),
    disabledAt: text("disabled_at"),
    disabledReason: text("disabled_reason"),
    /** Start of the current run of failed attempts; null after a success. */
    failingSince: text("failing_since"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("webhook_endpoints_scope_idx").on(
      t.partnerId,
      t.environment,
      t.merchantKey,
      t.endpointId,
    ),
  ],
);

/**
 * The delivery of one event to one endpoint: the outbox row the queue works from. `generation`
 * changes when the event is re-sent, so that a message of an earlier cycle never attempts again.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    eventId: text("event_id")
      .notNull()
      .references(() => events.eventId),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.endpointId),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    generation: integer("generation").notNull().default(0),
    /** Attempts made in the current cycle. */
    attempts: integer("attempts").notNull().default(0),
    cycleStartedAt: text("cycle_started_at").notNull(),
    nextAttemptAt: text("next_attempt_at").notNull(),
    /** While an attempt runs: no other message may attempt before this instant. */
    leaseUntil: text("lease_until"),
    completedAt: text("completed_at"),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.endpointId] }),
    // The sweeper finds deliveries whose message was lost, or whose retry window closed.
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.status),
  ],
);

/** Every attempt to deliver an event: outcome, duration and the receiver's status code. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    attemptId: text("attempt_id").primaryKey(),
    eventId: text("event_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    attemptedAt: text("attempted_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    status: text("status", { enum: ["succeeded", "failed", "timed_out"] }).notNull(),
    responseStatus: integer("response_status"),
    error: text("error"),
  },
  (t) => [
    index("webhook_attempts_event_idx").on(t.eventId, t.attemptedAt, t.attemptId),
    // An endpoint's delivery history, newest first (attempt ids sort by their start), and
    // deleting an endpoint's attempts with it.
    index("webhook_attempts_endpoint_idx").on(t.endpointId, t.attemptId),
  ],
);

/**
 * Idempotency keys of partner POSTs, for 24 hours. Looked up by a hash of (partner, environment,
 * key); the stored response is encrypted under a key derived from the Idempotency-Key itself, so
 * a replayed secret (a new API key, a webhook secret) is unreadable without the client's key.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    keyHash: text("key_hash").primaryKey(),
    /** The partner whose request holds the key (what a move copies); null for older keys. */
    partnerId: text("partner_id"),
    /** Hash of what makes two requests the same: method, path, version, product and body. */
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["running", "completed"] }).notNull(),
    /** A running request's reservation; once past, a retry may take the key over. */
    lockedUntil: text("locked_until"),
    lockToken: text("lock_token"),
    responseStatus: integer("response_status"),
    response: text("response"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("idempotency_keys_expiry_idx").on(t.expiresAt)],
);

/**
 * Requests served per day, API version, partner and environment: added to by each isolate at most
 * once a minute (src/app/version-usage.ts), read by the operator API. The key starts with the
 * day, so "the last 30 days" is one range of the primary key.
 */
export const versionUsage = sqliteTable(
  "version_usage",
  {
    day: text("day").notNull(),
    version: text("version").notNull(),
    partnerId: text("partner_id").notNull(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    requests: integer("requests").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.version, t.partnerId, t.environment] })],
);

/**
 * Partners being moved away from this shard (src/db/partner-moves.ts): while a partner has a row
 * here, triggers created for the move refuse every write to its rows (`partner_moving`), so that
 * nothing lands in the copy being made. Empty, and without those triggers, when no move runs.
 */
export const moveFences = sqliteTable("move_fences", {
  partnerId: text("partner_id").primaryKey(),
  /** `frozen`: every write refused; `retiring`: only the move's own deletes pass. */
  phase: text("phase", { enum: ["frozen", "retiring"] }).notNull(),
  createdAt: text("created_at").notNull(),
});

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
    idempotencyKey: text("idempotency_key"),
    idempotentReplayed: integer("idempotent_replayed", { mode: "boolean" }).notNull(),
    clientIp: text("client_ip"),
    userAgent: text("user_agent"),
    /** A write's body, secrets redacted (src/domain/redaction.ts); null for reads. */
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
