// The few queries the partner routes need, each one indexed round trip (a batch counts as one).
import { and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Caller } from "../app/context";
import type { PagePosition } from "../domain/page-token";
import type { Database } from "./client";
import { accounts, apiKeys, customers, partners, statements } from "./schema";

function keyLookup(db: Database, keyHash: string) {
  return db
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
}

/**
 * The live key with this hash, with its partner's saved versions and products (null if none), and
 * the results of `readAhead`: queries sent in the same batch, so that a route's reads share the
 * key lookup's round trip. Their results must only be used once the caller is known to own them.
 */
export async function findCallerByKeyHash(
  db: Database,
  keyHash: string,
  readAhead: readonly BatchItem<"sqlite">[] = [],
): Promise<{ caller: Caller | null; readAhead: unknown[] }> {
  const [rows, ...results] = (await db.batch([keyLookup(db, keyHash), ...readAhead])) as [
    Awaited<ReturnType<typeof keyLookup>>,
    ...unknown[],
  ];
  const row = rows[0];
  if (!row) return { caller: null, readAhead: results };
  const caller: Caller = {
    keyId: row.keyId,
    partnerId: row.partnerId,
    environment: row.environment,
    scopes: JSON.parse(row.scopes) as string[],
    savedVersion:
      row.environment === "sandbox" ? row.savedVersionSandbox : row.savedVersionProduction,
    merchantKeys: JSON.parse(row.merchantKeys) as string[],
  };
  return { caller, readAhead: results };
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

/** The owner of an account: its customer and that customer's read scope (copied at import). */
export interface AccountOwner {
  customerId: string;
  partnerId: string;
  environment: string;
  merchantKey: string;
}

/**
 * The reads of a statements page, all answerable without knowing the caller, so they can travel
 * in the key lookup's batch: the account's owner (first page only) and up to `limit + 1` visible
 * statements after `after`, newest first, through `statements_page_idx` (the extra row only
 * signals `has_more`). A continuation page skips the owner: its token, signed under the very
 * binding the owner check proved, is issued only after that check, and ownership never changes.
 */
export function statementPageReads(
  db: Database,
  accountId: string,
  after: PagePosition | null,
  limit: number,
): BatchItem<"sqlite">[] {
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
  if (after) return [page];
  const owner = db
    .select({
      customerId: accounts.customerId,
      partnerId: accounts.partnerId,
      environment: accounts.environment,
      merchantKey: accounts.merchantKey,
    })
    .from(accounts)
    .where(eq(accounts.accountId, accountId));
  return [owner, page];
}

/** Splits the results of `statementPageReads` into the owner (first page only) and the rows. */
export function statementPageResults(
  results: readonly unknown[],
  continuation: boolean,
): { owner: AccountOwner | null | undefined; rows: StatementRow[] } {
  if (continuation) return { owner: undefined, rows: results[0] as StatementRow[] };
  const [owners, rows] = results as [AccountOwner[], StatementRow[]];
  return { owner: owners[0] ?? null, rows };
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
