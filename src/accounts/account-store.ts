// Account reads: each one indexed round trip (a batch counts as one), paged by id, inside the
// customer's read scope.
import { and, asc, eq, getTableColumns, gt, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { customerInScope, customerOfPartner, type ReadScope } from "../db/customers";
import { customers } from "../db/schema";
import type { Environment } from "../domain/environment";
import { accounts } from "./schema";

export type AccountRow = typeof accounts.$inferSelect;

/**
 * The accounts page query: a range scan of `accounts_customer_idx` from `after` (exclusive). The
 * join repeats the read scope, so the page itself can never hold another partner's account.
 */
export function accountPageQuery(
  db: Database,
  scope: ReadScope,
  customerId: string,
  after: string | null,
  limit: number,
) {
  const ofCustomer = and(customerInScope(scope, customerId), eq(accounts.customerId, customerId));
  return db
    .select(getTableColumns(accounts))
    .from(accounts)
    .innerJoin(customers, eq(customers.customerId, accounts.customerId))
    .where(after === null ? ofCustomer : and(ofCustomer, gt(accounts.accountId, after)))
    .orderBy(asc(accounts.accountId))
    .limit(limit + 1);
}

export interface AccountPage {
  customerFound: boolean;
  /** Up to `limit + 1` accounts in id order; the extra row only signals `has_more`. */
  rows: AccountRow[];
}

/** One round trip: whether the customer is in scope, and the page of its accounts after `after`. */
export async function readAccountPage(
  db: Database,
  scope: ReadScope,
  customerId: string,
  after: string | null,
  limit: number,
): Promise<AccountPage> {
  const owner = db
    .select({ customerId: customers.customerId })
    .from(customers)
    .where(customerInScope(scope, customerId));
  const [[found], rows] = await db.batch([
    owner,
    accountPageQuery(db, scope, customerId, after, limit),
  ]);
  return { customerFound: found !== undefined, rows: found === undefined ? [] : rows };
}

export interface AccountLookup {
  customerFound: boolean;
  account: AccountRow | null;
}

/**
 * The customer `where` selects, with its product, and its account `accountId` if it has that one
 * (null otherwise); undefined when no customer matches. One round trip.
 */
async function customerWithAccount(db: Database, where: SQL, accountId: string) {
  // Account columns plus one aliased column: no two result columns share a name.
  const [row] = await db
    .select({ product: sql<string>`${customers.merchantKey}`.as("product"), account: accounts })
    .from(customers)
    .leftJoin(
      accounts,
      and(eq(accounts.customerId, customers.customerId), eq(accounts.accountId, accountId)),
    )
    .where(where);
  return row;
}

/** One round trip: the customer in scope, and its account `accountId` if it has one. */
export async function findAccount(
  db: Database,
  scope: ReadScope,
  customerId: string,
  accountId: string,
): Promise<AccountLookup> {
  const row = await customerWithAccount(db, customerInScope(scope, customerId), accountId);
  return { customerFound: row !== undefined, account: row?.account ?? null };
}

/**
 * A dashboard user's read of one account, one round trip: the customer in the partner's
 * environment (of whichever product) with its read scope, and its account if it has that one;
 * null when the partner has no such customer there.
 */
export async function findPartnerAccount(
  db: Database,
  partnerId: string,
  environment: Environment,
  customerId: string,
  accountId: string,
): Promise<{ scope: ReadScope & { environment: Environment }; account: AccountRow | null } | null> {
  const where = customerOfPartner(partnerId, environment, customerId);
  const row = await customerWithAccount(db, where, accountId);
  if (!row) return null;
  return { scope: { partnerId, environment, merchantKey: row.product }, account: row.account };
}
