// Sandbox data made on request, in D1: a customer with its open account (one batch, within the
// sandbox's customer quota), the account a cycle closes on with its newest statement (one round
// trip), and the closed cycle (one batch: the statement, the account's new balance, its
// `statement.created` event with webhook deliveries, its render and the day's count), guarded so
// that two cycles closing at once cannot break the chain of balances nor pass the daily quota.
import { and, desc, eq, getTableColumns, isNull, type SQL, sql } from "drizzle-orm";
import { accounts } from "../accounts/schema";
import { atomically, insertWhere } from "../db/batch";
import type { Database } from "../db/client";
import { customerInScope, type ReadScope } from "../db/customers";
import { customers, products } from "../db/schema";
import { type RenderRef, renderRefsOf, renderRequestWrites } from "../documents";
import { statementRenders } from "../documents/schema";
import type { AccountRecord } from "../domain/account";
import type { CustomerRecord } from "../domain/customer";
import { encodeIdSuffix } from "../domain/ids";
import type { RewardsCategory } from "../domain/rewards";
import type { StatementRecord } from "../domain/statement";
import type { StatementInput } from "../domain/statement-item";
import {
  guardedStatementInsert,
  lineItemInserts,
  lineItemsDigest,
  statementRecordOf,
  statementRowOf,
} from "../statements";
import { statements } from "../statements/schema";
import { type DeliveryRef, deliveriesOf, statementEventWrites } from "../webhook-deliveries";
import type { ClosedCycle, PreviousStatement } from "./cycle";
import { sandboxUsage } from "./schema";

/** A new sandbox customer's one open account. */
export interface NewAccount {
  currency: string;
  creditLimit: number;
}

/**
 * Creates a customer of the read scope with one open account, in one batch, unless the partner's
 * environment already holds `maxCustomers` customers (null then; counted up to the cap only).
 */
export async function createCustomer(
  db: Database,
  scope: ReadScope & { environment: "sandbox" | "production" },
  partnerCustomerId: string | null,
  account: NewAccount,
  now: Date,
  maxCustomers: number,
): Promise<{ customer: CustomerRecord; account: AccountRecord } | null> {
  const createdAt = now.toISOString();
  const customer = {
    customerId: `cus_${encodeIdSuffix(now.getTime())}`,
    partnerCustomerId,
    authorizedUsers: null,
  };
  const opened: AccountRecord = {
    accountId: `acc_${encodeIdSuffix(now.getTime())}`,
    customerId: customer.customerId,
    status: "OPEN",
    currency: account.currency,
    creditLimit: account.creditLimit,
    currentBalance: 0,
    availableCredit: account.creditLimit,
  };
  const owner = {
    partnerId: scope.partnerId,
    environment: scope.environment,
    merchantKey: scope.merchantKey,
  };
  const held = sql`(SELECT count(*) FROM (SELECT 1 FROM customers
    WHERE partner_id = ${scope.partnerId} AND environment = ${scope.environment}
    LIMIT ${maxCustomers}))`;
  const created = sql`EXISTS (SELECT 1 FROM customers WHERE customer_id = ${customer.customerId})`;
  const [inserted] = await atomically(db, [
    insertWhere(customers, { ...customer, ...owner, createdAt }, sql`${held} < ${maxCustomers}`),
    insertWhere(accounts, { ...opened, ...owner, createdAt }, created),
  ]);
  if ((inserted?.meta.changes ?? 0) === 0) return null;
  return { customer, account: opened };
}

/**
 * The account a cycle closes on, inside the read scope, with its product's rewards categories,
 * and its newest statement.
 */
export interface CycleAccount {
  customerFound: boolean;
  account: { currency: string | null; categories: RewardsCategory[] } | null;
  newest: PreviousStatement | null;
}

/** One round trip: the customer in scope, its account `accountId`, and that account's newest statement. */
export async function readCycleAccount(
  db: Database,
  scope: ReadScope,
  customerId: string,
  accountId: string,
): Promise<CycleAccount> {
  const [found, newest] = await db.batch([
    db
      .select({
        owner: sql<string>`${customers.customerId}`.as("owner"),
        accountId: accounts.accountId,
        currency: accounts.currency,
        categories: products.rewardsCategories,
      })
      .from(customers)
      .leftJoin(
        accounts,
        and(eq(accounts.customerId, customers.customerId), eq(accounts.accountId, accountId)),
      )
      .leftJoin(products, eq(products.merchantKey, customers.merchantKey))
      .where(customerInScope(scope, customerId)),
    // Hidden statements count too: the chain of balances runs through every closed cycle.
    db
      .select({
        periodEndDate: statements.periodEndDate,
        statementBalance: statements.statementBalance,
        ytdFees: statements.ytdFees,
        ytdInterest: statements.ytdInterest,
      })
      .from(statements)
      .where(eq(statements.accountId, accountId))
      .orderBy(desc(statements.periodEndDate), desc(statements.statementId))
      .limit(1),
  ]);
  const [row] = found;
  const account = row?.accountId
    ? { currency: row.currency, categories: row.categories ?? [] }
    : null;
  return {
    customerFound: row !== undefined,
    account,
    newest: account ? (newest[0] ?? null) : null,
  };
}

