// /v2/transaction_intents and a customer's list of them: a card transaction the partner expects,
// which it confirms or cancels before the transaction arrives.
import { sql } from "drizzle-orm";
import { keyAudit } from "../app/actor";
import { ApiError, customerNotFound } from "../app/errors";
import { storeWithEffect } from "../app/idempotency";
import { readScope } from "../app/pipeline";
import { idPage, idPageQueryWith } from "../app/query";
import { route } from "../app/route";
import { storedInScope } from "../db/customers";
import { encodeIdSuffix } from "../domain/ids";
import { checkBodyOwners, type MerchantBody, notTheCustomersCard, parseStored } from "../orders";
import { chargeSandboxBudget } from "../sandbox-budgets";
import {
  CreateTransactionIntentRequest,
  INTENT_STATUSES,
  type IntentStatus,
  TransactionIntent,
  type TransactionIntentBody,
  TransactionIntentList,
  UpdateTransactionIntentRequest,
} from "./api-schemas";
import { intentPageReads } from "./intent-page";
import {
  findIntent,
  type IntentRow,
  insertIntent,
  intentStored,
  MOVES_TO,
  updateIntent,
} from "./intent-store";

export function toIntent(row: IntentRow): TransactionIntentBody {
  return {
    intent_id: row.intentId,
    customer_id: row.customerId,
    ...(row.paymentMethodId === null ? {} : { payment_method_id: row.paymentMethodId }),
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    ...(row.networkTransactionId === null
      ? {}
      : { network_transaction_id: row.networkTransactionId }),
    ...(row.partnerTransactionId === null
      ? {}
      : { partner_transaction_id: row.partnerTransactionId }),
    ...(row.expectedDate === null ? {} : { expected_date: row.expectedDate }),
    ...(row.merchant === null ? {} : { merchant: parseStored<MerchantBody>(row.merchant) }),
    metadata: parseStored<Record<string, string>>(row.metadata),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

function intentNotFound(intentId: string): ApiError {
  return new ApiError(
    "TRANSACTION_INTENT_NOT_FOUND_ERROR",
    `No such transaction intent: ${JSON.stringify(intentId.slice(0, 128))}`,
    { param: "intent_id" },
  );
}

export const retrieveTransactionIntent = route({
  method: "GET",
  path: "/v2/transaction_intents/:intent_id",
  summary: "Retrieve a transaction intent",
  operationId: "retrieveTransactionIntent",
  tag: "Transaction intents",
  errors: [{ status: 404, types: ["TRANSACTION_INTENT_NOT_FOUND_ERROR"] }],
  scope: "TRANSACTION_INTENT_READ",
  customerScoped: true,
  response: { status: 200, schema: TransactionIntent },
  async handler(c, { reply }) {
    const intentId = c.req.param("intent_id");
    const row = await findIntent(c.get("db"), readScope(c), intentId);
    if (!row) throw intentNotFound(intentId);
    return reply(toIntent(row));
  },
});

export const listCustomerTransactionIntents = route({
  method: "GET",
  path: "/v2/customers/:customer_id/transaction_intents",
  summary: "List a customer's transaction intents",
  operationId: "listCustomerTransactionIntents",
  tag: "Transaction intents",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR"] }],
  scope: "TRANSACTION_INTENT_READ",
  customerScoped: true,
  query: idPageQueryWith([
    { name: "status", description: "Only the intents in this status.", values: INTENT_STATUSES },
  ]),
  // Planned from the path and query alone, so the page rides in the key lookup's own statement:
  // one D1 round trip, and nothing read for a key that is not live.
  plan: ({ limit, after, filters }, params) =>
    // The filter's values are the statuses (the query definition refuses any other).
    intentPageReads(params.customer_id, filters.status as IntentStatus | undefined, after, limit),
  response: { status: 200, schema: TransactionIntentList },
  async handler(c, { query: { limit }, reads: page, reply }) {
    const customerId = c.req.param("customer_id");
    // Nothing read is used before the customer is known to be in the caller's read scope.
    if (!storedInScope(page.stored, readScope(c))) throw customerNotFound(customerId);
    return reply(idPage(page.rows, limit, toIntent));
  },
});

export const createTransactionIntent = route({
  method: "POST",
  path: "/v2/transaction_intents",
  summary: "Create a transaction intent",
  operationId: "createTransactionIntent",
  tag: "Transaction intents",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR"] }],
  scope: "TRANSACTION_INTENT_WRITE",
  customerScoped: true,
  body: { schema: CreateTransactionIntentRequest, required: true },
  response: { status: 201, schema: TransactionIntent },
  async handler(c, { body, reply }) {
    const db = c.get("db");
    const scope = readScope(c);
    const problem = await checkBodyOwners(db, scope, body.customer_id, body.payment_method_id);
    if (problem === "customer") throw customerNotFound(body.customer_id);
    if (problem === "payment_method" && body.payment_method_id !== undefined) {
      throw notTheCustomersCard(body.payment_method_id);
    }
    await chargeSandboxBudget(c, body);
    const now = c.get("now")();
    const at = now.toISOString();
    const row: IntentRow = {
      intentId: `ti_${encodeIdSuffix(now.getTime())}`,
      ...scope,
      environment: scope.environment,
      customerId: body.customer_id,
      paymentMethodId: body.payment_method_id ?? null,
      amount: body.amount,
      currency: body.currency,
      status: "REQUIRES_CONFIRMATION",
      networkTransactionId: body.network_transaction_id ?? null,
      partnerTransactionId: null,
      expectedDate: body.expected_date ?? null,
      merchant: body.merchant === undefined ? null : JSON.stringify(body.merchant),
      metadata: JSON.stringify(body.metadata ?? {}),
      createdAt: at,
      updatedAt: at,
    };
    // The intent, its audit row and its replayable response commit together: a retry never
    // creates another. The audit row holds no metadata: the partner's own text may say anything.
    const answer = reply(toIntent(row));
    const created = intentStored(row.intentId);
    const audit = keyAudit(
      c,
      {
        action: "transaction_intent.created",
        target: row.intentId,
        details: {
          customer_id: row.customerId,
          merchant_key: row.merchantKey,
          amount: row.amount,
          currency: row.currency,
        },
      },
      created,
    );
    await insertIntent(db, row, [audit, ...(await storeWithEffect(c, answer, created))]);
    return answer;
  },
});

export const updateTransactionIntent = route({
  method: "POST",
  path: "/v2/transaction_intents/:intent_id",
  summary: "Update a transaction intent",
  operationId: "updateTransactionIntent",
  tag: "Transaction intents",
  errors: [
    { status: 404, types: ["TRANSACTION_INTENT_NOT_FOUND_ERROR"] },
    { status: 409, types: ["CONFLICT_ERROR"] },
  ],
  scope: "TRANSACTION_INTENT_WRITE",
  customerScoped: true,
  body: { schema: UpdateTransactionIntentRequest, required: false },
  response: { status: 200, schema: TransactionIntent },
  async handler(c, { body, reply }) {
    const intentId = c.req.param("intent_id");
    const scope = readScope(c);
    // Written only when the update itself changed the intent (the statement before it); it names
    // the fields sent, and the new status and amount, never the metadata's text.
    const audit = keyAudit(
      c,
      {
        action: "transaction_intent.updated",
        target: intentId,
        details: {
          merchant_key: scope.merchantKey,
          fields: Object.keys(body).sort(),
          ...(body.status === undefined ? {} : { status: body.status }),
          ...(body.amount === undefined ? {} : { amount: body.amount }),
        },
      },
      sql`changes() = 1`,
    );
    const outcome = await updateIntent(c.get("db"), scope, intentId, [audit], {
      status: body.status,
      amount: body.amount,
      networkTransactionId: body.network_transaction_id,
      partnerTransactionId: body.partner_transaction_id,
      metadata: body.metadata === undefined ? undefined : JSON.stringify(body.metadata),
      updatedAt: c.get("now")().toISOString(),
    });
    if (outcome.outcome === "not_found") throw intentNotFound(intentId);
    if (outcome.outcome === "refused") {
      const { status } = outcome.current;
      // Refused for its status when the intent is not in a status that moves to the one sent.
      const moving = body.status !== undefined && !MOVES_TO[body.status].includes(status);
      throw new ApiError(
        "CONFLICT_ERROR",
        moving
          ? `The intent is ${status}: it cannot become ${body.status}.`
          : `The intent is ${status}: its amount cannot change once confirmed.`,
        { param: moving ? "status" : "amount" },
      );
    }
    return reply(toIntent(outcome.row));
  },
});
