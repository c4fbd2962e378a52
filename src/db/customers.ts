// Customer reads and the read scope every customer-scoped read stays inside: each one indexed
// round trip, paged by id.
import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import type { Caller } from "../domain/caller";
import type { CustomerRecord } from "../domain/customer";
import type { Environment } from "../domain/environment";
import { allOf } from "./batch";
import type { Database } from "./client";
import { customers } from "./schema";

/** Where a customer-scoped read may look: the caller's partner, environment and product. */
export interface ReadScope {
  partnerId: string;
  environment: Environment;
  merchantKey: string;
}

/** Matches a customer only inside the read scope; anything else is indistinguishable from absent. */
export function customerInScope(scope: ReadScope, customerId: string): SQL {
  return allOf(
    eq(customers.customerId, customerId),
    eq(customers.partnerId, scope.partnerId),
    eq(customers.environment, scope.environment),
    eq(customers.merchantKey, scope.merchantKey),
  );
}

/** The customer in the partner's environment, of whichever of its products. */
export function customerOfPartner(
  partnerId: string,
  environment: Environment,
  customerId: string,
): SQL {
  return allOf(
    eq(customers.customerId, customerId),
    eq(customers.partnerId, partnerId),
    eq(customers.environment, environment),
  );
}

/** Whether the customer exists inside the read scope (one indexed row). */
export async function customerExists(
  db: Database,
  scope: ReadScope,
  customerId: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: customers.customerId })
    .from(customers)
    .where(customerInScope(scope, customerId));
  return rows.length > 0;
}

/** A customer-scoped request's read scope: the caller's partner and environment, one product. */
export function readScopeOf(caller: Caller, merchantKey: string): ReadScope {
  return { partnerId: caller.partnerId, environment: caller.environment, merchantKey };
}

/** Every customer of the read scope: the leading columns of `customers_scope_idx`. */
function customersOfScope(scope: ReadScope): SQL {
  return allOf(
    eq(customers.partnerId, scope.partnerId),
    eq(customers.environment, scope.environment),
    eq(customers.merchantKey, scope.merchantKey),
  );
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
 * One round trip: the customer if it belongs to the partner's environment (any of its products),
 * with the read scope it lives in; else null. For the dashboard, whose users see every product of
 * their partner; everything read after it stays inside that scope.
 */
export async function findPartnerCustomer(
  db: Database,
  partnerId: string,
  environment: Environment,
  customerId: string,
): Promise<{ customer: CustomerRecord; scope: ReadScope & { environment: Environment } } | null> {
  const [row] = await db
    .select({ ...customerFields, merchantKey: customers.merchantKey })
    .from(customers)
    .where(customerOfPartner(partnerId, environment, customerId));
  if (!row) return null;
  const { merchantKey, ...customer } = row;
  return { customer, scope: { partnerId, environment, merchantKey } };
}

/**
 * Whether the read scope a customer was stored in (as a read planned before authentication found
 * it; null for no such customer) is `scope`: what such a read checks before anything it read of
 * the customer is used.
 */
export function storedInScope(stored: ReadScope | null, scope: ReadScope): boolean {
  return (
    stored !== null &&
    stored.partnerId === scope.partnerId &&
    stored.environment === scope.environment &&
    stored.merchantKey === scope.merchantKey
  );
}
