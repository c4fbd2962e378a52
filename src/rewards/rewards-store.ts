// The rewards categories an account earns under: its product's, read inside the key lookup's own
// statement (one D1 round trip) with the account's owner, which the route checks before using them.
import { eq, sql } from "drizzle-orm";
import { accounts } from "../accounts/schema";
import { type BoundQuery, keyLookup, type ReadAhead, readAlone } from "../db/key-lookup";
import { products } from "../db/schema";
import type { RewardsCategory } from "../domain/rewards";
import { type AccountOwner, OWNER, ownerOf } from "../statements";

/**
 * The categories of the product the account `accountId` belongs to, by the account's and the
 * product's primary keys: the JSON array the operator import stored, or null.
 */
const CATEGORIES = sql<string>`(SELECT ${products.rewardsCategories} FROM ${products} WHERE ${
  products.merchantKey
} = (SELECT ${accounts.merchantKey} FROM ${accounts} WHERE ${eq(
  accounts.accountId,
  sql.placeholder("accountId"),
)}))`;

/** The key lookup with both reads, built on first use (OWNER comes from another feature). */
let lookup: ReturnType<typeof keyLookup> | undefined;

/** What the read found: the account's owner (null: no such account) and its product's categories. */
export interface CategoriesRead {
  owner: AccountOwner | null | undefined;
  categories: RewardsCategory[];
}

/**
 * The reads of an account's categories, planned before authentication: rows read are the key, its
 * partner, the account (twice, by its key) and its product. Nothing read is used before the route
 * has checked the owner against the caller.
 */
export function accountCategoriesReads(accountId: string): ReadAhead<CategoriesRead> {
  lookup ??= keyLookup({ owner: OWNER, categories: CATEGORIES });
  return {
    lookup,
    values: { accountId },
    read: (results) => ({ owner: ownerOf(results), categories: categoriesOf(results.categories) }),
  };
}

/** The categories a CATEGORIES read found; none for a product without them. */
function categoriesOf(raw: unknown): RewardsCategory[] {
  if (typeof raw !== "string") return [];
  // The column holds JSON the operator import wrote from a list its schema validated.
  return JSON.parse(raw) as RewardsCategory[];
}

const categoriesAlone = readAlone(() => sql`SELECT ${CATEGORIES} AS categories`);

/**
 * The SQL and values of the categories read on its own, without the key lookup or the owner: the
 * bench's floor runs it as the least the list can cost.
 */
export function accountCategoriesAlone(accountId: string): BoundQuery {
  return categoriesAlone({ accountId });
}
