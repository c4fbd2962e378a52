// Whether a payment method is one of a customer's cards, inside the caller's read scope: what any
// body naming a `payment_method_id` beside its `customer_id` is checked against.
import { eq } from "drizzle-orm";
import { allOf } from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import { paymentMethods } from "./schema";

/** The query for the one card, or none: batch it with the writes' other reads. */
export function cardOfCustomerQuery(
  db: Database,
  scope: ReadScope,
  customerId: string,
  paymentMethodId: string,
) {
  return db
    .select({ paymentMethodId: paymentMethods.paymentMethodId, status: paymentMethods.status })
    .from(paymentMethods)
    .where(
      allOf(
        eq(paymentMethods.paymentMethodId, paymentMethodId),
        eq(paymentMethods.customerId, customerId),
        eq(paymentMethods.partnerId, scope.partnerId),
        eq(paymentMethods.environment, scope.environment),
        eq(paymentMethods.merchantKey, scope.merchantKey),
      ),
    )
    .limit(1);
}
