// The request log's maintenance step, on every shard: requests past their 30 days leave it.
import { drain, type MaintenanceStep, PER_BATCH } from "../app/maintenance";
import type { Database } from "../db/client";
import { REQUEST_LOG_RETENTION_MS } from "../domain/request-log";
import { purgeExpiredRequestLogDays, purgeExpiredRequestLogs } from "./log-store";

/**
 * Request logs are purged in larger steps: a run removes up to 50,000 (an average of about 170
 * requests a second, more than one D1 database keeps 30 days of).
 */
const LOGS_PER_BATCH = 1000;
const LOG_BATCHES = 50;

export const requestLogsPurged: MaintenanceStep = {
  name: "request_logs_purged",
  run: ({ db, now }) => purgeRequestLogs(db, now),
};

/**
 * Requests past their 30 days leave the shard's log, and days past them leave the Overview's
 * counts; answers how many requests went.
 */
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
