// Version usage counters (added to in bulk, never per request) and the operator's reads of them.
import { and, gte, inArray, isNull, lt, or, sql, sum } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Environment } from "../domain/environment";
import type { Database } from "./client";
import { partners, versionUsage } from "./schema";

/** Days of counts kept: enough for any "last N days" the operator asks, up to 90. */
export const USAGE_DAYS_KEPT = 90;

export interface VersionUsageCount {
  day: string;
  version: string;
  partnerId: string;
  environment: Environment;
  requests: number;
}

const dayBefore = (now: Date, days: number) =>
  new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);

/** Adds counts to their daily rows in one batch, and drops rows older than the days kept. */
export async function addVersionUsage(
  binding: D1Database,
  counts: readonly VersionUsageCount[],
  now: Date,
): Promise<void> {
  const db = drizzle(binding);
  const [first, ...rest] = counts.map((count) =>
    db
      .insert(versionUsage)
      .values(count)
      .onConflictDoUpdate({
        target: [
          versionUsage.day,
          versionUsage.version,
          versionUsage.partnerId,
          versionUsage.environment,
        ],
        set: { requests: sql`${versionUsage.requests} + excluded.requests` },
      }),
  );
  if (!first) return;
  const prune = db
    .delete(versionUsage)
    .where(lt(versionUsage.day, dayBefore(now, USAGE_DAYS_KEPT)));
  await db.batch([first, ...rest, prune]);
}

export interface VersionUsageRow {
  version: string;
  partnerId: string;
  environment: Environment;
  requests: number;
}

/** Requests per version, partner and environment from day `since` on (one range of the key). */
export async function readVersionUsage(db: Database, since: string): Promise<VersionUsageRow[]> {
  const rows = await db
    .select({
      version: versionUsage.version,
      partnerId: versionUsage.partnerId,
      environment: versionUsage.environment,
      requests: sum(versionUsage.requests).mapWith(Number),
    })
    .from(versionUsage)
    .where(gte(versionUsage.day, since))
    .groupBy(versionUsage.version, versionUsage.partnerId, versionUsage.environment);
  return rows.map((row) => ({ ...row, requests: row.requests ?? 0 }));
}

export interface SavedVersionRow {
  partnerId: string;
  sandbox: string;
  production: string;
}

/**
 * Partners of this shard whose saved version, in either environment, is one of `versions` (not a
 * partner's row a move left here to forward it).
 */
export async function partnersSavedOn(
  db: Database,
  versions: readonly string[],
): Promise<SavedVersionRow[]> {
  if (versions.length === 0) return [];
  return db
    .select({
      partnerId: partners.partnerId,
      sandbox: partners.savedVersionSandbox,
      production: partners.savedVersionProduction,
    })
    .from(partners)
    .where(
      and(
        isNull(partners.movedTo),
        or(
          inArray(partners.savedVersionSandbox, [...versions]),
          inArray(partners.savedVersionProduction, [...versions]),
        ),
      ),
    )
    .orderBy(partners.partnerId);
}
