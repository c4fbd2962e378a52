// The `scheduled()` handler: re-send deliveries and renders whose queue message was lost, purge
// events and request logs past their 30 days, idempotency keys past their 24 hours, and dashboard
// sessions and sign-in links past their end, and seal webhook endpoint secrets under the current
// SIGNING_SECRET (those stored before sealing, and those sealed under a previous secret during a
// rotation).

import type { Bindings } from "../app/context";
import { type Database, openDatabase } from "../db/client";
import { purgeExpiredCredentials } from "../db/sessions";
import { overdueRenders } from "../documents/render-store";
import { EVENT_RETENTION_MS } from "../domain/event";
import { REQUEST_LOG_RETENTION_MS } from "../domain/request-log";
import type { SecretSealer } from "../domain/secret-sealing";
import { SESSION_IDLE_TIMEOUT_MS } from "../domain/session-policy";
import {
  logDatabases,
  purgeExpiredRequestLogDays,
  purgeExpiredRequestLogs,
} from "../request-logs/log-store";
import { sendDeliveries, sendMessages } from "../webhooks/delivery-queue";
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
  const { db } = openDatabase(env.DB);
  let resent = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const lost = await overdueDeliveries(db, now, SWEEP_GRACE_MS, PER_BATCH);
    await sendDeliveries(env.WEBHOOK_DELIVERIES, lost);
    resent += lost.length;
    if (lost.length < PER_BATCH) break;
  }
  let rendersResent = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const lost = await overdueRenders(db, now, SWEEP_GRACE_MS, PER_BATCH);
    await sendMessages(env.STATEMENT_RENDERS, lost);
    rendersResent += lost.length;
    if (lost.length < PER_BATCH) break;
  }
  const at = now.toISOString();
  const before = new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS).toISOString();
  const events = await drain(() => purgeExpiredEvents(db, before, PER_BATCH));
  const keys = await drain(() => purgeExpiredIdempotencyKeys(db, at, PER_BATCH));
  await drain(() => purgeExpiredCredentials(db, at, idleCutoff, PER_BATCH));
  const resealed = await resealEndpointSecrets(db, secretSealerOf(env));
  const logs = await purgeRequestLogs(env, now);
  console.log(
    JSON.stringify({
      maintenance: {
        resent,
        renders_resent: rendersResent,
        events_purged: events,
        idempotency_keys_purged: keys,
        endpoint_secrets_sealed: resealed,
        request_logs_purged: logs,
      },
    }),
  );
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
async function purgeRequestLogs(env: Bindings, now: Date): Promise<number> {
  const before = new Date(now.getTime() - REQUEST_LOG_RETENTION_MS);
  const beforeDay = before.toISOString().slice(0, 10);
  let total = 0;
  for (const database of logDatabases(env)) {
    total += await drain(
      () => purgeExpiredRequestLogs(database, before, LOGS_PER_BATCH),
      LOGS_PER_BATCH,
      LOG_BATCHES,
    );
    await drain(() => purgeExpiredRequestLogDays(database, beforeDay, PER_BATCH));
  }
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
