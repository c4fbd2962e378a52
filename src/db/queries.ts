// The few queries the partner routes need, each one indexed round trip (a batch counts as one).
import {
  and,
  desc,
  eq,
  fillPlaceholders,
  getTableColumns,
  gt,
  gte,
  isNull,
  lt,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/sqlite-core";
import type { Caller } from "../app/context";
import type { PagePosition } from "../domain/page-token";
import type { Database } from "./client";
import { accounts, apiKeys, customers, partners, statements } from "./schema";

// The hot path's SQL is built once per isolate from the schema, with placeholders, and only bound
// per request: building a drizzle query costs more CPU than the rest of a request's own work.
const qb = new QueryBuilder();
const placeholder = sql.placeholder;

/**
 * The one definition of a live key: not revoked, and not past its expiry at `now` (the request
 * clock, RFC 3339 UTC, which sorts like the stored instants). Every read gated on a key uses it.
 */
export function keyIsLive(now: SQLWrapper | string): SQL {
  return and(
    isNull(apiKeys.revokedAt),
    or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
  ) as SQL;
}

const KEY_LOOKUP = qb
  .select({
    keyId: apiKeys.keyId,
    partnerId: apiKeys.partnerId,
    environment: apiKeys.environment,
    scopes: apiKeys.scopes,
    lastUsedOn: apiKeys.lastUsedOn,
    savedVersionSandbox: partners.savedVersionSandbox,
    savedVersionProduction: partners.savedVersionProduction,
    merchantKeys: partners.merchantKeys,
  })
  .from(apiKeys)
  .innerJoin(partners, eq(partners.partnerId, apiKeys.partnerId))
  .where(and(eq(apiKeys.keyHash, placeholder("keyHash")), keyIsLive(placeholder("now"))))
  .toSQL();

interface KeyRow {
  key_id: string;
  partner_id: string;
  environment: "sandbox" | "production";
  scopes: string;
  last_used_on: string | null;
  saved_version_sandbox: string;
  saved_version_production: string;
  merchant_keys: string;
}

/** A prebuilt query bound to this request's values, on the request's counting D1 client. */
function bound(
  db: Database,
  query: { sql: string; params: unknown[] },
  values: Record<string, unknown>,
): D1PreparedStatement {
  return db.$client.prepare(query.sql).bind(...fillPlaceholders(query.params, values));
}

/**
 * The key with this hash if it is live at `now`, with its partner's saved versions and products
 * (null if none), and the results of `readAhead`: statements sent in the same batch, so that a
 * route's reads share the key lookup's round trip. Their results must only be used once the
 * caller is known to own them.
 */
export async function findCallerByKeyHash(
  db: Database,
  keyHash: string,
  now: Date,
  readAhead: readonly D1PreparedStatement[] = [],
): Promise<{ caller: Caller | null; readAhead: D1Result[] }> {
  const [lookup, ...results] = await db.$client.batch([
    bound(db, KEY_LOOKUP, { keyHash, now: now.toISOString() }),
    ...readAhead,
  ]);
  const row = lookup?.results[0] as KeyRow | undefined;
  if (!row) return { caller: null, readAhead: results };
  const caller: Caller = {
    keyId: row.key_id,
    partnerId: row.partner_id,
    environment: row.environment,
    scopes: JSON.parse(row.scopes) as string[],
    lastUsedOn: row.last_used_on,
    savedVersion:
      row.environment === "sandbox" ? row.saved_version_sandbox : row.saved_version_production,
    merchantKeys: JSON.parse(row.merchant_keys) as string[],
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

const visibleStatements = and(
  eq(statements.accountId, placeholder("accountId")),
  isNull(statements.hiddenAt),
);
const pageQuery = (where: SQL | undefined) =>
  qb
    .select()
    .from(statements)
    .where(where)
    .orderBy(desc(statements.periodEndDate), desc(statements.statementId))
    .limit(placeholder("limit"))
    .toSQL();
const FIRST_PAGE = pageQuery(visibleStatements);
const keysetAfter = sql`(${statements.periodEndDate}, ${statements.statementId}) < (${placeholder("afterEnd")}, ${placeholder("afterId")})`;
const NEXT_PAGE = pageQuery(and(visibleStatements, keysetAfter));
// Filtered listings: the bounds are one range of the same index. A continuation needs no upper
// bound: its position, taken from a row that passed the filter, is already below it.
const fromBound = gte(statements.periodEndDate, placeholder("gte"));
const FIRST_FILTERED_PAGE = pageQuery(
  and(visibleStatements, fromBound, lt(statements.periodEndDate, placeholder("lt"))),
);
const NEXT_FILTERED_PAGE = pageQuery(and(visibleStatements, fromBound, keysetAfter));

/** Bounds on `period_end_date` (normalised timestamps); an absent bound does not filter. */
export interface PeriodEndBounds {
  gte?: string;
  lt?: string;
}
// Every stored date (`YYYY-…`) sorts after "" and before "~".
const NO_LOWER_BOUND = "";
const NO_UPPER_BOUND = "~";
const ACCOUNT_OWNER = qb
  .select({
    customerId: accounts.customerId,
    partnerId: accounts.partnerId,
    environment: accounts.environment,
    merchantKey: accounts.merchantKey,
  })
  .from(accounts)
  .where(eq(accounts.accountId, placeholder("accountId")))
  .toSQL();

/** [field, column] pairs of a statement row, to map D1's column-named objects. */
const STATEMENT_COLUMNS = Object.entries(getTableColumns(statements)).map(
  ([field, column]) => [field, column.name] as const,
);

function toStatementRow(raw: Record<string, unknown>): StatementRow {
  const row: Record<string, unknown> = {};
  for (const [field, column] of STATEMENT_COLUMNS) row[field] = raw[column];
  return row as StatementRow;
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
  bounds?: PeriodEndBounds,
): D1PreparedStatement[] {
  if (bounds && (bounds.gte !== undefined || bounds.lt !== undefined)) {
    return filteredPageReads(db, accountId, after, limit, bounds);
  }
  if (after) {
    return [
      bound(db, NEXT_PAGE, {
        accountId,
        limit: limit + 1,
        afterEnd: after.periodEndDate,
        afterId: after.statementId,
      }),
    ];
  }
  return [
    bound(db, ACCOUNT_OWNER, { accountId }),
    bound(db, FIRST_PAGE, { accountId, limit: limit + 1 }),
  ];
}

function filteredPageReads(
  db: Database,
  accountId: string,
  after: PagePosition | null,
  limit: number,
  bounds: PeriodEndBounds,
): D1PreparedStatement[] {
  const gte = bounds.gte ?? NO_LOWER_BOUND;
  if (after) {
    return [
      bound(db, NEXT_FILTERED_PAGE, {
        accountId,
        limit: limit + 1,
        gte,
        afterEnd: after.periodEndDate,
        afterId: after.statementId,
      }),
    ];
  }
  return [
    bound(db, ACCOUNT_OWNER, { accountId }),
    bound(db, FIRST_FILTERED_PAGE, {
      accountId,
      limit: limit + 1,
      gte,
      lt: bounds.lt ?? NO_UPPER_BOUND,
    }),
  ];
}

/** Splits the results of `statementPageReads` into the owner (first page only) and the rows. */
export function statementPageResults(
  results: readonly D1Result[],
  continuation: boolean,
): { owner: AccountOwner | null | undefined; rows: StatementRow[] } {
  const [first, second] = results;
  if (continuation) {
    return {
      owner: undefined,
      rows: (first?.results ?? []).map((r) => toStatementRow(r as Record<string, unknown>)),
    };
  }
  const owner = first?.results[0] as
    | { customer_id: string; partner_id: string; environment: string; merchant_key: string }
    | undefined;
  return {
    owner: owner
      ? {
          customerId: owner.customer_id,
          partnerId: owner.partner_id,
          environment: owner.environment,
          merchantKey: owner.merchant_key,
        }
      : null,
    rows: (second?.results ?? []).map((r) => toStatementRow(r as Record<string, unknown>)),
  };
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
