// The sandbox's maintenance step, on every shard: sandbox customers expire 90 days after they
// were made, each with everything of theirs (a partner being moved keeps its own until its move
// is over). The usage the quotas and budgets count is purged by their own step
// (src/sandbox-budgets/).
import type { Bindings } from "../app/context";
import { drain, MAX_BATCHES, type MaintenanceStep } from "../app/maintenance";
import type { Database } from "../db/client";
import { SANDBOX_LIMITS } from "./quotas";
import { CUSTOMERS_PER_BATCH, deleteDocuments, deleteOldSandboxData } from "./sandbox-reset";

export const sandboxExpired: MaintenanceStep = {
  name: "sandbox_customers_expired",
  run: ({ env, db, shard, now }) => expireSandbox(env, db, shard, now),
};

async function expireSandbox(
  env: Bindings,
  db: Database,
  shard: string,
  now: Date,
): Promise<number> {
  const before = new Date(now.getTime() - SANDBOX_LIMITS.expiryDays * 86_400_000);
  return drain(
    async () => {
      const deleted = await deleteOldSandboxData(db, "every-partner", before);
      await deleteDocuments(env, shard, deleted.documents);
      return deleted.customers;
    },
    CUSTOMERS_PER_BATCH,
    MAX_BATCHES,
  );
}
