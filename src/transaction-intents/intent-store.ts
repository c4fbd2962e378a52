// Transaction intents in storage, each call one round trip inside the caller's partner,
// environment and product. An update's transition is a condition of the UPDATE itself: of two
// requests racing to move the same intent, only one finds it in the state its move starts from.
import { and, desc, eq, inArray, lt, type SQL, sql } from "drizzle-orm";
import { allOf, atomically, type Query, returnedRow } from "../db/batch";
import type { Database } from "../db/client";
import type { ReadScope } from "../db/customers";
import type { Environment } from "../domain/environment";
import type { IntentStatus } from "./api-schemas";
import { transactionIntents } from "./schema";

export type IntentRow = typeof transactionIntents.$inferSelect;

function intentInScope(scope: ReadScope): SQL {
  return allOf(
    eq(transactionIntents.partnerId, scope.partnerId),
    // drizzle types the value by the column's two names; a scope naming another matches no row.
    eq(transactionIntents.environment, scope.environment as Environment),
    eq(transactionIntents.merchantKey, scope.merchantKey),
  );
}

/** The statuses an intent may move to `target` from. */
export const MOVES_TO: Readonly<
  Record<Exclude<IntentStatus, "REQUIRES_CONFIRMATION">, IntentStatus[]>
> = {
  CONFIRMED: ["REQUIRES_CONFIRMATION"],
  CANCELED: ["REQUIRES_CONFIRMATION", "CONFIRMED"],
};

/** True once the intent `intentId` is stored: the guard of what is written beside its insert. */
export function intentStored(intentId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM transaction_intents WHERE intent_id = ${intentId})`;
}

/** Stores a new intent, with `alongside` (its replayable response) in the same batch. */
export async function insertIntent(db: Database, row: IntentRow, alongside: Query[]) {
  await atomically(db, [db.insert(transactionIntents).values(row), ...alongside]);
}

/** The scope's intent, or null. */
export async function findIntent(
  db: Database,
  scope: ReadScope,
  intentId: string,
): Promise<IntentRow | null> {
  const [row] = await db
    .select()
    .from(transactionIntents)
    .where(and(intentInScope(scope), eq(transactionIntents.intentId, intentId)));
  return row ?? null;
}

/** A page of the customer's intents, newest first, after the id `after` (one row more). */
export function intentPage(
  db: Database,
  scope: ReadScope,
  customerId: string,
  status: IntentStatus | undefined,
  after: string | null,
  limit: number,
) {
  return db
    .select()
    .from(transactionIntents)
    .where(
      and(
        intentInScope(scope),
        eq(transactionIntents.customerId, customerId),
        status === undefined ? undefined : eq(transactionIntents.status, status),
        after === null ? undefined : lt(transactionIntents.intentId, after),
      ),
    )
    .orderBy(desc(transactionIntents.intentId))
    .limit(limit + 1);
}

export interface IntentChange {
  status?: Exclude<IntentStatus, "REQUIRES_CONFIRMATION"> | undefined;
  amount?: number | undefined;
  networkTransactionId?: string | undefined;
  partnerTransactionId?: string | undefined;
  metadata?: string | undefined;
  updatedAt: string;
}

export type IntentUpdated =
  | { outcome: "updated"; row: IntentRow }
  | { outcome: "not_found" }
  | { outcome: "refused"; current: IntentRow };

/**
 * Applies the change only if the intent's status allows it, decided by the UPDATE's own WHERE: a
 * new status only from the statuses that move to it, a new amount only before confirmation.
 * `alongside` follows it in one batch (its audit row, guarded by `changes() = 1`).
 */
export async function updateIntent(
  db: Database,
  scope: ReadScope,
  intentId: string,
  alongside: Query[],
  change: IntentChange,
): Promise<IntentUpdated> {
  const { status, amount } = change;
  const allowed = allOf(
    intentInScope(scope),
    eq(transactionIntents.intentId, intentId),
    status === undefined ? undefined : inArray(transactionIntents.status, MOVES_TO[status]),
    amount === undefined
      ? undefined
      : sql`(${transactionIntents.status} = 'REQUIRES_CONFIRMATION' OR ${transactionIntents.amount} = ${amount})`,
  );
  const update = db
    .update(transactionIntents)
    .set({
      ...(status === undefined ? {} : { status }),
      ...(amount === undefined ? {} : { amount }),
      ...(change.networkTransactionId === undefined
        ? {}
        : { networkTransactionId: change.networkTransactionId }),
      ...(change.partnerTransactionId === undefined
        ? {}
        : { partnerTransactionId: change.partnerTransactionId }),
      ...(change.metadata === undefined ? {} : { metadata: change.metadata }),
      updatedAt: change.updatedAt,
    })
    .where(allowed)
    .returning();
  const [updated] = await atomically(db, [update, ...alongside]);
  const row = returnedRow(transactionIntents, updated);
  if (row) return { outcome: "updated", row };
  const current = await findIntent(db, scope, intentId);
  return current ? { outcome: "refused", current } : { outcome: "not_found" };
}
