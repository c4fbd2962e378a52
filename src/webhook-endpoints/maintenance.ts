// The endpoints' maintenance steps, on every shard: move failing endpoints on to the stage their
// failures reached (telling their Admins, and disabling those past the window) even while no
// attempt is due, and seal endpoint secrets under the current SIGNING_SECRET (those stored before
// sealing, and those sealed under a previous secret during a rotation).
import { MAX_BATCHES, type MaintenanceStep, PER_BATCH } from "../app/maintenance";
import type { Database } from "../db/client";
import { deliveryConfig } from "./delivery-config";
import { advanceHealthOfShard } from "./endpoint-health";
import { endpointsToReseal, resealSecrets } from "./endpoint-store";
import { secretSealerOf } from "./endpoints";
import { defaultNotice, notifyEndpointHealth } from "./health-notice";
import type { SecretSealer } from "./secret-sealing";

/**
 * Endpoints whose failures reached a further stage since their last attempt (retries wait up to
 * 12 hours): each moved on, disabled when past the window, and its Admins told.
 */
export const endpointHealthChecked: MaintenanceStep = {
  name: "endpoint_health",
  run: async ({ env, db, shard, now }) => {
    const policy = deliveryConfig(env);
    let total = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const changes = await advanceHealthOfShard(db, policy, now, PER_BATCH);
      for (const change of changes) {
        try {
          await notifyEndpointHealth(defaultNotice(env, db, shard), change, policy);
        } catch (err) {
          console.error(JSON.stringify({ error: `notice failed: ${String(err)}` }));
        }
      }
      total += changes.length;
      if (changes.length < PER_BATCH) break;
    }
    return total;
  },
};

export const endpointSecretsSealed: MaintenanceStep = {
  name: "endpoint_secrets_sealed",
  run: ({ env, db }) => resealEndpointSecrets(db, secretSealerOf(env)),
};

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
