// The budgets' maintenance steps, on every shard: the shard's size measured (D1 answers it with
// every query, as `meta.size_after`: one trivial read costs nothing more) and kept for the guard
// of sandbox writes, every five minutes; and days of usage older than the expiry window deleted.
import type { MaintenanceStep } from "../app/maintenance";
import { FROZEN_PARTNERS } from "../db/move-fences";
import { SHARD_CAPACITY_BYTES, SHARD_THRESHOLD_BYTES } from "./budgets";
import { windowStart } from "./usage";

export const shardSizeMeasured: MaintenanceStep = {
  name: "shard_size_bytes",
  async run({ db, shard, now }) {
    const { meta } = await db.$client.prepare("SELECT 1").run();
    const bytes = meta.size_after;
    await db.$client
      .prepare(
        "INSERT INTO shard_size (id, bytes, measured_at) VALUES (1, ?1, ?2) " +
          "ON CONFLICT (id) DO UPDATE SET bytes = excluded.bytes, measured_at = excluded.measured_at",
      )
      .bind(bytes, now.toISOString())
      .run();
    if (bytes >= SHARD_THRESHOLD_BYTES) {
      // Sandbox writes on the shard now wait (429): the operator adds a shard or moves partners.
      console.error(
        JSON.stringify({
          sandbox_budget: "shard past its threshold: sandbox writes refused",
          shard,
          bytes,
          share: bytes / SHARD_CAPACITY_BYTES,
        }),
      );
    }
    return bytes;
  },
};

export const sandboxUsagePurged: MaintenanceStep = {
  name: "sandbox_usage_purged",
  async run({ db, now }) {
    const { meta } = await db.$client
      .prepare(`DELETE FROM sandbox_usage WHERE day < ?1 AND partner_id NOT IN ${FROZEN_PARTNERS}`)
      .bind(windowStart(now))
      .run();
    return meta.changes;
  },
};
