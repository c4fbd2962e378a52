// An endpoint's health over a run of failed attempts: it is failing once every attempt has failed
// for a while, about to be disabled a day before the disable window closes, and disabled when it
// has. Each stage is reached once per run (a success or an enable starts afresh), whether an
// attempt or the five-minute sweep notices it first, and only the furthest stage reached is
// announced: an endpoint found already past its disable window is disabled, not warned.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { fencedPartners } from "../db/move-fences";
import type { DeliveryConfig } from "./delivery-config";
import { webhookEndpoints } from "./schema";

/** The stages of a run of failures, as `health_notice` stores the one its Admins were told of. */
export const FAILING = 1;
export const DISABLE_SOON = 2;
export const DISABLED = 3;
export type HealthStage = typeof FAILING | typeof DISABLE_SOON | typeof DISABLED;

const DISABLED_REASON = "Every delivery attempt failed for too long.";

export type HealthPolicy = Pick<
  DeliveryConfig,
  "disableAfterSeconds" | "disableWarningSeconds" | "failingNoticeAfterSeconds"
>;

/** An endpoint that reached a stage of its run of failures: what its Admins are told. */
export interface HealthChange {
  stage: HealthStage;
  endpointId: string;
  partnerId: string;
  environment: string;
  url: string;
  /** Where the endpoint was registered: its dashboard page is there. */
  apiOrigin: string;
  /** When the run of failed attempts began. */
  failingSince: string;
  failureStreak: number;
  /** When it was disabled (`DISABLED` only). */
  disabledAt: string | null;
}

/** SQL: the stage the endpoint's run of failures has reached at `now` (0 for none). */
function stageReached(policy: HealthPolicy, now: Date): SQL {
  const before = (seconds: number) =>
    new Date(now.getTime() - Math.max(0, seconds) * 1000).toISOString();
  const since = webhookEndpoints.failingSince;
  return sql`(CASE WHEN ${since} IS NULL THEN 0
    WHEN ${since} <= ${before(policy.disableAfterSeconds)} THEN ${DISABLED}
    WHEN ${since} <= ${before(policy.disableAfterSeconds - policy.disableWarningSeconds)}
      THEN ${DISABLE_SOON}
    WHEN ${since} <= ${before(policy.failingNoticeAfterSeconds)} THEN ${FAILING}
    ELSE 0 END)`;
}

/**
 * The write that moves the enabled endpoints matching `which` to the stage their failures reached
 * at `now`, when it is further than the one told (disabling those past the window), answering
 * each endpoint that moved: for a batch, after the write that records the failure.
 */
export function advanceHealth(db: Database, policy: HealthPolicy, now: Date, which: SQL) {
  const at = now.toISOString();
  const stage = stageReached(policy, now);
  const disabling = sql`${stage} = ${DISABLED}`;
  return db
    .update(webhookEndpoints)
    .set({
      healthNotice: stage,
      status: sql`CASE WHEN ${disabling} THEN 'disabled' ELSE ${webhookEndpoints.status} END`,
      disabledAt: sql`CASE WHEN ${disabling} THEN ${at} ELSE ${webhookEndpoints.disabledAt} END`,
      disabledReason: sql`CASE WHEN ${disabling} THEN ${DISABLED_REASON}
        ELSE ${webhookEndpoints.disabledReason} END`,
    })
    .where(
      and(
        which,
        eq(webhookEndpoints.status, "enabled"),
        sql`${stage} > ${webhookEndpoints.healthNotice}`,
      ),
    )
    .returning({
      stage: webhookEndpoints.healthNotice,
      endpointId: webhookEndpoints.endpointId,
      partnerId: webhookEndpoints.partnerId,
      environment: webhookEndpoints.environment,
      url: webhookEndpoints.url,
      apiOrigin: webhookEndpoints.apiOrigin,
      failingSince: webhookEndpoints.failingSince,
      failureStreak: webhookEndpoints.failureStreak,
      disabledAt: webhookEndpoints.disabledAt,
    });
}

/** A row `advanceHealth` answers. */
type AdvancedEndpoint = Awaited<ReturnType<typeof advanceHealth>>[number];

function isHealthStage(stage: number): stage is HealthStage {
  return stage === FAILING || stage === DISABLE_SOON || stage === DISABLED;
}

/**
 * The rows `advanceHealth` answered, as changes to announce: an endpoint moves only to a stage
 * past its `health_notice` (0 at least), so each has a stage and a run of failures.
 */
export function healthChanges(rows: readonly AdvancedEndpoint[]): HealthChange[] {
  return rows.flatMap((row) => {
    const { stage, failingSince } = row;
    return failingSince !== null && isHealthStage(stage) ? [{ ...row, stage, failingSince }] : [];
  });
}

/**
 * Up to `limit` enabled endpoints of the shard whose failures reached a further stage by `now`
 * than their Admins were told of (partners being moved, or whose old copy awaits retirement, wait
 * for their new shard: the move's fence refuses their updates): each moved to
 * it, disabled when past the window, and answered for its notice.
 */
export async function advanceHealthOfShard(
  db: Database,
  policy: HealthPolicy,
  now: Date,
  limit: number,
): Promise<HealthChange[]> {
  const stage = stageReached(policy, now);
  const due = sql`${webhookEndpoints.endpointId} IN (
    SELECT w.endpoint_id FROM webhook_endpoints w JOIN partners p ON p.partner_id = w.partner_id
    WHERE w.status = 'enabled' AND w.failing_since IS NOT NULL
      AND p.moving_to IS NULL AND p.moved_to IS NULL AND p.partner_id NOT IN ${fencedPartners}
      AND w.endpoint_id IN (SELECT endpoint_id FROM webhook_endpoints
        WHERE ${stage} > health_notice)
    LIMIT ${limit})`;
  return healthChanges(await advanceHealth(db, policy, now, due));
}
