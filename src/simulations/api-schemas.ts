// The sandbox's simulations: the requests that create a customer and close a statement.
import * as z from "zod";
import { requestBody } from "../canonical/schemas";
import { CustomerLinkRequest } from "../customers";
import { isCountryCode } from "../domain/country-codes";
import { ID_PATTERN } from "../domain/import-fields";
import {
  CARD_LAST4_PATTERN,
  LINE_ITEM_TOTALS,
  LINE_ITEM_TYPES,
  MAX_DESCRIPTION_LENGTH,
  MAX_LINE_ITEMS_PER_STATEMENT,
  MCC_PATTERN,
} from "../domain/line-item";
import { normaliseTimestamp } from "../domain/timestamp";

/** The largest figure a simulation takes: ten billion in major units of a 2-decimal currency. */
const MAX_SIMULATED = 1_000_000_000_000;

/** A timestamp of a request body (its handler normalises it); 400 naming the field. */
const timestampField = (field: string, description: string) =>
  z
    .string()
    .refine((value) => normaliseTimestamp(value) !== null, `${field} must be an RFC 3339 timestamp`)
    .meta({ format: "date-time", description: `${description} (RFC 3339).` });

/** An amount of a simulated cycle, in its sign: a charge positive, a credit negative. */
function simulatedAmount(sign: "charge" | "credit" | "balance", description: string) {
  const amount = z.int();
  const signed =
    sign === "credit"
      ? amount
          .max(0, "must not be positive (money credited back)")
          .min(-MAX_SIMULATED, `must be at least -${MAX_SIMULATED}`)
      : amount
          .min(0, sign === "charge" ? "must not be negative (a charge)" : "must not be negative")
          .max(MAX_SIMULATED, `must be at most ${MAX_SIMULATED}`);
  return signed.optional().describe(description);
}

/** A simulated customer's account when the request leaves these out. */
export const DEFAULT_CURRENCY = "USD";
export const DEFAULT_CREDIT_LIMIT = 500_000;

export const SimulateCustomerRequest = requestBody(
  "SimulateCustomerRequest",
  z.strictObject({
    partner_customer_id: CustomerLinkRequest.schema.shape.partner_customer_id
      .optional()
      .describe("Your identifier for the customer, linked from the start."),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "must be 3 capital letters (ISO 4217)")
      .optional()
      .describe(`The account's ISO 4217 currency; \`${DEFAULT_CURRENCY}\` when omitted.`),
    credit_limit: z
      .int()
      .min(0, "must not be negative")
      .max(MAX_SIMULATED, `must be at most ${MAX_SIMULATED}`)
      .optional()
      .describe(
        "The account's credit limit in the smallest currency unit; " +
          `\`${DEFAULT_CREDIT_LIMIT}\` when omitted.`,
      ),
  }),
);

/** Text a cardholder reads on a simulated line item: 1 to `max` characters, not blank. */
const simulatedText = (max: number) =>
  z
    .string()
    .refine((value) => value.trim() !== "", "must not be empty or blank")
    .refine((value) => [...value].length <= max, `must be at most ${max} characters long`)
    .meta({ minLength: 1, maxLength: max });

/** A line item a simulation is given: the operator import's line item (CONTRACT §9). */
const SimulatedLineItemSchema = z
  .strictObject({
    line_item_id: z
      .string()
      .regex(ID_PATTERN, "must be 1 to 128 letters, digits, '_', '-' or '.'")
      .describe("Unique in the statement."),
    type: z.enum(LINE_ITEM_TYPES),
    posted_at: timestampField("posted_at", "When it posted: inside the cycle"),
    transaction_date: timestampField("transaction_date", "When it happened").optional(),
    description: simulatedText(MAX_DESCRIPTION_LENGTH).describe("As the cardholder sees it."),
    amount: z
      .int()
      .min(-MAX_SIMULATED, `must be at least -${MAX_SIMULATED}`)
      .max(MAX_SIMULATED, `must be at most ${MAX_SIMULATED}`)
      .describe(
        "In the card-statement sign: `PURCHASE`, `INTEREST`, `FEE` ≥ 0; `PAYMENT`, `CREDIT`, " +
          "`REFUND` ≤ 0.",
      ),
    merchant: z
      .strictObject({
        name: simulatedText(MAX_DESCRIPTION_LENGTH),
        category_code: z.string().regex(MCC_PATTERN, "must be a 4-digit merchant category code"),
        city: simulatedText(100).optional(),
        country: z
          .string()
          .refine(isCountryCode, "must be an ISO 3166-1 alpha-2 country code, such as US")
          .meta({ pattern: "^[A-Z]{2}$" })
          .optional(),
      })
      .optional(),
    original_amount: z.int().min(-MAX_SIMULATED).max(MAX_SIMULATED).optional(),
    original_currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "must be 3 capital letters (ISO 4217)")
      .optional(),
    card_last4: z.string().regex(CARD_LAST4_PATTERN, "must be 4 digits").optional(),
  })
  .superRefine((item, ctx) => {
    const { sign } = LINE_ITEM_TOTALS[item.type];
    if (sign === "charge" ? item.amount < 0 : item.amount > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message:
          sign === "charge"
            ? `must not be negative: a ${item.type} is a charge`
            : `must not be positive: a ${item.type} is money credited back`,
      });
    }
    if ((item.original_amount === undefined) !== (item.original_currency === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [item.original_amount === undefined ? "original_amount" : "original_currency"],
        message: "is required with original_amount or original_currency: send both or neither",
      });
    }
  });

export const SimulateStatementRequest = requestBody(
  "SimulateStatementRequest",
  z.strictObject({
    customer_id: z.string().min(1).max(255).describe("A sandbox customer of the key's product."),
    account_id: z.string().min(1).max(255).describe("One of that customer's accounts."),
    period_end_date: timestampField(
      "period_end_date",
      "When the cycle closes; by default a month after the account's newest statement closed",
    ).optional(),
    due_date: timestampField(
      "due_date",
      "When payment is due; by default 25 days after the cycle closes",
    ).optional(),
    purchases: simulatedAmount("charge", "Purchases of the cycle. Positive."),
    payments: simulatedAmount("credit", "Payments received in the cycle. Negative."),
    credits: simulatedAmount("credit", "Credits applied in the cycle. Negative."),
    refunds: simulatedAmount("credit", "Refunds posted in the cycle. Negative."),
    interest: simulatedAmount("charge", "Interest charged in the cycle. Positive."),
    fees: simulatedAmount("charge", "Fees charged in the cycle. Positive."),
    minimum_due: simulatedAmount("balance", "Minimum payment due; by default worked out."),
    overdue_amount: simulatedAmount("balance", "Portion already past due; by default 0."),
    line_items: z
      .array(SimulatedLineItemSchema)
      .max(MAX_LINE_ITEMS_PER_STATEMENT)
      .optional()
      .describe(
        "The cycle's transactions. The totals are their sums per type (a total sent beside them " +
          "must equal it); without them, line items that add up to the totals are made up: " +
          "purchases at merchants with their category codes, the payment, refunds and credits, " +
          "the interest an APR charged.",
      ),
  }),
);

/** This feature's schemas, in the reference's order. */
export const schemas = [SimulateCustomerRequest, SimulateStatementRequest];
