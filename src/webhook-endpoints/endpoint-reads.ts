// Reading webhook endpoints of one read scope, or of a partner's environment whatever their
// product, with their recent health: what the API's and the dashboard's reads show. The scope's
// conditions are shared with the writes (endpoint-store.ts).

import { and, asc, eq, gt, type SQL, sql } from "drizzle-orm";
import { allOf } from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import { toBase62 } from "../domain/encoding";
import type { Environment } from "../domain/environment";
import {
  type EndpointFields,
  HEALTH_SAMPLE,
  HEALTH_WINDOW_MS,
  type ProductEndpoint,
  type RecentAttempts,
} from "../domain/webhook-endpoint";
import { webhookAttempts, webhookEndpoints } from "./schema";

/**
 * The endpoint's latest attempts of the health window, as `{"attempts","succeeded"}`: at most
 * `HEALTH_SAMPLE` rows of `webhook_attempts_endpoint_idx` (attempt ids sort by their start). The
 * endpoint is named by its table, which a select of it renders unqualified.
 */
function recentAttempts(now: Date) {
  const oldest = `att_${toBase62(now.getTime() - HEALTH_WINDOW_MS, 9)}`;
  return sql<string>`(SELECT json_object('attempts', count(*),
      'succeeded', coalesce(sum(r.status = 'succeeded'), 0))
    FROM (SELECT a.status FROM ${webhookAttempts} a
      WHERE a.endpoint_id = webhook_endpoints.endpoint_id AND a.attempt_id >= ${oldest}
      ORDER BY a.attempt_id DESC LIMIT ${HEALTH_SAMPLE}) r)`.mapWith(readRecentAttempts);
}

/** The counts `recentAttempts` answers as JSON; anything else there is a defect, and throws. */
function readRecentAttempts(raw: string): RecentAttempts {
  if (!raw) return { attempts: 0, succeeded: 0 };
  const recent: unknown = JSON.parse(raw);
  if (
    typeof recent === "object" &&
    recent !== null &&
    "attempts" in recent &&
    typeof recent.attempts === "number" &&
    "succeeded" in recent &&
    typeof recent.succeeded === "number"
  ) {
    return { attempts: recent.attempts, succeeded: recent.succeeded };
  }
  throw new Error("an endpoint's recent attempts are not counts");
}

/** The public columns at `now`: everything but the secrets, with the endpoint's recent health. */
function publicColumns(now: Date) {
  return {
    endpointId: webhookEndpoints.endpointId,
    url: webhookEndpoints.url,
    description: webhookEndpoints.description,
    apiVersion: webhookEndpoints.apiVersion,
    enabledEvents: webhookEndpoints.enabledEvents,
    status: webhookEndpoints.status,
    disabledAt: webhookEndpoints.disabledAt,
    disabledReason: webhookEndpoints.disabledReason,
    failingSince: webhookEndpoints.failingSince,
    failureStreak: webhookEndpoints.failureStreak,
    previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
    createdAt: webhookEndpoints.createdAt,
    recent: recentAttempts(now).as("recent"),
  };
}

/** SQL: an endpoint of the read scope. */
export function ofScope(scope: ReadScope): SQL {
  return allOf(
    eq(webhookEndpoints.partnerId, scope.partnerId),
    eq(webhookEndpoints.environment, scope.environment),
    eq(webhookEndpoints.merchantKey, scope.merchantKey),
  );
}

/** SQL: the endpoint of that id, of the read scope. */
export function oneOfScope(scope: ReadScope, endpointId: string): SQL {
  return allOf(ofScope(scope), eq(webhookEndpoints.endpointId, endpointId));
}

/** Up to `limit + 1` endpoints of the scope in id (creation) order, after `after`. */
export function readEndpointPage(
  db: Database,
  scope: ReadScope,
  after: string | null,
  limit: number,
  now: Date,
): Promise<EndpointFields[]> {
  const where = after
    ? and(ofScope(scope), gt(webhookEndpoints.endpointId, after))
    : ofScope(scope);
  return db
    .select(publicColumns(now))
    .from(webhookEndpoints)
    .where(where)
    .orderBy(asc(webhookEndpoints.endpointId))
    .limit(limit + 1);
}

/** The endpoint of the scope with its health at `now` (by default, the current time), or null. */
export async function findEndpoint(
  db: Database,
  scope: ReadScope,
  endpointId: string,
  now: Date = new Date(),
): Promise<EndpointFields | null> {
  const [row] = await db
    .select(publicColumns(now))
    .from(webhookEndpoints)
    .where(oneOfScope(scope, endpointId));
  return row ?? null;
}

function ofPartner(partnerId: string, environment: Environment): SQL {
  return allOf(
    eq(webhookEndpoints.partnerId, partnerId),
    eq(webhookEndpoints.environment, environment),
  );
}

/**
 * Every endpoint of the partner in the environment, by product, then in creation order: at most
 * `MAX_ENDPOINTS` per product, read from the leading columns of `webhook_endpoints_scope_idx`.
 */
export function listPartnerEndpoints(
  db: Database,
  partnerId: string,
  environment: Environment,
  now: Date,
): Promise<ProductEndpoint[]> {
  return db
    .select({ ...publicColumns(now), merchantKey: webhookEndpoints.merchantKey })
    .from(webhookEndpoints)
    .where(ofPartner(partnerId, environment))
    .orderBy(asc(webhookEndpoints.merchantKey), asc(webhookEndpoints.endpointId));
}

/** One endpoint of the partner in the environment, whichever its product; null otherwise. */
export async function findPartnerEndpoint(
  db: Database,
  partnerId: string,
  environment: Environment,
  endpointId: string,
  now: Date,
): Promise<ProductEndpoint | null> {
  const [row] = await db
    .select({ ...publicColumns(now), merchantKey: webhookEndpoints.merchantKey })
    .from(webhookEndpoints)
    .where(and(ofPartner(partnerId, environment), eq(webhookEndpoints.endpointId, endpointId)));
  return row ?? null;
}
