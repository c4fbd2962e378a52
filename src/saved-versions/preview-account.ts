// The one real statements page the dashboard's version preview shows: an account of the partner
// in the environment that has a visible statement.
import { and, eq, isNull, sql } from "drizzle-orm";
import { accounts } from "../accounts/schema";
import type { Database } from "../db/client";
import { customers } from "../db/schema";
import type { Environment } from "../domain/environment";
import type { AccountOwner } from "../statements";
import { statements } from "../statements/schema";

/**
 * An account of the partner and environment with at least one visible statement, found through
 * the customers' scope index (the first customer in id order that has one), or null.
 */
export async function sampleStatementAccount(
  db: Database,
  partnerId: string,
  environment: Environment,
): Promise<(AccountOwner & { accountId: string }) | null> {
  const [row] = await db
    .select({
      accountId: accounts.accountId,
      customerId: accounts.customerId,
      partnerId: accounts.partnerId,
      environment: accounts.environment,
      merchantKey: accounts.merchantKey,
    })
    .from(customers)
    .innerJoin(accounts, eq(accounts.customerId, customers.customerId))
    .where(
      and(
        eq(customers.partnerId, partnerId),
        eq(customers.environment, environment),
        sql`EXISTS (SELECT 1 FROM ${statements} WHERE ${and(
          eq(statements.accountId, accounts.accountId),
          isNull(statements.hiddenAt),
        )})`,
      ),
    )
    .orderBy(customers.merchantKey, customers.customerId, accounts.accountId)
    .limit(1);
  return row ?? null;
}
