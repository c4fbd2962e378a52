// Sandbox data made on request, in D1: a customer with its open account (one batch, within the
// sandbox's customer quota), the account a cycle closes on with its newest statement (one round
// trip), and the closed cycle (one batch: the statement, the account's new balance, its
// `statement.created` event with webhook deliveries, its render and the day's usage), guarded so
// that two cycles closing at once cannot break the chain of balances nor pass the daily quota or
// a sandbox budget (src/sandbox-budgets/): each write checks and counts them in its own batch.
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
  type BudgetName,
  budgetRoom,
  countUsage,
  refusedBy,
  type SandboxCharge,
  statementsToday,
  stateOf,
  usageState,
} from "../sandbox-budgets";
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

/** A new sandbox customer's one open account. */
export interface NewAccount {
  currency: string;
  creditLimit: number;
}

/** A new customer and its account: the 2 rows the sandbox's budgets count. */
const CUSTOMER_ROWS: SandboxCharge = { rows: 2 };

export type CreatedCustomer =
  | { created: true; customer: CustomerRecord; account: AccountRecord }
  /** The sandbox's customer quota, or the budget, that had no room for it. */
  | { created: false; refused: "sandbox_customers" | BudgetName };

/**
 * Creates a customer of the read scope with one open account, in one batch, unless the partner's
 * environment already holds `maxCustomers` customers (counted up to the cap only) or a sandbox
 * budget has no room for its rows (checked and counted in the same batch).
 */
export async function createCustomer(
  db: Database,
  scope: ReadScope & { environment: "sandbox" | "production" },
  partnerCustomerId: string | null,
  account: NewAccount,
  now: Date,
  maxCustomers: number,
): Promise<CreatedCustomer> {
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
  const budgeted = { partnerId: scope.partnerId, now };
  const room = sql`${held} < ${maxCustomers} AND ${budgetRoom(budgeted, CUSTOMER_ROWS)}`;
  const [inserted, , , state] = await atomically(db, [
    insertWhere(customers, { ...customer, ...owner, createdAt }, room),
    insertWhere(accounts, { ...opened, ...owner, createdAt }, created),
    countUsage(budgeted, CUSTOMER_ROWS, created),
    usageState(budgeted),
  ]);
  if ((inserted?.meta.changes ?? 0) === 0) {
    return {
      created: false,
      refused: refusedBy(stateOf(state), CUSTOMER_ROWS) ?? "sandbox_customers",
    };
  }
  return { created: true, customer, account: opened };
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
  /**
   * `refused`: the daily quota of statements, or the sandbox budget, that had no room for it;
   * null when the account changed meanwhile.
   */
  | { stored: false; refused: "sandbox_statements_per_day" | BudgetName | null };

/** The daily quota of statements a stored cycle counts against. */
export interface DailyQuota {
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
 * customer's in the scope, has gained no newer statement since it was read, the partner's
 * simulations have closed fewer than `quota.max` statements that day, and the sandbox's budgets
 * have room for its rows (`room`).
 */
function cycleGuard(
  scope: ReadScope,
  input: CycleToStore,
  closedToday: SQL,
  quota: DailyQuota,
  room: SQL,
) {
  const owned = sql`EXISTS (SELECT 1 FROM accounts AS a JOIN customers AS c
      ON c.customer_id = a.customer_id
    WHERE a.account_id = ${input.accountId} AND a.customer_id = ${input.customerId}
      AND c.partner_id = ${scope.partnerId} AND c.environment = ${scope.environment}
      AND c.merchant_key = ${scope.merchantKey})`;
  const unchanged = sql`(SELECT max(period_end_date) FROM statements
    WHERE account_id = ${input.accountId}) IS ${input.follows?.periodEndDate ?? null}`;
  return sql`${owned} AND ${unchanged} AND ${closedToday} < ${quota.max} AND ${room}`;
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
  const budgeted = { partnerId: scope.partnerId, now };
  const lineItems = item.line_items?.length ?? 0;
  const charge: SandboxCharge = { statements: 1, lineItems, rows: 1 + lineItems };
  const closedToday = statementsToday(budgeted);
  const room = budgetRoom(budgeted, charge);
  const stored = sql`EXISTS (SELECT 1 FROM statements WHERE statement_id = ${item.statement_id})`;
  const balance = input.cycle.statement_balance;
  const announced = statementEventWrites("statement.created", row, at);
  const [inserted, , , deliveries, render, , state] = await atomically(db, [
    guardedStatementInsert(row, at, cycleGuard(scope, input, closedToday, quota, room)),
    sql`UPDATE accounts SET current_balance = ${balance},
        available_credit = CASE WHEN credit_limit IS NULL THEN available_credit
          ELSE credit_limit - ${balance} END
      WHERE account_id = ${input.accountId} AND ${stored}`,
    announced.events,
    announced.deliveries,
    renderRequestWrites(row, at, true),
    countUsage(budgeted, charge, stored),
    usageState(budgeted),
    // Its line items only with it: kept out when the guards keep the statement out.
    ...lineItemInserts([item], stored),
  ]);
  if ((inserted?.meta.changes ?? 0) === 0) {
    const seen = stateOf(state);
    const refused =
      refusedBy(seen, charge) ??
      (seen.statementsToday >= quota.max ? "sandbox_statements_per_day" : null);
    return { stored: false, refused };
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

/** What a partner's sandbox holds against its quotas and budgets. */
export interface SandboxUsage {
  customers: number;
  statementsToday: number;
  lineItemsToday: number;
  rowsHeld: number;
}

/**
 * What a partner's sandbox holds against its quotas and budgets at `now`: its customers (counted
 * up to `maxCustomers`), and the statements, line items and rows its writes counted. One round
 * trip.
 */
export async function readSandboxUsage(
  db: Database,
  partnerId: string,
  now: Date,
  maxCustomers: number,
): Promise<SandboxUsage> {
  const [held, usage] = await atomically(db, [
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM customers
      WHERE partner_id = ${partnerId} AND environment = 'sandbox' LIMIT ${maxCustomers})`,
    usageState({ partnerId, now }),
  ]);
  const counted: unknown = held?.results[0];
  const customers =
    typeof counted === "object" &&
    counted !== null &&
    "n" in counted &&
    typeof counted.n === "number"
      ? counted.n
      : 0;
  const { statementsToday, lineItemsToday, rowsHeld } = stateOf(usage);
  return { customers, statementsToday, lineItemsToday, rowsHeld };
}
