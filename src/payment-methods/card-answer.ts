// A stored card as a key reads it: masked, or with its PAN and CVV for a key holding
// PCI_DETAILS_READ, opened here and recorded in the audit log before they are answered. The
// retrieve and the sandbox's test card both answer a card this way.
import type { Context } from "hono";
import { keyActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { readScope } from "../app/pipeline";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";
import type { PaymentMethodBody } from "./api-schemas";
import { cardVaultOf } from "./card-secrets";
import type { CardRow } from "./card-store";
import { sealedOf, toPaymentMethod } from "./card-view";

export async function cardAsRead(c: Context<AppEnv>, row: CardRow): Promise<PaymentMethodBody> {
  const sealed = sealedOf(row);
  if (!c.get("caller").scopes.includes("PCI_DETAILS_READ") || sealed === null) {
    return toPaymentMethod(row, null);
  }
  const secrets = await cardVaultOf(c.env).open(sealed, row.paymentMethodId);
  if (secrets === null) {
    // A key no longer configured: the card still reads, masked; the operator's log says why.
    console.error(
      JSON.stringify({ card_secrets: "unopened", payment_method_id: row.paymentMethodId }),
    );
    return toPaymentMethod(row, null);
  }
  // Recorded before they leave: a read whose record fails answers no details.
  await atomically(c.get("db"), [
    auditInsert(
      readScope(c).partnerId,
      keyActor(c),
      {
        action: "payment_method.pci_details_read",
        environment: row.environment,
        target: row.paymentMethodId,
        details: { customer_id: row.customerId },
      },
      c.get("now")(),
    ),
  ]);
  return toPaymentMethod(row, secrets);
}
