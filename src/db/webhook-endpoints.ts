// Webhook endpoints of one read scope (partner, environment, product): create, read, roll,
// enable and delete. Deleting an endpoint deletes its deliveries and attempts with it.
import { and, asc, count, eq, gt, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { EndpointFields } from "../domain/webhook-endpoint";
import type { Database } from "./client";
import type { ReadScope } from "./queries";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "./schema";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** The public columns: everything but the secrets. */
const PUBLIC = {
  endpointId: webhookEndpoints.endpointId,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  apiVersion: webhookEndpoints.apiVersion,
  status: webhookEndpoints.status,
  disabledAt: webhookEndpoints.disabledAt,
  disabledReason: webhookEndpoints.disabledReason,
  previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
  createdAt: webhookEndpoints.createdAt,
};

function ofScope(scope: ReadScope): SQL {
  return and(
    eq(webhookEndpoints.partnerId, scope.partnerId),
    eq(webhookEndpoints.environment, scope.environment as "sandbox" | "production"),
    eq(webhookEndpoints.merchantKey, scope.merchantKey),
  ) as SQL;
}

function oneOfScope(scope: ReadScope, endpointId: string): SQL {
  return and(ofScope(scope), eq(webhookEndpoints.endpointId, endpointId)) as SQL;
}

/** The insert of a new endpoint, for the caller's batch. */
export function insertEndpoint(db: Database, row: EndpointRow): BatchItem<"sqlite"> {
  return db.insert(webhookEndpoints).values(row);
}

export async function countEndpoints(db: Database, scope: ReadScope): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookEndpoints).where(ofScope(scope));
  return row?.n ?? 0;
}

/** Up to `limit + 1` endpoints of the scope in id (creation) order, after `after`. */
export function readEndpointPage(
  db: Database,
  scope: ReadScope,
  after: string | null,
  limit: number,
): Promise<EndpointFields[]> {
  const where = after
    ? and(ofScope(scope), gt(webhookEndpoints.endpointId, after))
    : ofScope(scope);
  return db
    .select(PUBLIC)
    .from(webhookEndpoints)
    .where(where)
    .orderBy(asc(webhookEndpoints.endpointId))
    .limit(limit + 1);
}

export async function findEndpoint(
  db: Database,
  scope: ReadScope,
  endpointId: string,
): Promise<EndpointFields | null> {
  const [row] = await db.select(PUBLIC).from(webhookEndpoints).where(oneOfScope(scope, endpointId));
  return row ?? null;
}

/**
 * Replaces the secret; the one replaced keeps signing until `previousExpiresAt`. The update is
 * returned for the caller's batch; it answers the endpoint, or nothing outside the scope.
 */
export function rollSecretWrite(
  db: Database,
  scope: ReadScope,
  endpointId: string,
  secret: string,
  previousExpiresAt: string,
) {
  return db
    .update(webhookEndpoints)
    .set({
      previousSecret: webhookEndpoints.secret,
      previousSecretExpiresAt: previousExpiresAt,
      secret,
    })
    .where(oneOfScope(scope, endpointId))
    .returning(PUBLIC);
}

/** Enables an endpoint again, as if it had never failed; null outside the scope. */
export async function enableEndpoint(
  db: Database,
  scope: ReadScope,
  endpointId: string,
): Promise<EndpointFields | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ status: "enabled", disabledAt: null, disabledReason: null, failingSince: null })
    .where(oneOfScope(scope, endpointId))
    .returning(PUBLIC);
  return row ?? null;
}

/** Deletes the endpoint, its deliveries and its attempts in one batch; false outside the scope. */
export async function deleteEndpoint(
  db: Database,
  scope: ReadScope,
  endpointId: string,
): Promise<boolean> {
  if (!(await findEndpoint(db, scope, endpointId))) return false;
  await db.batch([
    db.delete(webhookAttempts).where(eq(webhookAttempts.endpointId, endpointId)),
    db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)),
    db.delete(webhookEndpoints).where(oneOfScope(scope, endpointId)),
  ]);
  return true;
}
