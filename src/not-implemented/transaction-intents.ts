// /v2/transaction_intents: named by the specification's scope table, without the behaviour: 501.
import { notImplemented } from "../app/route";

export const retrieveTransactionIntent = notImplemented({
  method: "GET",
  path: "/v2/transaction_intents/:intent_id",
  summary: "Retrieve a transaction intent",
  operationId: "retrieveTransactionIntent",
  tag: "Transaction intents",
  scope: "TRANSACTION_INTENT_READ",
});

export const listCustomerTransactionIntents = notImplemented({
  method: "GET",
  path: "/v2/customers/:customer_id/transaction_intents",
  summary: "List a customer's transaction intents",
  operationId: "listCustomerTransactionIntents",
  tag: "Transaction intents",
  scope: "TRANSACTION_INTENT_READ",
});

export const createTransactionIntent = notImplemented({
  method: "POST",
  path: "/v2/transaction_intents",
  summary: "Create a transaction intent",
  operationId: "createTransactionIntent",
  tag: "Transaction intents",
  scope: "TRANSACTION_INTENT_WRITE",
});

export const updateTransactionIntent = notImplemented({
  method: "POST",
  path: "/v2/transaction_intents/:intent_id",
  summary: "Update a transaction intent",
  operationId: "updateTransactionIntent",
  tag: "Transaction intents",
  scope: "TRANSACTION_INTENT_WRITE",
});
