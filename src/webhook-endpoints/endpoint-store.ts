// Webhook endpoints of one read scope (partner, environment, product): create, update, roll,
// enable and delete, whether through the API or the dashboard (reads: endpoint-reads.ts). Each change is one atomic batch
// with its audit row, gated on the same condition. Deleting an endpoint deletes its deliveries
// and attempts with it.
import { and, asc, eq, gt, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { auditInsert } from "../db/audit";
import { allOf, atomically, insertWhere, type Query } from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import { fencedPartners } from "../db/move-fences";
import type { Actor, AuditAction } from "../domain/audit";
import type { Environment } from "../domain/environment";
import { type EndpointFields, enabledEventsOf, MAX_ENDPOINTS } from "../domain/webhook-endpoint";
import type { StoredFilter } from "../events";
import { BUDGET_COLUMNS, budgetRoom, budgetWait, takeBudget } from "./endpoint-budget";
import { findEndpoint, ofScope, oneOfScope } from "./endpoint-reads";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "./schema";
import type { SealedSecret } from "./secret-sealing";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** `EXISTS` the endpoint in the scope (and matching `also`): the guard of a change's audit row. */
function endpointExists(scope: ReadScope, endpointId: string, also?: SQL): SQL {
  const where = also ? and(oneOfScope(scope, endpointId), also) : oneOfScope(scope, endpointId);
  return sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${where})`;
}

/** Who acted on which endpoint, and when: what every change records in the audit log. */
export interface EndpointChange {
  scope: ReadScope & { environment: Environment };
  endpointId: string;
  actor: Actor;
  now: Date;
}

/** The audit row of a change to the endpoint; `guard` says whether the change happens. */
function auditOf(change: EndpointChange, action: AuditAction, guard: SQL, details: SQL): SQL {
  const { scope, endpointId, actor, now } = change;
  return auditInsert(
    scope.partnerId,
    actor,
    { action, environment: scope.environment, target: endpointId },
    now,
    { guard, details },
  );
}

/** SQL: the endpoint is stored, in the scope. */
export function endpointInScope(scope: ReadScope, endpointId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${oneOfScope(scope, endpointId)})`;
}

/**
 * The writes that store a new endpoint with its audit row, for the caller's batch (the insert
 * first: it changes no row when the product already has `MAX_ENDPOINTS`, and the audit row is
 * written only for a stored endpoint).
 */
export function endpointInsert(row: EndpointRow, actor: Actor, now: Date): Query[] {
  const scope = {
    partnerId: row.partnerId,
    environment: row.environment,
    merchantKey: row.merchantKey,
  };
  const room = sql`(SELECT count(*) FROM ${webhookEndpoints} WHERE ${ofScope(scope)}) < ${MAX_ENDPOINTS}`;
  return [
    insertWhere(webhookEndpoints, row, room),
    auditInsert(
      row.partnerId,
      actor,
      {
        action: "webhook_endpoint.created",
        environment: row.environment,
        target: row.endpointId,
        details: {
          url: row.url,
          merchant_key: row.merchantKey,
          api_version: row.apiVersion,
          description: row.description,
          enabled_events: enabledEventsOf(row.enabledEvents),
        },
      },
      now,
      { guard: endpointInScope(scope, row.endpointId) },
    ),
  ];
}

/**
 * Replaces the secret; the one replaced keeps signing until `previousExpiresAt`. One batch with
 * its audit row and `alongside` (a stored idempotent response); false when the endpoint is not in
 * the scope (nothing is rolled nor recorded then).
 */
export async function rollEndpointSecret(
  db: Database,
  change: EndpointChange & { secret: SealedSecret; previousExpiresAt: string },
  alongside: Query[] = [],
): Promise<boolean> {
  const { scope, endpointId, previousExpiresAt } = change;
  const [, rolled] = await atomically(db, [
    auditOf(
      change,
      "webhook_endpoint.secret_rolled",
      endpointExists(scope, endpointId),
      sql`json_object('previous_secret_expires_at', ${previousExpiresAt})`,
    ),
    db
      .update(webhookEndpoints)
      .set({
        previousSecret: webhookEndpoints.secret,
        previousSecretKeyId: webhookEndpoints.secretKeyId,
        previousSecretExpiresAt: previousExpiresAt,
        secret: change.secret.sealed,
        secretKeyId: change.secret.keyId,
      })
      .where(oneOfScope(scope, endpointId)),
    ...alongside,
  ]);
  return rolled?.meta.changes === 1;
}

/** What enabling an endpoint came to. */
export type EnableOutcome =
  | { kind: "enabled"; endpoint: EndpointFields }
  | { kind: "budget_spent"; wait: number }
  | { kind: "not_found" };

/**
 * Enables a disabled endpoint again, as if it had never failed, taking one enable of its hourly
 * budget; `budget_spent` (nothing written) once it has none left, `not_found` outside the scope.
 * Enabling an enabled endpoint changes nothing and records nothing: its run of failures goes on,
 * so calling enable does not keep a failing endpoint from being disabled.
 */
