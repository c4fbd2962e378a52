// A partner's saved API version per environment, and the history of its changes. A change is one
// atomic batch gated on the version it was decided against, so two Admins changing it at once
// cannot both win, and a rollback applies only to the change it was offered for.
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";
import type { Database } from "../db/client";
import { auditEvents, partners } from "../db/schema";
import type { Actor } from "../domain/audit";
import type { Environment } from "../domain/environment";
import type { SavedVersionChange } from "./saved-version";
import { savedVersionChanges } from "./schema";

const column = (environment: Environment) =>
  environment === "sandbox" ? partners.savedVersionSandbox : partners.savedVersionProduction;

export interface SavedVersionState {
  saved: string;
  /** Newest first. */
  history: SavedVersionChange[];
}

/** The saved version and its recent changes (newest first); null for an unknown partner. */
export async function readSavedVersion(
  db: Database,
  partnerId: string,
  environment: Environment,
  historyLength = 10,
): Promise<SavedVersionState | null> {
  const [[partner], history] = await db.batch([
    db
      .select({ saved: column(environment) })
      .from(partners)
      .where(eq(partners.partnerId, partnerId)),
    db
      .select()
      .from(savedVersionChanges)
      .where(
        and(
          eq(savedVersionChanges.partnerId, partnerId),
          eq(savedVersionChanges.environment, environment),
        ),
      )
      .orderBy(desc(savedVersionChanges.id))
      .limit(historyLength),
  ]);
  if (!partner) return null;
  return {
    saved: partner.saved,
    history: history.map((h) => ({
      id: h.id,
      fromVersion: h.fromVersion,
      toVersion: h.toVersion,
      kind: h.kind,
      changedAt: h.changedAt,
    })),
  };
}

/**
 * Moves the saved version from `from` to `to`, recording the change and its audit row. False when
 * the saved version is no longer `from`, or (for a rollback) when `rollbackOf` is no longer the
 * newest change.
 */
export async function changeSavedVersion(
  db: Database,
  input: {
    partnerId: string;
    environment: Environment;
    from: string;
    to: string;
    rollbackOf: number | null;
    actor: Actor;
    now: Date;
  },
): Promise<boolean> {
  const { partnerId, environment } = input;
  let guard = sql`EXISTS (SELECT 1 FROM ${partners}
    WHERE partner_id = ${partnerId} AND ${column(environment)} = ${input.from})`;
  if (input.rollbackOf !== null) {
    guard = sql`${guard} AND ${input.rollbackOf} = (SELECT max(id) FROM ${savedVersionChanges}
      WHERE partner_id = ${partnerId} AND environment = ${environment})`;
  }
  const kind = input.rollbackOf === null ? "change" : "rollback";
  const ref = crypto.randomUUID();
  const recorded = sql`EXISTS (SELECT 1 FROM ${savedVersionChanges}
    WHERE partner_id = ${partnerId} AND environment = ${environment} AND ref = ${ref})`;
  const [history] = await atomically(db, [
    sql`INSERT INTO ${savedVersionChanges} (partner_id, environment, from_version, to_version,
        kind, changed_at, ref)
      SELECT ${partnerId}, ${environment}, ${input.from}, ${input.to}, ${kind},
        ${input.now.toISOString()}, ${ref}
      WHERE ${guard}`,
    auditInsert(
      partnerId,
      input.actor,
      {
        action: kind === "change" ? "saved_version.changed" : "saved_version.rolled_back",
        environment,
        target: input.to,
        details: { from: input.from, to: input.to },
      },
      input.now,
      { guard: recorded },
    ),
    db
      .update(partners)
      .set(
        environment === "sandbox"
          ? { savedVersionSandbox: input.to }
          : { savedVersionProduction: input.to },
      )
      .where(and(eq(partners.partnerId, partnerId), recorded)),
  ]);
  return history?.meta.changes === 1;
}

/**
 * The writes that record an import's changes of saved versions, for the import's own batch, placed
 * before its partners are written: for each `[partner_id, version]` of `rows` (a JSON array, see
 * db/json-rows.ts) that names a stored partner whose saved version for `environment` is another,
 * a history row and an audit row (a new partner's first version is no change). Two set-based
 * statements, however many partners the import names.
 */
export function importedVersionRecords(input: {
  rows: string;
  environment: Environment;
  actor: Actor;
  now: Date;
}): SQL[] {
  const { environment, actor } = input;
  const current = column(environment);
  const now = input.now.toISOString();
  const to = sql.raw("j.value ->> 1");
  const changing = sql`FROM json_each(${input.rows}) AS j
    JOIN ${partners} ON ${partners.partnerId} = j.value ->> 0 WHERE ${current} <> ${to}`;
  return [
    sql`INSERT INTO ${savedVersionChanges} (partner_id, environment, from_version, to_version,
        kind, changed_at, ref)
      SELECT ${partners.partnerId}, ${environment}, ${current}, ${to}, 'change', ${now},
        lower(hex(randomblob(16))) ${changing}`,
    sql`INSERT INTO ${auditEvents} (partner_id, occurred_at, actor_type, actor_id, actor_label,
        action, environment, target, details, ip)
      SELECT ${partners.partnerId}, ${now}, ${actor.type}, ${actor.id}, ${actor.label},
        'saved_version.changed', ${environment}, ${to},
        json_object('from', ${current}, 'to', ${to}, 'by', 'import'), ${actor.ip} ${changing}`,
  ];
}
