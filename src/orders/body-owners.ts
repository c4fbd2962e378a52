// What a body's `customer_id` and `payment_method_id` must be: one of the caller's customers, and
// one of that customer's cards. Orders and transaction intents check both the same way, in one
// round trip, before they write.

import type { Database } from "../db/client";
import { customerInScope, type ReadScope } from "../db/customers";
import { customers } from "../db/schema";
import { cardOfCustomerQuery } from "../payment-methods";

/** Why a body's owners were refused, or null when both are the caller's. */
export type OwnerProblem = "customer" | "payment_method" | null;

/**
 * One round trip: whether `customerId` is in the read scope and, when a card is named, whether it
 * is one of that customer's cards (another customer's, product's or partner's is not).
 */
export async function checkBodyOwners(
  db: Database,
  scope: ReadScope,
  customerId: string,
  paymentMethodId: string | undefined,
): Promise<OwnerProblem> {
  const customer = db
    .select({ customerId: customers.customerId })
    .from(customers)
    .where(customerInScope(scope, customerId));
  if (paymentMethodId === undefined) {
    const [found] = await customer;
    return found ? null : "customer";
  }
  const [[found], [card]] = await db.batch([
    customer,
    cardOfCustomerQuery(db, scope, customerId, paymentMethodId),
  ]);
  if (!found) return "customer";
  return card ? null : "payment_method";
}
