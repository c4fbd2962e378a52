// The rewards categories an account earns under: its product's, read with the account's owner in
// one round trip, inside the caller's read scope.
import { and, eq } from "drizzle-orm";
import { accounts } from "../accounts/schema";
import type { Database } from "../db/client";
import { customerInScope, type ReadScope } from "../db/customers";
import { customers, products } from "../db/schema";
import type { RewardsCategory } from "../domain/rewards";

/** What the read found: the customer, its account, and the account's product's categories. */
export type CategoriesLookup =
  | { found: "no-customer" }
  | { found: "no-account" }
  | { found: "account"; categories: RewardsCategory[] };

/**
 * The read of readAccountCategories: the customer in `scope`, joined to its account `accountId`
 * and to the product the customer holds (at most one row). Built apart so that the bench's floor
 * runs this very statement.
 */
export function accountCategoriesQuery(
  db: Database,
  scope: ReadScope,
  customerId: string,
  accountId: string,
) {
  return db
    .select({ accountId: accounts.accountId, categories: products.rewardsCategories })
    .from(customers)
    .leftJoin(
      accounts,
      and(eq(accounts.customerId, customers.customerId), eq(accounts.accountId, accountId)),
    )
    .leftJoin(products, eq(products.merchantKey, customers.merchantKey))
    .where(customerInScope(scope, customerId));
}

/** The categories of the account `accountId` of the customer in `scope`, in one round trip. */
export async function readAccountCategories(
  db: Database,
  scope: ReadScope,
  customerId: string,
  accountId: string,
): Promise<CategoriesLookup> {
  const [row] = await accountCategoriesQuery(db, scope, customerId, accountId);
  if (!row) return { found: "no-customer" };
  if (row.accountId === null) return { found: "no-account" };
  return { found: "account", categories: row.categories ?? [] };
}
