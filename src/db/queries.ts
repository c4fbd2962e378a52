// The few queries the partner routes need, each one indexed round trip (a batch counts as one).
import { and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Caller } from "../app/context";
import type { PagePosition } from "../domain/page-token";
import type { Database } from "./client";
import { accounts, apiKeys, customers, partners, statements } from "./schema";

/** The live key with this hash, its partner's saved version and products; null if none. */
export async function findCallerByKeyHash(db: Database, keyHash: string): Promise<Caller | null> {
  const [row] = await db
    .select({
      keyId: apiKeys.keyId,
      partnerId: apiKeys.partnerId,
      environment: apiKeys.environment,
      scopes: apiKeys.scopes,
      savedVersionSandbox: partners.savedVersionSandbox,
      savedVersionProduction: partners.savedVersionProduction,
      merchantKeys: partners.merchantKeys,
    })
    .from(apiKeys)
    .innerJoin(partners, eq(partners.partnerId, apiKeys.partnerId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  return {
    keyId: row.keyId,
    partnerId: row.partnerId,
    environment: row.environment,
    scopes: JSON.parse(row.scopes) as string[],
    savedVersion:
      row.environment === "sandbox" ? row.savedVersionSandbox : row.savedVersionProduction,
    merchantKeys: JSON.parse(row.merchantKeys) as string[],
  };
}

/** Where a customer-scoped read may look: the caller's partner, environment and product. */
export interface ReadScope {
  partnerId: string;
  environment: string;
  merchantKey: string;
}

/** Matches a customer only inside the read scope; anything else is indistinguishable from absent. */
export function customerInScope(scope: ReadScope, customerId: string): SQL {
  return and(
    eq(customers.customerId, customerId),
    eq(customers.partnerId, scope.partnerId),
    eq(customers.environment, scope.environment as "sandbox" | "production"),
    eq(customers.merchantKey, scope.merchantKey),
  ) as SQL;
}

export type StatementRow = typeof statements.$inferSelect;

export interface StatementPage {
  customerFound: boolean;
  accountFound: boolean;
  /** Up to `limit + 1` visible rows, newest first; the extra row only signals `has_more`. */
  rows: StatementRow[];
}

/**
 * One round trip: the ownership check and the keyset page of visible statements after `after`,
 * through `statements_page_idx`. The check reads the account row alone when it belongs to the
 * customer in scope (its scope columns are copies of the customer's); only on a miss does it read
 * the customer, to tell which of the two is not found. A continuation page (`after` set) skips the
 * check: its keyset seek already reads one row more than the page (SQLite seeks a row-value bound
 * on its first column), and its signed token proves the check passed for the same binding.
 */
export async function readStatementPage(
  db: Database,
  scope: ReadScope,
  customerId: string,
  accountId: string,
  after: PagePosition | null,
  limit: number,
): Promise<StatementPage> {
  const accountInScope = and(
    eq(accounts.accountId, accountId),
    eq(accounts.customerId, customerId),
    eq(accounts.partnerId, scope.partnerId),
    eq(accounts.environment, scope.environment as "sandbox" | "production"),
    eq(accounts.merchantKey, scope.merchantKey),
  );
  const ownership = db
    .select({
      found: sql<number>`CASE
        WHEN EXISTS (SELECT 1 FROM ${accounts} WHERE ${accountInScope}) THEN 2
        WHEN EXISTS (SELECT 1 FROM ${customers} WHERE ${customerInScope(scope, customerId)}) THEN 1
        ELSE 0 END`,
    })
    .from(sql`(SELECT 1)`);
  const visible = and(eq(statements.accountId, accountId), isNull(statements.hiddenAt));
  const page = db
    .select()
    .from(statements)
    .where(
      after
        ? and(
            visible,
            sql`(${statements.periodEndDate}, ${statements.statementId}) < (${after.periodEndDate}, ${after.statementId})`,
          )
        : visible,
    )
    .orderBy(desc(statements.periodEndDate), desc(statements.statementId))
    .limit(limit + 1);
  // A continuation page carries a token issued, under this very binding (partner, environment,
  // product, customer, account), only after a successful check; ownership never changes after
  // import, so checking it again would only cost a read.
  if (after) return { customerFound: true, accountFound: true, rows: await page };
  const [[check], rows] = await db.batch([ownership, page]);
  const found = check?.found ?? 0;
  return { customerFound: found >= 1, accountFound: found === 2, rows: found === 2 ? rows : [] };
}
