// The `scheduled()` handler, on every shard: re-send deliveries and renders whose queue message was
// lost, purge events and request logs past their 30 days, idempotency keys past their 24 hours,
// and dashboard sessions and sign-in links past their end, and seal webhook endpoint secrets under
// the current SIGNING_SECRET (those stored before sealing, and those sealed under a previous
// secret during a rotation). Shards are worked side by side; one that fails is logged and the
// others are still maintained.

import type { Bindings } from "../app/context";
import { type Database, newQueryStats } from "../db/client";
import { purgeExpiredCredentials } from "../db/sessions";
import { forEachShard, openShards } from "../db/shards";
import { overdueRenders } from "../documents/render-store";
import { EVENT_RETENTION_MS } from "../domain/event";
import { REQUEST_LOG_RETENTION_MS } from "../domain/request-log";
import type { SecretSealer } from "../domain/secret-sealing";
import { SESSION_IDLE_TIMEOUT_MS } from "../domain/session-policy";
import { purgeExpiredRequestLogDays, purgeExpiredRequestLogs } from "../request-logs/log-store";
import { sendMessages } from "../webhooks/delivery-queue";
import {
  overdueDeliveries,
  purgeExpiredEvents,
  purgeExpiredIdempotencyKeys,
} from "../webhooks/delivery-work";
import { endpointsToReseal, resealSecrets } from "../webhooks/endpoint-store";
import { secretSealerOf } from "../webhooks/endpoints";

/** A delivery or render overdue by this much lost its message (queues add seconds, not minutes). */
export const SWEEP_GRACE_MS = 5 * 60 * 1000;
/** Rows handled per batch, and batches per run at most (the cron runs every five minutes). */
const PER_BATCH = 500;
const MAX_BATCHES = 20;
/**
 * Request logs are purged in larger steps: a run removes up to 50,000 (an average of about 170
 * requests a second, more than one D1 database keeps 30 days of).
 */
const LOGS_PER_BATCH = 1000;
const LOG_BATCHES = 50;

export async function runMaintenance(
  controller: ScheduledController,
  env: Bindings,
): Promise<void> {
  const now = new Date(controller.scheduledTime);
  const shards = openShards(env, newQueryStats());
  const outcomes = await forEachShard(shards, (db, shard) => maintainShard(env, db, shard, now));
  for (const outcome of outcomes) {
    const line = { maintenance: { shard: outcome.shard, ...(outcome.ok ? outcome.result : {}) } };
    if (outcome.ok && !Object.values(outcome.result).some((v) => typeof v === "string")) {
      console.log(JSON.stringify(line));
    } else {
      console.error(JSON.stringify(outcome.ok ? line : { ...line, error: String(outcome.error) }));
    }
  }
}

/**
 * One shard's maintenance, task by task; what each did, for the log line. A task that fails (its
 * storage down, or a purge refused by a move's fence while a partner's rows are being copied) is
 * reported, and the next one still runs; the next run catches up.
 */
async function maintainShard(
  env: Bindings,
  db: Database,
  shard: string,
  now: Date,
): Promise<Record<string, number | string>> {
  const at = now.toISOString();
  const before = new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS).toISOString();
  const tasks: [string, () => Promise<number>][] = [
    [
      "resent",
      () =>
        resendLost(env.WEBHOOK_DELIVERIES, () =>
          overdueDeliveries(db, shard, now, SWEEP_GRACE_MS, PER_BATCH),
        ),
    ],
    [
      "renders_resent",
      () =>
        resendLost(env.STATEMENT_RENDERS, () =>
          overdueRenders(db, shard, now, SWEEP_GRACE_MS, PER_BATCH),
        ),
    ],
    ["events_purged", () => drain(() => purgeExpiredEvents(db, before, PER_BATCH))],
    ["idempotency_keys_purged", () => drain(() => purgeExpiredIdempotencyKeys(db, at, PER_BATCH))],
    [
      "credentials_purged",
      () => drain(() => purgeExpiredCredentials(db, at, idleCutoff, PER_BATCH)),
    ],
    ["endpoint_secrets_sealed", () => resealEndpointSecrets(db, secretSealerOf(env))],
    ["request_logs_purged", () => purgeRequestLogs(db, now)],
  ];
  const figures: Record<string, number | string> = {};
  for (const [name, task] of tasks) {
    try {
      figures[name] = await task();
    } catch (err) {
      figures[name] = `failed: ${String(err)}`;
    }
  }
  return figures;
}

/**
 * Re-sends, batch by batch, the work whose message was lost (`overdue` makes up to PER_BATCH of
 * it due now and answers it) to `queue`; answers how much.
 */
function resendLost<Ref>(queue: Queue, overdue: () => Promise<Ref[]>): Promise<number> {
  return drain(async () => {
    const lost = await overdue();
    await sendMessages(queue, lost);
    return lost.length;
  });
}

/**
 * Seals every endpoint secret not yet sealed under the current SIGNING_SECRET, in id order, a
 * batch of writes per page; answers how many endpoints were sealed anew. A secret no configured
 * SIGNING_SECRET opens is left as it is (its deliveries say so); a rolled one keeps its roll.
 */
async function resealEndpointSecrets(db: Database, sealer: SecretSealer): Promise<number> {
  const keyId = await sealer.keyId();
  let after = "";
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const page = await endpointsToReseal(db, keyId, after, PER_BATCH);
    const writes = [];
    for (const row of page) {
      const secret = await sealer.open(row.secret, row.secretKeyId, row.endpointId);
      if (secret === null) continue;
      const previous =
        row.previousSecret === null
          ? null
          : await sealer.open(row.previousSecret, row.previousSecretKeyId, row.endpointId);
      const sealed = await sealer.seal(secret, row.endpointId);
      const sealedPrevious = previous === null ? null : await sealer.seal(previous, row.endpointId);
      writes.push(
        resealSecrets(db, row, {
          secret: sealed.sealed,
          secretKeyId: sealed.keyId,
          previousSecret: sealedPrevious?.sealed ?? null,
          previousSecretKeyId: sealedPrevious?.keyId ?? null,
        }),
      );
    }
    const [first, ...rest] = writes;
    if (first) await db.batch([first, ...rest]);
    total += writes.length;
    after = page.at(-1)?.endpointId ?? after;
    if (page.length < PER_BATCH) break;
  }
  return total;
}

/**
 * Requests past their 30 days leave the log, and days past them leave the Overview's counts, in
 * every database that holds logs; answers how many requests went.
 */
/** Purges the shard's request logs and daily counts past their retention; answers the logs. */
async function purgeRequestLogs(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - REQUEST_LOG_RETENTION_MS);
  const beforeDay = before.toISOString().slice(0, 10);
  const binding = db.$client;
  const total = await drain(
    () => purgeExpiredRequestLogs(binding, before, LOGS_PER_BATCH),
    LOGS_PER_BATCH,
    LOG_BATCHES,
  );
  await drain(() => purgeExpiredRequestLogDays(binding, beforeDay, PER_BATCH));
  return total;
}

/** Runs a purge of up to `perBatch` rows until it comes back short (`batches` at most). */
async function drain(
  purge: () => Promise<number>,
  perBatch = PER_BATCH,
  batches = MAX_BATCHES,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < batches; i++) {
    const n = await purge();
    total += n;
    if (n < perBatch) break;
  }
  return total;
}
