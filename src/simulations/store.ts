// Sandbox data made on request, in D1: a customer with its open account (one batch), the account a
// cycle closes on with its newest statement (one round trip), and the closed cycle (one batch: the
// statement, the account's new balance, its `statement.created` event with webhook deliveries,
// and its render), guarded so that two cycles closing at once cannot break the chain of balances.
import { and, desc, eq, getTableColumns, isNull, type SQL, sql } from "drizzle-orm";
import { accounts } from "../accounts/schema";
import { atomically, insertWhere } from "../db/batch";
import type { Database } from "../db/client";
import { customerInScope, type ReadScope } from "../db/customers";
import { jsonChunks } from "../db/json-rows";
import { customers } from "../db/schema";
import { type RenderRef, renderRefsOf, renderRequestWrites } from "../documents";
import { statementRenders } from "../documents/schema";
import type { AccountRecord } from "../domain/account";
import type { CustomerRecord } from "../domain/customer";
import { encodeIdSuffix } from "../domain/ids";
import type { StatementRecord } from "../domain/statement";
import { insertLineItems, lineItemRows, lineItemsDigest } from "../statements";
import { statements } from "../statements/schema";
import { type DeliveryRef, deliveriesOf, statementEventWrites } from "../webhooks";
import type { ClosedCycle, PreviousStatement } from "./cycle";

/** A new sandbox customer's one open account. */
export interface NewAccount {
  currency: string;
  creditLimit: number;
}

/** Creates a customer of the read scope with one open account, in one batch. */
export async function createCustomer(
  db: Database,
  scope: ReadScope & { environment: "sandbox" | "production" },
  partnerCustomerId: string | null,
  account: NewAccount,
  now: Date,
): Promise<{ customer: CustomerRecord; account: AccountRecord }> {
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
  await db.batch([
    db.insert(customers).values({ ...customer, ...owner, createdAt }),
    db.insert(accounts).values({ ...opened, ...owner, createdAt }),
  ]);
  return { customer, account: opened };
}

/** The account a cycle closes on, inside the read scope, and its newest statement. */
export interface CycleAccount {
  customerFound: boolean;
  account: { currency: string | null } | null;
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
      })
      .from(customers)
      .leftJoin(
        accounts,
        and(eq(accounts.customerId, customers.customerId), eq(accounts.accountId, accountId)),
      )
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
  const account = row?.accountId ? { currency: row.currency } : null;
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
  | { stored: false };

/**
 * Stores the closed cycle as a new statement of the account, in one batch with the account's new
 * balance, the statement's event and deliveries, and its render (whatever the product's documents:
 * a sandbox statement nobody uploads a document for). Nothing is stored when the account has
 * gained a newer statement since it was read, or left the scope.
 */
export async function storeCycle(
  db: Database,
  shard: string,
  scope: ReadScope,
  input: CycleToStore,
  now: Date,
): Promise<StoredCycle> {
  const { cycle } = input;
  const at = now.toISOString();
  const statement: Omit<StatementRecord, "hasPdf"> = {
    statementId: `st_${encodeIdSuffix(now.getTime())}`,
    accountId: input.accountId,
    periodStartDate: cycle.period_start_date,
    periodEndDate: cycle.period_end_date,
    dueDate: cycle.due_date,
    currency: input.currency,
    statementBalance: cycle.statement_balance,
    minimumDue: cycle.minimum_due,
    previousBalance: cycle.previous_balance,
    purchases: cycle.purchases ?? null,
    payments: cycle.payments ?? null,
    credits: cycle.credits ?? null,
    refunds: cycle.refunds ?? null,
    interest: cycle.interest ?? null,
    fees: cycle.fees ?? null,
    overdueAmount: cycle.overdue_amount,
    interestRates: cycle.interest_rates ?? null,
    ytdFees: cycle.year_to_date?.fees ?? null,
    ytdInterest: cycle.year_to_date?.interest ?? null,
  };
  const withItems = { statement_id: statement.statementId, line_items: cycle.line_items };
  const digest = await lineItemsDigest(withItems);
  const owned = sql`EXISTS (SELECT 1 FROM accounts AS a JOIN customers AS c
      ON c.customer_id = a.customer_id
    WHERE a.account_id = ${input.accountId} AND a.customer_id = ${input.customerId}
      AND c.partner_id = ${scope.partnerId} AND c.environment = ${scope.environment}
      AND c.merchant_key = ${scope.merchantKey})`;
  const unchanged = sql`(SELECT max(period_end_date) FROM statements
    WHERE account_id = ${input.accountId}) IS ${input.follows?.periodEndDate ?? null}`;
  const rows = JSON.stringify([[statement.statementId]]);
  const announced = statementEventWrites("statement.created", rows, at);
  // Its line items only with it: kept out when the guards keep the statement out.
  const stored = sql`EXISTS (SELECT 1 FROM statements WHERE statement_id = ${statement.statementId})`;
  const items = jsonChunks(lineItemRows(withItems), (row) => row).map((chunk) =>
    insertLineItems(chunk, stored),
  );
  const results = await atomically(db, [
    insertWhere(
      statements,
      {
        ...statement,
        // Stored as its JSON text (a value of `insertWhere` is bound as it is).
        interestRates: sql`${statement.interestRates ? JSON.stringify(statement.interestRates) : null}`,
        lineItemsDigest: digest,
        createdAt: at,
      },
      sql`${owned} AND ${unchanged}`,
    ),
    sql`UPDATE accounts SET current_balance = ${cycle.statement_balance},
        available_credit = CASE WHEN credit_limit IS NULL THEN available_credit
          ELSE credit_limit - ${cycle.statement_balance} END
      WHERE account_id = ${input.accountId}
        AND EXISTS (SELECT 1 FROM statements WHERE statement_id = ${statement.statementId})`,
    announced.events,
    announced.deliveries,
    renderRequestWrites(rows, at, true),
    ...items,
  ]);
  if ((results[0]?.meta.changes ?? 0) === 0) return { stored: false };
  return {
    stored: true,
    statement,
    deliveries: deliveriesOf(results.slice(3, 4), shard),
    renders: renderRefsOf(results.slice(4, 5), shard),
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
