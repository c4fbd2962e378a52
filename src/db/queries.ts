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
import { QueryBuilder, type SQLiteColumn } from "drizzle-orm/sqlite-core";
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

/**
 * When a key may authenticate: its hash matches and it is live at the request's `now`. The key
 * lookup filters on it, and every read planned before authentication is driven by the row it
 * selects (see `statementPageReads`), so a key that fails it reads nothing else.
 */
const LIVE_KEY = and(eq(apiKeys.keyHash, placeholder("keyHash")), keyIsLive(placeholder("now")));

/** What authentication needs to know about the caller: the key's row and its partner's. */
const CALLER_COLUMNS = {
  keyId: apiKeys.keyId,
  partnerId: apiKeys.partnerId,
  environment: apiKeys.environment,
  scopes: apiKeys.scopes,
  lastUsedOn: apiKeys.lastUsedOn,
  savedVersionSandbox: partners.savedVersionSandbox,
  savedVersionProduction: partners.savedVersionProduction,
  merchantKeys: partners.merchantKeys,
};

/** The caller's columns and `extra`, from the live key's row and its partner's. */
function fromLiveKey<Extra extends Record<string, SQLiteColumn | SQL.Aliased>>(extra: Extra) {
  return qb
    .select({ ...CALLER_COLUMNS, ...extra })
    .from(apiKeys)
    .innerJoin(partners, eq(partners.partnerId, apiKeys.partnerId));
}

const KEY_LOOKUP = fromLiveKey({}).where(LIVE_KEY).toSQL();

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
 * Reads a route plans before authentication, given the key's hash and the request's instant. The
 * first statement replaces the key lookup: it selects the caller's columns from the live key
 * (`fromLiveKey`) with the route's rows joined, so an unknown, revoked or expired key reads none
 * of them.
 */
export type ReadAhead = (keyHash: string, now: string) => D1PreparedStatement[];

function callerOf(row: KeyRow): Caller {
  return {
    keyId: row.key_id,
    partnerId: row.partner_id,
    environment: row.environment,
    scopes: JSON.parse(row.scopes) as string[],
    lastUsedOn: row.last_used_on,
    savedVersion:
      row.environment === "sandbox" ? row.saved_version_sandbox : row.saved_version_production,
    merchantKeys: JSON.parse(row.merchant_keys) as string[],
  };
}

/**
 * The live key with this hash, with its partner's saved versions and products (null if none): one
 * round trip, which also carries the reads a route planned (`readAhead`), answered in `readAhead`.
 * Those results must only be used once the caller is known to own what they hold.
 */
