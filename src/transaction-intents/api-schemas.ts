// Transaction intents as the API answers them, and the bodies that create and update them.
import * as z from "zod";
import { listOf, requestBody, resource, timestamp } from "../canonical/schemas";
import { amountIn, currencyCode, Merchant } from "../orders";

export const INTENT_STATUSES = ["REQUIRES_CONFIRMATION", "CONFIRMED", "CANCELED"] as const;
/** The most metadata keys an intent holds, and the longest key and value. */
export const METADATA_LIMITS = { keys: 20, keyLength: 40, valueLength: 500 } as const;
const MAX_ID_LENGTH = 255;

const metadata = z
  .record(
    z.string().min(1).max(METADATA_LIMITS.keyLength),
    z.string().max(METADATA_LIMITS.valueLength),
  )
  .refine((value) => Object.keys(value).length <= METADATA_LIMITS.keys, {
    message: `metadata holds at most ${METADATA_LIMITS.keys} keys`,
  })
  .describe(
    `Your own strings: at most ${METADATA_LIMITS.keys} keys of up to ` +
      `${METADATA_LIMITS.keyLength} characters, values of up to ${METADATA_LIMITS.valueLength}.`,
  );

/** A calendar date that exists (`2026-02-30` does not). */
const calendarDate = z
  .string()
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, "must be a date YYYY-MM-DD")
  .refine((value) => new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), {
    message: "must be a date that exists",
  })
  .meta({ format: "date" });

const externalId = (description: string) =>
  z.string().min(1).max(MAX_ID_LENGTH).describe(description);

export const TransactionIntent = resource(
  "TransactionIntent",
  z
    .object({
      intent_id: z.string(),
      customer_id: z.string(),
      payment_method_id: z.string().optional(),
      amount: z.int().describe("In the smallest currency unit."),
      currency: z.string().describe("ISO 4217 currency code."),
      status: z.enum(INTENT_STATUSES),
      network_transaction_id: z.string().optional(),
      partner_transaction_id: z.string().optional(),
      expected_date: z.string().meta({ format: "date" }).optional(),
      merchant: Merchant.schema.optional(),
      metadata: z.record(z.string(), z.string()),
      created_at: timestamp("When the intent was created"),
      updated_at: timestamp("When the intent last changed"),
    })
    .describe(
      "A card transaction you expect before it arrives: you confirm or cancel it, and it is " +
        "matched to the transaction later.",
    ),
);

export const TransactionIntentList = resource(
  "TransactionIntentList",
  listOf(TransactionIntent.schema),
);

export const CreateTransactionIntentRequest = requestBody(
  "CreateTransactionIntentRequest",
  z.strictObject({
    customer_id: z.string().min(1).max(MAX_ID_LENGTH),
    amount: amountIn("More than zero", 1),
    currency: currencyCode,
    payment_method_id: externalId("One of the customer's cards.").optional(),
    network_transaction_id: externalId("The card network's transaction id, when known.").optional(),
    expected_date: calendarDate.optional().describe("When you expect the transaction."),
    merchant: Merchant.schema.optional(),
    metadata: metadata.optional(),
  }),
);

export const UpdateTransactionIntentRequest = requestBody(
  "UpdateTransactionIntentRequest",
  z.strictObject({
    status: z
      .enum(["CONFIRMED", "CANCELED"])
      .optional()
      .describe(
        "REQUIRES_CONFIRMATION → CONFIRMED or CANCELED; CONFIRMED → CANCELED. Any other " +
          "change answers 409.",
      ),
    amount: amountIn("More than zero; cannot change once confirmed", 1).optional(),
    network_transaction_id: externalId("The card network's transaction id.").optional(),
    partner_transaction_id: externalId("Your identifier for the transaction.").optional(),
    metadata: metadata.optional().describe("Replaces the intent's metadata."),
  }),
);

/** This feature's schemas, in the reference's order. */
export const schemas = [
  TransactionIntent,
  TransactionIntentList,
  CreateTransactionIntentRequest,
  UpdateTransactionIntentRequest,
];

export type TransactionIntentBody = z.infer<typeof TransactionIntent.schema>;
export type IntentStatus = (typeof INTENT_STATUSES)[number];
