// The cards' maintenance step, on every shard: encrypt again under the current CARD_DATA_KEYS key
// every card written under another one, so that once a rotation's run has reported none left the
// old key can be removed without losing a card (docs/operations.md, "Rotating secrets").
import { and, asc, eq, gt, isNotNull, ne, sql } from "drizzle-orm";
import { MAX_BATCHES, type MaintenanceStep, PER_BATCH } from "../app/maintenance";
import type { Database } from "../db/client";
import { fencedPartners } from "../db/move-fences";
import { type CardVault, cardVaultOf } from "./card-secrets";
import { paymentMethods } from "./schema";

export const cardSecretsReencrypted: MaintenanceStep = {
  name: "card_secrets_reencrypted",
  run: ({ env, db }) => reencryptCardSecrets(db, cardVaultOf(env)),
};

/**
 * Encrypts again, in id order and a batch of writes per page, every card whose secrets are under
 * a key other than the current one; answers how many were. A card no configured key opens is left
 * as it is (its reads show no pci_details), and one whose secrets changed since the page was read
 * keeps the change. Partners being moved are skipped until they land.
 */
export async function reencryptCardSecrets(db: Database, vault: CardVault): Promise<number> {
  const keyId = vault.currentKeyId;
  if (keyId === null) return 0;
  let after = "";
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const page = await db
      .select({
        paymentMethodId: paymentMethods.paymentMethodId,
        panCiphertext: paymentMethods.panCiphertext,
        cvvCiphertext: paymentMethods.cvvCiphertext,
        keyId: paymentMethods.keyId,
      })
      .from(paymentMethods)
      .where(
        and(
          gt(paymentMethods.paymentMethodId, after),
          isNotNull(paymentMethods.keyId),
          ne(paymentMethods.keyId, keyId),
          sql`${paymentMethods.partnerId} NOT IN ${fencedPartners}`,
        ),
      )
      .orderBy(asc(paymentMethods.paymentMethodId))
      .limit(PER_BATCH);
    const writes = [];
    for (const row of page) {
      if (row.panCiphertext === null || row.cvvCiphertext === null || row.keyId === null) continue;
      const was = { panCiphertext: row.panCiphertext, cvvCiphertext: row.cvvCiphertext };
      const secrets = await vault.open({ ...was, keyId: row.keyId }, row.paymentMethodId);
      if (secrets === null) continue;
      const sealed = await vault.seal(secrets, row.paymentMethodId);
      writes.push(
        db
          .update(paymentMethods)
          .set(sealed)
          .where(
            and(
              eq(paymentMethods.paymentMethodId, row.paymentMethodId),
              eq(paymentMethods.panCiphertext, was.panCiphertext),
              eq(paymentMethods.keyId, row.keyId),
            ),
          ),
      );
    }
    const [first, ...rest] = writes;
    if (first) await db.batch([first, ...rest]);
    total += writes.length;
    after = page.at(-1)?.paymentMethodId ?? after;
    if (page.length < PER_BATCH) break;
  }
  return total;
}
