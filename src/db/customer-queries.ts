// Customer and account reads: each one indexed round trip (a batch counts as one), paged by id.
import { and, asc, eq, getTableColumns, gt, type SQL, sql } from "drizzle-orm";
import type { Caller } from "../domain/caller";
import type { CustomerRecord } from "../domain/customer";
import type { Environment } from "../domain/environment";
import type { Database } from "./client";
import { customerInScope, type ReadScope } from "./queries";
import { accounts, customers } from "./schema";

export type CustomerRow = typeof customers.$inferSelect;
export type AccountRow = typeof accounts.$inferSelect;

/** A customer-scoped request's read scope: the caller's partner and environment, one product. */
export function readScopeOf(
  caller: Caller,
  merchantKey: string,
): ReadScope & { environment: Environment } {
  return { partnerId: caller.partnerId, environment: caller.environment, merchantKey };
}

/** Every customer of the read scope: the leading columns of `customers_scope_idx`. */
function customersOfScope(scope: ReadScope): SQL {
  return and(
    eq(customers.partnerId, scope.partnerId),
    eq(customers.environment, scope.environment as "sandbox" | "production"),
    eq(customers.merchantKey, scope.merchantKey),
  ) as SQL;
}

/** The customers page query: a range scan of `customers_scope_idx` from `after` (exclusive). */
export function customerPageQuery(
  db: Database,
  scope: ReadScope,
  after: string | null,
  limit: number,
) {
  const inScope = customersOfScope(scope);
  return db
    .select({
      customerId: customers.customerId,
      partnerCustomerId: customers.partnerCustomerId,
    })
    .from(customers)
    .where(after === null ? inScope : and(inScope, gt(customers.customerId, after)))
    .orderBy(asc(customers.customerId))
    .limit(limit + 1);
}

/** One round trip: up to `limit + 1` of the scope's customers after `after`, in id order. */
export function readCustomerPage(
  db: Database,
  scope: ReadScope,
  after: string | null,
  limit: number,
): Promise<CustomerRecord[]> {
  return customerPageQuery(db, scope, after, limit);
}

const customerFields = {
  customerId: customers.customerId,
  partnerCustomerId: customers.partnerCustomerId,
  authorizedUsers: customers.authorizedUsers,
};

/** One round trip: the customer if it is inside the read scope, else null. */
export async function findCustomer(
  db: Database,
  scope: ReadScope,
  customerId: string,
): Promise<CustomerRecord | null> {
  const [row] = await db
    .select(customerFields)
    .from(customers)
    .where(customerInScope(scope, customerId));
  return row ?? null;
}

/**
 * One round trip: sets the partner's identifier of a customer inside the read scope and returns
 * the customer as it now stands, or null when there is no such customer. Setting the same value
 * again changes nothing, so a retried link is harmless.
 */
export async function linkCustomer(
  db: Database,
  scope: ReadScope,
  customerId: string,
  partnerCustomerId: string,
): Promise<CustomerRecord | null> {
  const [row] = await db
    .update(customers)
    .set({ partnerCustomerId })
    .where(customerInScope(scope, customerId))
    .returning(customerFields);
  return row ?? null;
}

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

/** One round trip: the customer in scope, and its account `accountId` if it has one. */
export async function findAccount(
  db: Database,
  scope: ReadScope,
  customerId: string,
  accountId: string,
): Promise<AccountLookup> {
  // Only account columns plus one aliased marker: no two result columns share a name.
  const [row] = await db
    .select({ owner: sql<string>`${customers.customerId}`.as("owner"), account: accounts })
    .from(customers)
    .leftJoin(
      accounts,
      and(eq(accounts.customerId, customers.customerId), eq(accounts.accountId, accountId)),
    )
    .where(customerInScope(scope, customerId));
  return { customerFound: row !== undefined, account: row?.account ?? null };
}
