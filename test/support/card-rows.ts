// Cards stored straight in the partner's shard, for tests of bodies that name a payment method:
// one row of payment_methods, masked fields only (nothing here reads a PAN).

import { uniqueId } from "./fixtures";
import { partnerDatabase } from "./shards";

export interface CardOwner {
  partnerId: string;
  merchantKey: string;
  customerId: string;
  accountId: string;
}

/** Stores an ACTIVE VISA card of the customer's account; returns its payment_method_id. */
export async function storeCard(owner: CardOwner, environment = "sandbox"): Promise<string> {
  const id = uniqueId("pm");
  const db = await partnerDatabase(owner.partnerId);
  await db
    .prepare(
      `INSERT INTO payment_methods (payment_method_id, customer_id, account_id, partner_id,
       environment, merchant_key, type, status, network, card_type, last4, expiration_month,
       expiration_year, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'CARD', 'ACTIVE', 'VISA', 'VIRTUAL', '4242', 12, 2030, ?)`,
    )
    .bind(
      id,
      owner.customerId,
      owner.accountId,
      owner.partnerId,
      environment,
      owner.merchantKey,
      new Date().toISOString(),
    )
    .run();
  return id;
}