/** A cycle to store: whose, its figures, and the newest statement it follows (as read). */
export interface CycleToStore {
  customerId: string;
  accountId: string;
  currency: string | null;
  cycle: ClosedCycle;
  follows: PreviousStatement | null;
}

export type StoredCycle =
  | {
      stored: true;
      statement: Omit<StatementRecord, "hasPdf">;
      deliveries: DeliveryRef[];
      renders: RenderRef[];
    }
  /** `overQuota`: the day's quota of statements was used up (else the account changed). */
  | { stored: false; overQuota: boolean };

/** The daily quota a stored cycle counts against: its partner's day, and the day's cap. */
export interface DailyQuota {
  day: string;
  max: number;
}

/** The closed cycle as the statement item a statement is stored from, under `statementId`. */
function cycleStatement(input: CycleToStore, statementId: string): StatementInput {
  // The cycle's other fields are its amounts, under the import's names.
  const { period_start_date, period_end_date, due_date, line_items, ...figures } = input.cycle;
  return {
    statement_id: statementId,
    account_id: input.accountId,
    period_start_date,
    period_end_date,
    due_date,
    ...(input.currency === null ? {} : { currency: input.currency }),
    ...figures,
    line_items,
  };
}

/**
 * What must hold for the cycle to be stored, checked in its insert: the account is still the
 * customer's in the scope, has gained no newer statement since it was read, and the partner's
 * simulations have closed fewer than `quota.max` statements that day.
 */
function cycleGuard(scope: ReadScope, input: CycleToStore, closedToday: SQL, quota: DailyQuota) {
  const owned = sql`EXISTS (SELECT 1 FROM accounts AS a JOIN customers AS c
      ON c.customer_id = a.customer_id
    WHERE a.account_id = ${input.accountId} AND a.customer_id = ${input.customerId}
      AND c.partner_id = ${scope.partnerId} AND c.environment = ${scope.environment}
      AND c.merchant_key = ${scope.merchantKey})`;
  const unchanged = sql`(SELECT max(period_end_date) FROM statements
    WHERE account_id = ${input.accountId}) IS ${input.follows?.periodEndDate ?? null}`;
  return sql`${owned} AND ${unchanged} AND ${closedToday} < ${quota.max}`;
}

/** The count a `SELECT … AS closed` answered; 0 when it answered none. */
function closedCount(result: D1Result | undefined): number {
  const counted = result?.results[0];
  return typeof counted === "object" &&
    counted !== null &&
    "closed" in counted &&
    typeof counted.closed === "number"
    ? counted.closed
    : 0;
}

/**
 * Stores the closed cycle as a new statement of the account, in one batch with the account's new
 * balance, the statement's event and deliveries, its render (whatever the product's documents: a
 * sandbox statement nobody uploads a document for) and the day's count. Nothing is stored when the
 * account has gained a newer statement since it was read, or left the scope, or the partner's
 * simulations have closed `quota.max` statements that day.
 */
export async function storeCycle(
  db: Database,
  shard: string,
  scope: ReadScope,
  input: CycleToStore,
  now: Date,
  quota: DailyQuota,
): Promise<StoredCycle> {
  const at = now.toISOString();
  const item = cycleStatement(input, `st_${encodeIdSuffix(now.getTime())}`);
  const row = statementRowOf(item, await lineItemsDigest(item));
  const closedToday = sql`coalesce((SELECT statements FROM sandbox_usage
    WHERE partner_id = ${scope.partnerId} AND day = ${quota.day}), 0)`;
  const stored = sql`EXISTS (SELECT 1 FROM statements WHERE statement_id = ${item.statement_id})`;
  const balance = input.cycle.statement_balance;
  const announced = statementEventWrites("statement.created", row, at);
  const [inserted, , , deliveries, render, , closed] = await atomically(db, [
    guardedStatementInsert(row, at, cycleGuard(scope, input, closedToday, quota)),
    sql`UPDATE accounts SET current_balance = ${balance},
        available_credit = CASE WHEN credit_limit IS NULL THEN available_credit
          ELSE credit_limit - ${balance} END
      WHERE account_id = ${input.accountId} AND ${stored}`,
    announced.events,
    announced.deliveries,
    renderRequestWrites(row, at, true),
    sql`INSERT INTO sandbox_usage (partner_id, day, statements)
      SELECT ${scope.partnerId}, ${quota.day}, 1 WHERE ${stored}
      ON CONFLICT (partner_id, day) DO UPDATE SET statements = statements + 1`,
    sql`SELECT ${closedToday} AS closed`,
    // Its line items only with it: kept out when the guards keep the statement out.
    ...lineItemInserts([item], stored),
  ]);
  if ((inserted?.meta.changes ?? 0) === 0) {
    return { stored: false, overQuota: closedCount(closed) >= quota.max };
  }
  return {
    stored: true,
    statement: statementRecordOf(item),
    deliveries: deliveriesOf(deliveries ? [deliveries] : [], shard),
    renders: renderRefsOf(render ? [render] : [], shard),
  };
}