export async function enableEndpoint(db: Database, change: EndpointChange): Promise<EnableOutcome> {
  const { scope, endpointId, now } = change;
  const disabled = allOf(
    oneOfScope(scope, endpointId),
    eq(webhookEndpoints.status, "disabled"),
    budgetRoom("enable", now),
  );
  await atomically(db, [
    auditOf(
      change,
      "webhook_endpoint.enabled",
      sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${disabled})`,
      sql`(SELECT json_object('disabled_at', disabled_at, 'disabled_reason', disabled_reason)
        FROM ${webhookEndpoints} WHERE ${oneOfScope(scope, endpointId)})`,
    ),
    db
      .update(webhookEndpoints)
      .set({
        status: "enabled",
        disabledAt: null,
        disabledReason: null,
        failingSince: null,
        failureStreak: 0,
        healthNotice: 0,
        ...takeBudget("enable", now),
      })
      .where(disabled),
  ]);
  const endpoint = await findEndpoint(db, scope, endpointId, now);
  if (!endpoint) return { kind: "not_found" };
  if (endpoint.status === "enabled") return { kind: "enabled", endpoint };
  const [budget] = await db
    .select(BUDGET_COLUMNS)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.endpointId, endpointId));
  return {
    kind: "budget_spent",
    wait: budget ? Math.max(1, budgetWait(budget, "enable", now)) : 1,
  };
}

/** What an update sets: only the fields given change. */
export interface EndpointUpdate {
  url?: string;
  description?: string | null;
  filter?: StoredFilter;
}

/**
 * Changes the endpoint's URL, description or event filter, with its audit row (naming the fields
 * changed) and `alongside`, in one batch; false outside the scope.
 */
export async function updateEndpoint(
  db: Database,
  change: EndpointChange & { update: EndpointUpdate },
  alongside: Query[] = [],
): Promise<boolean> {
  const { scope, endpointId, update } = change;
  const details: Record<string, unknown> = {};
  if (update.url !== undefined) details.url = update.url;
  if (update.description !== undefined) details.description = update.description;
  if (update.filter !== undefined) {
    details.enabled_events = enabledEventsOf(update.filter.enabledEvents);
  }
  const set = {
    ...(update.url === undefined ? {} : { url: update.url }),
    ...(update.description === undefined ? {} : { description: update.description }),
    ...(update.filter ?? {}),
  };
  // Nothing to change: nothing is written but the stored response.
  if (Object.keys(set).length === 0) {
    if (alongside.length > 0) await atomically(db, alongside);
    return true;
  }
  const [, updated] = await atomically(db, [
    auditOf(
      change,
      "webhook_endpoint.updated",
      endpointExists(scope, endpointId),
      sql`json(${JSON.stringify(details)})`,
    ),
    db.update(webhookEndpoints).set(set).where(oneOfScope(scope, endpointId)),
    ...alongside,
  ]);
  return updated?.meta.changes === 1;
}

/**
 * Deletes the endpoint, its deliveries and its attempts, with its audit row, in one batch; false
 * outside the scope.
 */
export async function deleteEndpoint(db: Database, change: EndpointChange): Promise<boolean> {
  const { scope, endpointId } = change;
  // The id only when the endpoint is in the scope: its deliveries and attempts go with it.
  const theEndpoint = sql`SELECT endpoint_id FROM ${webhookEndpoints}
    WHERE ${oneOfScope(scope, endpointId)}`;
  const [, , , deleted] = await atomically(db, [
    auditOf(
      change,
      "webhook_endpoint.deleted",
      endpointExists(scope, endpointId),
      sql`(SELECT json_object('url', url, 'merchant_key', merchant_key)
        FROM ${webhookEndpoints} WHERE ${oneOfScope(scope, endpointId)})`,
    ),
    db.delete(webhookAttempts).where(sql`${webhookAttempts.endpointId} IN (${theEndpoint})`),
    db.delete(webhookDeliveries).where(sql`${webhookDeliveries.endpointId} IN (${theEndpoint})`),
    db.delete(webhookEndpoints).where(oneOfScope(scope, endpointId)),
  ]);
  return deleted?.meta.changes === 1;
}

/** An endpoint's secrets as stored: sealed, each with the key id that sealed it. */
export interface StoredSecrets {
  endpointId: string;
  secret: string;
  secretKeyId: string | null;
  previousSecret: string | null;
  previousSecretKeyId: string | null;
}

const STORED_SECRETS = {
  endpointId: webhookEndpoints.endpointId,
  secret: webhookEndpoints.secret,
  secretKeyId: webhookEndpoints.secretKeyId,
  previousSecret: webhookEndpoints.previousSecret,
  previousSecretKeyId: webhookEndpoints.previousSecretKeyId,
};

/**
 * Up to `limit` endpoints after `after` (in id order) whose secrets are not all sealed under
 * `keyId`: stored before sealing, or sealed under a previous SIGNING_SECRET. A partner fenced by
 * a move keeps its own until the move is over (its rows take no update meanwhile).
 */
export function endpointsToReseal(
  db: Database,
  keyId: string,
  after: string,
  limit: number,
): Promise<StoredSecrets[]> {
  const notUnder = (column: SQLiteColumn) => or(isNull(column), ne(column, keyId));
  return db
    .select(STORED_SECRETS)
    .from(webhookEndpoints)
    .where(
      and(
        gt(webhookEndpoints.endpointId, after),
        sql`${webhookEndpoints.partnerId} NOT IN ${fencedPartners}`,
        or(
          notUnder(webhookEndpoints.secretKeyId),
          and(
            sql`${webhookEndpoints.previousSecret} IS NOT NULL`,
            notUnder(webhookEndpoints.previousSecretKeyId),
          ),
        ),
      ),
    )
    .orderBy(asc(webhookEndpoints.endpointId))
    .limit(limit);
}

/**
 * Stores an endpoint's secrets sealed anew, unless they changed since `was` was read (a roll
 * meanwhile keeps its own): a write for the caller's batch.
 */
export function resealSecrets(
  db: Database,
  was: StoredSecrets,
  now: Omit<StoredSecrets, "endpointId">,
) {
  return db
    .update(webhookEndpoints)
    .set(now)
    .where(
      and(
        eq(webhookEndpoints.endpointId, was.endpointId),
        eq(webhookEndpoints.secret, was.secret),
        sql`${webhookEndpoints.previousSecret} IS ${was.previousSecret}`,
      ),
    );
}
