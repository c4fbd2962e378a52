// GET /v2/payment_methods?customer_id=… and GET /v2/payment_methods/{payment_method_id}: a
// customer's cards, masked for any valid key. On retrieve, a key holding PCI_DETAILS_READ (a soft
// scope: without it the details are simply absent) also gets the PAN and CVV, audited
// (card-answer.ts).
import { customerNotFound, invalidRequest, paymentMethodNotFound } from "../app/errors";
import { readScope } from "../app/pipeline";
import { idPage, idPageQuery, type QueryDefinition } from "../app/query";
import { route } from "../app/route";
import { storedInScope } from "../db/customers";
import { PAYMENT_METHOD_STATUSES } from "../domain/payment-method-item";
import { PaymentMethod, PaymentMethodList } from "./api-schemas";
import { readCardAsCaller } from "./card-answer";
import { cardPageReads } from "./card-page";
import type { CardPageRequest, CardStatus } from "./card-store";
import { toPaymentMethod } from "./card-view";

/** Longer than any id the service stores. */
const MAX_ID_LENGTH = 1024;

/** A single value of a query parameter, or undefined when absent. */
function single(name: string, values: string[] | undefined): string | undefined {
  if (values === undefined) return undefined;
  const [value] = values;
  if (values.length !== 1 || !value || value.length > MAX_ID_LENGTH) {
    throw invalidRequest([`${name} must be a single value`], name);
  }
  return value;
}

const cardListQuery: QueryDefinition<CardPageRequest & { customerId: string }> = {
  parameters: [
    {
      name: "customer_id",
      in: "query",
      required: true,
      description: "The customer whose cards are listed.",
      schema: { type: "string" },
    },
    {
      name: "status",
      in: "query",
      required: false,
      description: "Only cards of this status; every status when absent.",
      schema: { type: "string", enum: [...PAYMENT_METHOD_STATUSES] },
    },
    ...idPageQuery.parameters,
  ],
  parse(query) {
    const customerId = single("customer_id", query("customer_id"));
    if (customerId === undefined) {
      throw invalidRequest(
        ["customer_id is required: the customer whose cards to list"],
        "customer_id",
      );
    }
    const status = single("status", query("status")) ?? null;
    const known = PAYMENT_METHOD_STATUSES.find((s) => s === status);
    if (status !== null && known === undefined) {
      throw invalidRequest(
        [`status must be one of ${PAYMENT_METHOD_STATUSES.join(", ")}`],
        "status",
      );
    }
    const page = idPageQuery.parse(query);
    return { customerId, status: (known ?? null) satisfies CardStatus | null, ...page };
  },
};

export const listPaymentMethods = route({
  method: "GET",
  path: "/v2/payment_methods",
  summary: "List a customer's payment methods",
  operationId: "listPaymentMethods",
  tag: "Payment methods",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] }],
  scope: null,
  customerScoped: true,
  query: cardListQuery,
  // Planned from the query alone, so the page rides in the key lookup's own statement: one D1
  // round trip, and nothing read for a key that is not live.
  plan: (query) => cardPageReads(query.customerId, query.after, query.status, query.limit),
  response: { status: 200, schema: PaymentMethodList },
  async handler(c, { query: { customerId, limit }, reads: page, reply }) {
    // Nothing read is used before the customer is known to be in the caller's read scope.
    if (!storedInScope(page.stored, readScope(c))) throw customerNotFound(customerId);
    if (!page.cursorFound) {
      throw invalidRequest(
        ["starting_after must name one of the customer's payment methods"],
        "starting_after",
      );
    }
    // PCI details are given on retrieve only, one card at a time, never in bulk.
    return reply(idPage(page.rows, limit, (row) => toPaymentMethod(row, null)));
  },
});

export const retrievePaymentMethod = route({
  method: "GET",
  path: "/v2/payment_methods/:payment_method_id",
  summary: "Retrieve a payment method",
  operationId: "retrievePaymentMethod",
  tag: "Payment methods",
  errors: [{ status: 404, types: ["PAYMENT_METHOD_NOT_FOUND_ERROR"] }],
  scope: null,
  customerScoped: true,
  response: { status: 200, schema: PaymentMethod },
  async handler(c, { reply }) {
    const paymentMethodId = c.req.param("payment_method_id");
    const card = await readCardAsCaller(c, paymentMethodId);
    if (!card) throw paymentMethodNotFound();
    return reply(card);
  },
});
