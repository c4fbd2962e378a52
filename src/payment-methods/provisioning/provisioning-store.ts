// The card a provisioning reads, and the write that records it: the wallet added to the card's
// `wallets` and the audit row, in one batch, both only while the card is still active.
import { and, eq, sql } from "drizzle-orm";
import { auditInsert } from "../../db/audit";
import { allOf, atomically } from "../../db/batch";
import type { Database } from "../../db/client";
import type { ReadScope } from "../../db/customers";
import type { Actor } from "../../domain/audit";
import type { Environment } from "../../domain/environment";
import { paymentMethods } from "../schema";
import type { Wallet } from "./api-schemas";

/** What provisioning needs of a card: its state, its expiry and its sealed secrets. */
export interface CardForProvisioning {
  paymentMethodId: string;
  customerId: string;
  status: "ACTIVE" | "INACTIVE" | "CANCELED";
  expirationMonth: number;
  expirationYear: number;
  panCiphertext: string | null;
  cvvCiphertext: string | null;
  keyId: string | null;
}

/** The card, when it is one of the caller's partner, environment and product; else null. */
export async function readCardForProvisioning(
  db: Database,
  scope: ReadScope,
  paymentMethodId: string,
): Promise<CardForProvisioning | null> {
  const [card] = await db
    .select({
      paymentMethodId: paymentMethods.paymentMethodId,
      customerId: paymentMethods.customerId,
      status: paymentMethods.status,
      expirationMonth: paymentMethods.expirationMonth,
      expirationYear: paymentMethods.expirationYear,
      panCiphertext: paymentMethods.panCiphertext,
      cvvCiphertext: paymentMethods.cvvCiphertext,
      keyId: paymentMethods.keyId,
    })
    .from(paymentMethods)
    .where(inScope(scope, paymentMethodId))
    .limit(1);
  return card ?? null;
}

/**
 * Adds `wallet` to the card's wallets and writes the audit row, both only if the card is still
 * active; false when it no longer was (changed since it was read).
 */
export async function recordProvisioning(
  db: Database,
  scope: ReadScope,
  provisioning: { paymentMethodId: string; customerId: string; wallet: Wallet; actor: Actor },
  now: Date,
): Promise<boolean> {
  const stillActive = and(
    inScope(scope, provisioning.paymentMethodId),
    eq(paymentMethods.status, "ACTIVE"),
  );
  const active = sql`EXISTS (SELECT 1 FROM ${paymentMethods} WHERE ${stillActive})`;
  const [audited] = await atomically(db, [
    auditInsert(
      scope.partnerId,
      provisioning.actor,
      {
        action: "payment_method.provisioned",
        // The scope's environment is the caller's, one of the two.
        environment: scope.environment as Environment,
        target: provisioning.paymentMethodId,
        details: { wallet: provisioning.wallet, customer_id: provisioning.customerId },
      },
      now,
      { guard: active },
    ),
    db
      .update(paymentMethods)
      .set({
        wallets: sql`json_insert(${paymentMethods.wallets}, '$[#]', json_object('wallet', ${provisioning.wallet}, 'created_at', ${now.toISOString()}))`,
      })
      .where(stillActive),
  ]);
  return (audited?.meta.changes ?? 0) > 0;
}

function inScope(scope: ReadScope, paymentMethodId: string) {
  return allOf(
    eq(paymentMethods.paymentMethodId, paymentMethodId),
    eq(paymentMethods.partnerId, scope.partnerId),
    // drizzle types the value by the column's two names; a scope naming another matches no row.
    eq(paymentMethods.environment, scope.environment as Environment),
    eq(paymentMethods.merchantKey, scope.merchantKey),
  );
}