/** A sandbox customer of the partner, of any of its products; null when there is none. */
export async function findSandboxCustomer(
  db: Database,
  partnerId: string,
  customerId: string,
): Promise<{ customerId: string; merchantKey: string; partnerCustomerId: string | null } | null> {
  const [row] = await db
    .select({
      customerId: customers.customerId,
      merchantKey: customers.merchantKey,
      partnerCustomerId: customers.partnerCustomerId,
    })
    .from(customers)
    .where(
      and(
        eq(customers.customerId, customerId),
        eq(customers.partnerId, partnerId),
        eq(customers.environment, "sandbox"),
      ),
    );
  return row ?? null;
}

/** A statement as the sandbox page lists it: its id, dates, balance and document state. */
export interface SandboxStatement extends Omit<StatementRecord, "hasPdf"> {
  customerId: string;
  hasPdf: boolean;
  renderStatus: string | null;
  renderError: string | null;
}

const sandboxStatementFields = {
  ...getTableColumns(statements),
  customerId: accounts.customerId,
  renderStatus: statementRenders.status,
  renderError: statementRenders.error,
};

/** Statements of the partner's sandbox, with their render, by `where`, newest first. */
async function sandboxStatements(
  db: Database,
  partnerId: string,
  where: SQL,
  limit: number,
): Promise<SandboxStatement[]> {
  const rows = await db
    .select(sandboxStatementFields)
    .from(statements)
    .innerJoin(accounts, eq(accounts.accountId, statements.accountId))
    .leftJoin(statementRenders, eq(statementRenders.statementId, statements.statementId))
    .where(
      and(
        where,
        eq(accounts.partnerId, partnerId),
        eq(accounts.environment, "sandbox"),
        isNull(statements.hiddenAt),
      ),
    )
    .orderBy(desc(statements.periodEndDate), desc(statements.statementId))
    .limit(limit);
  return rows.map(({ pdfKey, hiddenAt, createdAt, ...row }) => ({
    ...row,
    hasPdf: pdfKey !== null,
  }));
}

/** The newest statements of a sandbox account of the partner. */
export function recentStatements(
  db: Database,
  partnerId: string,
  accountId: string,
  limit: number,
): Promise<SandboxStatement[]> {
  return sandboxStatements(db, partnerId, eq(statements.accountId, accountId), limit);
}

/** One visible sandbox statement of the partner; null when there is none. */
export async function findSandboxStatement(
  db: Database,
  partnerId: string,
  statementId: string,
): Promise<SandboxStatement | null> {
  const [row] = await sandboxStatements(db, partnerId, eq(statements.statementId, statementId), 1);
  return row ?? null;
}

/**
 * What a partner's sandbox holds against its quotas: its customers (counted up to
 * `maxCustomers`) and the statements its simulations closed on `day`. One round trip.
 */
export async function readSandboxUsage(
  db: Database,
  partnerId: string,
  day: string,
  maxCustomers: number,
): Promise<{ customers: number; statementsToday: number }> {
  const [held, closed] = await db.batch([
    db.select({ n: sql<number>`count(*)` }).from(
      sql`(SELECT 1 FROM customers WHERE partner_id = ${partnerId} AND environment = 'sandbox'
        LIMIT ${maxCustomers})`,
    ),
    db
      .select({ n: sandboxUsage.statements })
      .from(sandboxUsage)
      .where(and(eq(sandboxUsage.partnerId, partnerId), eq(sandboxUsage.day, day))),
  ]);
  return { customers: held[0]?.n ?? 0, statementsToday: closed[0]?.n ?? 0 };
}
