// The audit log: one row per change, written in the same atomic batch as the change itself, and
// read newest first by keyset on its sequence.
import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import {
  type Actor,
  type AuditAction,
  type AuditChange,
  type AuditEntry,
  auditEntryId,
} from "../domain/audit";
import type { Database } from "./client";
import { auditEvents } from "./schema";

/**
 * The insert of one audit row, to put in the batch that makes the change (`atomically`). With `guard`, the row
 * is written only when the guard holds: the same SQL condition that gates the change itself, so
 * that the log records exactly the changes that happened (both see the batch's one snapshot).
 */
export function auditInsert(
  partnerId: string,
  actor: Actor,
  change: AuditChange,
  now: Date,
  options: { guard?: SQL; details?: SQL } = {},
) {
  // Details computed in SQL see the same snapshot as the guard (e.g. the keys a revoke reaches).
  const details = options.details ?? sql`${JSON.stringify(change.details ?? {})}`;
  return sql`INSERT INTO ${auditEvents} (
      partner_id, occurred_at, actor_type, actor_id, actor_label, action, environment, target,
      details, ip)
    SELECT ${partnerId}, ${now.toISOString()}, ${actor.type}, ${actor.id}, ${actor.label},
      ${change.action}, ${change.environment ?? null}, ${change.target ?? null}, ${details},
      ${actor.ip}
    WHERE ${options.guard ?? sql`1`}`;
}

function toEntry(row: typeof auditEvents.$inferSelect): AuditEntry {
  return {
    id: auditEntryId(row.id),
    occurredAt: row.occurredAt,
    actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
    // Rows are written only by `auditInsert`, from an AuditChange: its action, and its details
    // as a JSON object (stringified, or built by `json_object` in `options.details`).
    action: row.action as AuditAction,
    environment: row.environment,
    target: row.target,
    details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : {},
    ip: row.ip,
  };
}

/**
 * Up to `limit` entries of the partner, newest first, older than the entry with sequence `before`
 * when given; `hasMore` when older ones remain. One indexed range read of `limit + 1` rows.
 */
export async function readAuditPage(
  db: Database,
  partnerId: string,
  before: number | null,
  limit: number,
): Promise<{ entries: AuditEntry[]; hasMore: boolean }> {
  const ofPartner = eq(auditEvents.partnerId, partnerId);
  const rows = await db
    .select()
    .from(auditEvents)
    .where(before === null ? ofPartner : and(ofPartner, lt(auditEvents.id, before)))
    .orderBy(desc(auditEvents.id))
    .limit(limit + 1);
  return { entries: rows.slice(0, limit).map(toEntry), hasMore: rows.length > limit };
}