export async function findCallerByKeyHash(
  db: Database,
  keyHash: string,
  now: Date,
  readAhead?: ReadAhead,
): Promise<{ caller: Caller | null; readAhead: D1Result[] }> {
  const at = now.toISOString();
  const results = await db.$client.batch(
    readAhead ? readAhead(keyHash, at) : [bound(db, KEY_LOOKUP, { keyHash, now: at })],
  );
  const row = results[0]?.results[0] as KeyRow | undefined;
  return { caller: row ? callerOf(row) : null, readAhead: results };
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

/** [field, column] pairs of a statement row, to map D1's column-named objects. */
const STATEMENT_COLUMNS = Object.entries(getTableColumns(statements)).map(
  ([field, column]) => [field, column.name] as const,
);

// The account's owner, aliased: its columns share names with the key's.
const OWNER_COLUMNS = {
  ownerCustomerId: sql<string>`${accounts.customerId}`.as("owner_customer_id"),
  ownerPartnerId: sql<string>`${accounts.partnerId}`.as("owner_partner_id"),
  ownerEnvironment: sql<string>`${accounts.environment}`.as("owner_environment"),
  ownerMerchantKey: sql<string>`${accounts.merchantKey}`.as("owner_merchant_key"),
};

const visibleStatements = and(
  eq(statements.accountId, placeholder("accountId")),
  isNull(statements.hiddenAt),
);
const newestFirst = [desc(statements.periodEndDate), desc(statements.statementId)];
const keysetAfter = sql`(${statements.periodEndDate}, ${statements.statementId}) < (${placeholder("afterEnd")}, ${placeholder("afterId")})`;
// Filtered listings: the bounds are one range of the same index. A continuation needs no upper
// bound: its position, taken from a row that passed the filter, is already below it.
const fromBound = gte(statements.periodEndDate, placeholder("gte"));
const belowBound = lt(statements.periodEndDate, placeholder("lt"));

/**
 * A first page in one statement, driven by the live key's row: the caller, the account's owner
 * (a left join, so a missing account still yields the caller) and up to `limit` visible
 * statements matching `on`, newest first, through `statements_page_idx`. The statements' terms
 * sit in the join, not the WHERE clause, so a page without statements still yields the caller.
 */
const firstPage = (on: SQL | undefined) =>
  fromLiveKey({ ...OWNER_COLUMNS, ...getTableColumns(statements) })
    .leftJoin(accounts, eq(accounts.accountId, placeholder("accountId")))
    .leftJoin(statements, on)
    .where(LIVE_KEY)
    .orderBy(...newestFirst)
    .limit(placeholder("limit"))
    .toSQL();

/** A continuation page: the same, after the token's position and without the owner. */
const nextPage = (on: SQL | undefined) =>
  fromLiveKey(getTableColumns(statements))
    .leftJoin(statements, on)
    .where(LIVE_KEY)
    .orderBy(...newestFirst)
    .limit(placeholder("limit"))
    .toSQL();

const FIRST_PAGE = firstPage(visibleStatements);
const NEXT_PAGE = nextPage(and(visibleStatements, keysetAfter));
const FIRST_FILTERED_PAGE = firstPage(and(visibleStatements, fromBound, belowBound));
const NEXT_FILTERED_PAGE = nextPage(and(visibleStatements, fromBound, keysetAfter));

/** Bounds on `period_end_date` (normalised timestamps); an absent bound does not filter. */
export interface PeriodEndBounds {
  gte?: string;
  lt?: string;
}
// Every stored date (`YYYY-…`) sorts after "" and before "~".
const NO_LOWER_BOUND = "";
const NO_UPPER_BOUND = "~";

function toStatementRow(raw: Record<string, unknown>): StatementRow {
  const row: Record<string, unknown> = {};
  for (const [field, column] of STATEMENT_COLUMNS) row[field] = raw[column];
  return row as StatementRow;
}

/**
 * The reads of a statements page, planned from the request alone so that they travel with the
 * key lookup: one statement that is the key lookup itself, joined with the account's owner
 * (first page only) and up to `limit + 1` visible statements after `after` (the extra row only
 * signals `has_more`). Rows read: the key, its partner, the account, the page, and nothing at all
 * past the key for a key that is not live. A continuation page skips the owner: its token,
 * signed under the very binding the owner check proved, is issued only after that check, and
 * ownership never changes.
 */
export function statementPageReads(
  db: Database,
  accountId: string,
  after: PagePosition | null,
  limit: number,
  bounds?: PeriodEndBounds,
): ReadAhead {
  const filtered = bounds !== undefined && (bounds.gte !== undefined || bounds.lt !== undefined);
  const values = { accountId, limit: limit + 1 };
  const position = after && { afterEnd: after.periodEndDate, afterId: after.statementId };
  const range = { gte: bounds?.gte ?? NO_LOWER_BOUND, lt: bounds?.lt ?? NO_UPPER_BOUND };
  return (keyHash, now) => {
    const key = { keyHash, now };
    if (!filtered) {
      return [
        position
          ? bound(db, NEXT_PAGE, { ...key, ...values, ...position })
          : bound(db, FIRST_PAGE, { ...key, ...values }),
      ];
    }
    return [
      position
        ? bound(db, NEXT_FILTERED_PAGE, { ...key, ...values, ...position, gte: range.gte })
        : bound(db, FIRST_FILTERED_PAGE, { ...key, ...values, ...range }),
    ];
  };
}

/**
 * A first page of an account's visible statements read without a key: for the dashboard's
 * version preview, whose caller the dashboard session already authorised.
 */
export async function readFirstStatementPage(
  db: Database,
  accountId: string,
  limit: number,
): Promise<StatementRow[]> {
  return db
    .select()
    .from(statements)
    .where(and(eq(statements.accountId, accountId), isNull(statements.hiddenAt)))
    .orderBy(...newestFirst)
    .limit(limit + 1);
}

/** Splits the results of `statementPageReads` into the owner (first page only) and the rows. */
export function statementPageResults(
  results: readonly D1Result[],
  continuation: boolean,
): { owner: AccountOwner | null | undefined; rows: StatementRow[] } {
  const raw = (results[0]?.results ?? []) as Record<string, unknown>[];
  // The left join yields one row of nulls for a page without statements.
  const rows = raw.filter((r) => r.statement_id !== null).map(toStatementRow);
  if (continuation) return { owner: undefined, rows };
  const first = raw[0] as
    | {
        owner_customer_id: string | null;
        owner_partner_id: string;
        owner_environment: string;
        owner_merchant_key: string;
      }
    | undefined;
  return {
    owner:
      first && first.owner_customer_id !== null
        ? {
            customerId: first.owner_customer_id,
            partnerId: first.owner_partner_id,
            environment: first.owner_environment,
            merchantKey: first.owner_merchant_key,
          }
        : null,
    rows,
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
