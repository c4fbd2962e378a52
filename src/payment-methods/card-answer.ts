// A stored card as a key reads it: masked, or with its PAN and CVV for a key holding
// PCI_DETAILS_READ, opened here and recorded in the audit log before they are answered. The
// retrieve and the sandbox's test card both answer a card this way. The audit row rides in the
// batch that reads the card, so a read of the details costs no round trip more than a masked one.
import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { keyActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { readScope } from "../app/pipeline";
import { auditInsert } from "../db/audit";
import type { PaymentMethodBody } from "./api-schemas";
import { cardVaultOf } from "./card-secrets";
import { findCard, findCardRecordingRead } from "./card-store";
import { sealedOf, toPaymentMethod } from "./card-view";

/**
 * The card `paymentMethodId` of the caller's read scope as the caller may read it, or null when
 * the scope has none. For a key holding PCI_DETAILS_READ, the card is read in one batch with the
 * audit row of the read, written only when the card is there with details a configured key opens:
 * a read whose record fails answers nothing. Should its ciphertext still not open (altered, or
 * another card's), the row records a read that answered the card masked; the log says why.
 */
export async function readCardAsCaller(
  c: Context<AppEnv>,
  paymentMethodId: string,
): Promise<PaymentMethodBody | null> {
  const db = c.get("db");
  const scope = readScope(c);
  const vault = cardVaultOf(c.env);
  if (!c.get("caller").scopes.includes("PCI_DETAILS_READ") || vault.keyIds.length === 0) {
    const row = await findCard(db, scope, paymentMethodId);
    return row && toPaymentMethod(row, null);
  }
  const row = await findCardRecordingRead(db, scope, paymentMethodId, vault.keyIds, (card) =>
    auditInsert(
      scope.partnerId,
      keyActor(c),
      {
        action: "payment_method.pci_details_read",
        environment: c.get("caller").environment,
        target: paymentMethodId,
      },
      c.get("now")(),
      {
        guard: sql`EXISTS (SELECT 1 FROM ${card})`,
        details: sql`(SELECT json_object('customer_id', customer_id) FROM ${card})`,
      },
    ),
  );
  if (!row) return null;
  const sealed = sealedOf(row);
  // A card stored without details, or under a key no longer configured: no row was written.
  if (sealed === null || !vault.keyIds.includes(sealed.keyId)) return toPaymentMethod(row, null);
  const secrets = await vault.open(sealed, row.paymentMethodId);
  if (secrets === null) {
    console.error(
      JSON.stringify({ card_secrets: "unopened", payment_method_id: row.paymentMethodId }),
    );
  }
  return toPaymentMethod(row, secrets);
}
