// Webhook endpoints and what is owed to each: its deliveries and their attempts (shard tables: see
// src/db/schema.ts). The deliveries live with the endpoint rather than with the delivery work
// (src/webhook-deliveries/) because an endpoint reads its recent attempts and is deleted with them,
// and the delivery work reaches the endpoint's throttle and health columns from above.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { partners } from "../db/schema";
import { events } from "../events/schema";

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
    /** The signing secret, sealed (see secret-sealing.ts) under `secret_key_id`. */
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
    /** Failed attempts in a row since the last success (or since it was enabled). */
    failureStreak: integer("failure_streak").notNull().default(0),
    /**
     * The furthest health notice its Admins got in the current run of failures: 0 none, 1
     * failing, 2 to be disabled in a day, 3 disabled. Back to 0 after a success or an enable.
     */
    healthNotice: integer("health_notice").notNull().default(0),
    /**
     * The event types it takes, as its API version names them (a JSON array); null for every
     * type (`["*"]`), as every endpoint made before filters existed.
     */
    enabledEvents: text("enabled_events"),
    /**
     * The canonical event types those are (a JSON array), worked out through the version bundle
     * when `enabled_events` was set, and `event_types_revision` the canonical types known then:
     * the fan-out filters on them while that revision is current (see events/event-types.ts).
     */
    eventTypes: text("event_types"),
    eventTypesRevision: text("event_types_revision"),
    /**
     * The delivery throttle (see webhook-deliveries/throttle.ts): the Unix second of the latest
     * slot handed out and how many of its slots are taken (the schedule), and the second of the
     * latest attempt started and how many started in it (what is admitted).
     */
    throttleSecond: integer("throttle_second"),
    throttleUsed: integer("throttle_used").notNull().default(0),
    admittedSecond: integer("admitted_second"),
    admittedCount: integer("admitted_count").notNull().default(0),
    /**
     * The endpoint's hourly budget of what restarts deliveries by hand (see endpoint-budget.ts):
     * when its current hour began, and how many recoveries, re-sends and enables it holds.
     */
    budgetSince: text("budget_since"),
    budgetRecoveries: integer("budget_recoveries").notNull().default(0),
    budgetResends: integer("budget_resends").notNull().default(0),
    budgetEnables: integer("budget_enables").notNull().default(0),
    /**
     * The latest recovery: when it started (its deliveries carry the same instant in
     * `recovered_at`, and it runs while one of them is pending) and the window it queued.
     */
    recoveryStartedAt: text("recovery_started_at"),
    recoverySince: text("recovery_since"),
    recoveryUntil: text("recovery_until"),
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
    /**
     * Attempts made in all, never reset by a re-send or a recovery: the backoff grows with it and
     * it is capped (`MAX_DELIVERY_ATTEMPTS`).
     */
    attempts: integer("attempts").notNull().default(0),
    /** When its retry window began: its first queueing; a re-queue keeps it. */
    cycleStartedAt: text("cycle_started_at").notNull(),
    nextAttemptAt: text("next_attempt_at").notNull(),
    /** While an attempt runs: no other message may attempt before this instant. */
    leaseUntil: text("lease_until"),
    /**
     * The throttle slot reserved for the next attempt (see webhook-deliveries/throttle.ts): its
     * Unix second × 1000 + its place in that second, so that slots sort in the order they were
     * handed out; null when none is reserved.
     */
    throttleSlot: integer("throttle_slot"),
    completedAt: text("completed_at"),
    /** The start of the recovery that queued it last (its endpoint's `recovery_started_at`). */
    recoveredAt: text("recovered_at"),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.endpointId] }),
    // The sweeper finds deliveries whose message was lost, or whose retry window closed.
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.status),
    // An endpoint's reserved slots in order: an attempt waits for those handed out before it.
    index("webhook_deliveries_slot_idx").on(t.endpointId, t.throttleSlot),
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
