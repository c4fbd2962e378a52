// The `scheduled()` handler, on every shard: the maintenance steps the features declare (re-send
// work whose queue message was lost, purge what is past its retention, re-seal secrets), run in
// the order src/jobs.ts lists them. Shards are worked side by side; one that fails is logged and
// the others are still maintained.

import { type Database, newQueryStats } from "../db/client";
import { forEachShard, openShards } from "../db/shards";
import { positiveSetting } from "../domain/retry-schedule";
import type { Bindings } from "./context";
import { sendMessages } from "./queue-send";

/**
 * How overdue a delivery or render is once its message is taken as lost (queues add seconds, not
 * minutes): `SWEEP_GRACE_SECONDS`, or five minutes.
 */
export function sweepGraceMs(env: Bindings): number {
  return positiveSetting(env.SWEEP_GRACE_SECONDS, 5 * 60) * 1000;
}
/** Rows handled per batch, and batches per run at most (the cron runs every five minutes). */
export const PER_BATCH = 500;
export const MAX_BATCHES = 20;

/** What a step works on: one shard, at the run's instant. */
export interface ShardWork {
  env: Bindings;
  db: Database;
  shard: string;
  now: Date;
}

/** One task of a shard's maintenance: its name in the run's log line, and what it does. */
export interface MaintenanceStep {
  name: string;
  /** Does the task on one shard; answers how many rows it handled. */
  run(work: ShardWork): Promise<number>;
}

/** The `scheduled()` handler running `steps`, in order, on every shard. */
export function maintenance(steps: readonly MaintenanceStep[]) {
  return async (controller: ScheduledController, env: Bindings): Promise<void> => {
    const now = new Date(controller.scheduledTime);
    const shards = openShards(env, newQueryStats());
    const outcomes = await forEachShard(shards, (db, shard) =>
      maintainShard(steps, { env, db, shard, now }),
    );
    for (const outcome of outcomes) {
      const line = { maintenance: { shard: outcome.shard, ...(outcome.ok ? outcome.result : {}) } };
      if (outcome.ok && !Object.values(outcome.result).some((v) => typeof v === "string")) {
        console.log(JSON.stringify(line));
      } else {
        console.error(
          JSON.stringify(outcome.ok ? line : { ...line, error: String(outcome.error) }),
        );
      }
    }
  };
}

/**
 * One shard's maintenance, task by task; what each did, for the log line. A task that fails (its
 * storage down, or a purge refused by a move's fence while a partner's rows are being copied) is
 * reported, and the next one still runs; the next run catches up.
 */
async function maintainShard(
  steps: readonly MaintenanceStep[],
  work: ShardWork,
): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = {};
  for (const step of steps) {
    try {
      figures[step.name] = await step.run(work);
    } catch (err) {
      figures[step.name] = `failed: ${String(err)}`;
    }
  }
  return figures;
}

/**
 * Runs a step over up to `perBatch` rows (a purge, a re-send) until it comes back short
 * (`batches` at most); answers how many rows it handled.
 */
export async function drain(
  step: () => Promise<number>,
  perBatch = PER_BATCH,
  batches = MAX_BATCHES,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < batches; i++) {
    const n = await step();
    total += n;
    if (n < perBatch) break;
  }
  return total;
}

/**
 * Re-sends, page by page, the work of the shard whose queue message was lost (deliveries or
 * renders overdue by the grace period); answers how many.
 */
export const resendOverdue = <Ref>(
  queue: Queue,
  overdue: (limit: number) => Promise<readonly Ref[]>,
) =>
  drain(async () => {
    const lost = await overdue(PER_BATCH);
    await sendMessages(queue, lost);
    return lost.length;
  });
