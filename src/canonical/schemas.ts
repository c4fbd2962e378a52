// The canonical (newest) schemas of every /v2 body, in zod: the source the reference is built from.
import * as z from "zod";
import type { Account } from "../domain/account";
import { isCountryCode } from "../domain/country-codes";
import {
  type Customer,
  PARTNER_CUSTOMER_ID_MAX,
  partnerCustomerIdProblem,
} from "../domain/customer";
import { ID_PATTERN } from "../domain/import-fields";
import {
  CARD_LAST4_PATTERN,
  LINE_ITEM_TOTALS,
  LINE_ITEM_TYPES,
  type LineItem,
  MAX_DESCRIPTION_LENGTH,
  MAX_LINE_ITEMS_PER_STATEMENT,
  MCC_PATTERN,
} from "../domain/line-item";
import { SCOPES } from "../domain/scopes";
import { APR_PATTERN, BALANCE_TYPES, type Statement } from "../domain/statement";
import { normaliseTimestamp } from "../domain/timestamp";
import type { SchemaMap } from "../versioning";
import {
  CreateWebhookEndpointRequestSchema,
  DeliveryAttemptSchema,
  EventTypeSchema,
  eventSchemas,
  RecoverWebhookEndpointRequestSchema,
  ResendEventRequestSchema,
  RollWebhookEndpointSecretRequestSchema,
  UpdateWebhookEndpointRequestSchema,
  WebhookEndpointRecoverySchema,
  WebhookEndpointSchema,
} from "./webhook-schemas";

const timestamp = (description: string) =>
  z.string().meta({ format: "date-time", description: `${description} (RFC 3339).` });
const amount = (description: string) => z.int().optional().describe(description);
const currency = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .optional()
  .describe("ISO 4217 currency code.");

export const StatementSchema = z
  .object({
    statement_id: z.string().describe("Unique identifier of the statement."),
    customer_id: z.string().describe("Identifier of the customer."),
    account_id: z.string().describe("Identifier of the account the statement belongs to."),
    as_of: timestamp(
      "When the statement was read: when the request was served, the same for a whole page",
    ),
    period_start_date: timestamp("First day of the billing cycle").optional(),
    period_end_date: timestamp("When the cycle closed; this is the statement date").optional(),
    due_date: timestamp("When payment for the statement is due").optional(),
    pdf: z
      .object({
        url: z.string().meta({ format: "uri", description: "Signed link to the statement PDF." }),
        expires_at: timestamp("When the link stops working: one hour after `as_of`"),
      })
      .optional()
      .describe("The statement PDF. Omitted while the document is not available."),
    currency,
    statement_balance: amount("Balance owed when the cycle closed; negative if paid ahead."),
    minimum_due: amount("Minimum payment required by `due_date` to keep the account current."),
    previous_balance: amount("Balance carried over from the previous cycle."),
    purchases: amount("Total purchases posted in the cycle. Positive."),
    payments: amount("Total payments received in the cycle. Negative."),
    credits: amount("Total credits applied in the cycle. Negative."),
    refunds: amount("Total refunds posted in the cycle. Negative."),
    interest: amount("Interest charged in the cycle. Positive."),
    fees: amount("Fees charged in the cycle. Positive."),
    overdue_amount: amount("Portion of `statement_balance` already past due at cycle close."),
    interest_rates: z
      .array(
        z.object({
          balance_type: z
            .enum(BALANCE_TYPES)
            .describe("The balance the rate applies to: purchases, cash advances or transfers."),
          annual_percentage_rate: z
            .string()
            .meta({ pattern: APR_PATTERN.source })
            .describe('The APR as a decimal string, e.g. `"24.99"` (up to 4 decimals).'),
          balance_subject_to_interest: z
            .int()
            .describe("The balance the rate was applied to, in the smallest currency unit."),
          interest: z.int().describe("Interest the rate charged in the cycle. Positive."),
        }),
      )
      .optional()
      .describe(
        "Each periodic rate of the cycle, one per balance type; their `interest` sums to the " +
          "statement's. Omitted when not recorded.",
      ),
    year_to_date: z
      .object({
        fees: z.int().describe("Fees charged in the calendar year so far, this cycle included."),
        interest: z
          .int()
          .describe("Interest charged in the calendar year so far, this cycle included."),
      })
      .optional()
      .describe("Totals for the calendar year of `period_end_date`. Omitted when not recorded."),
    restated_by: z
      .string()
      .optional()
      .describe(
        "The `statement_id` of the correction that replaced this statement. A restated " +
          "statement leaves the list (its correction stands in its place) but can still be " +
          "retrieved by id.",
      ),
    restates: z
      .string()
      .optional()
      .describe("The `statement_id` of the statement this one corrects."),
  })
  .describe(
    "One closed billing cycle. Amounts are integers in the smallest currency unit; a line " +
      "without activity in the cycle is omitted rather than reported as 0.",
  );

export const StatementListSchema = z.object({
  data: z.array(StatementSchema).describe("Statements of the page, newest first."),
  has_more: z.boolean().describe("True when another page exists."),
  next_page_token: z
    .string()
    .optional()
    .describe("Opaque cursor for the next page, sent back as `starting_after`; only with more."),
});

export const LineItemSchema = z
  .object({
    line_item_id: z.string().describe("Unique identifier of the line item in its statement."),
    type: z
      .enum(LINE_ITEM_TYPES)
      .describe(
        "`PURCHASE`, `INTEREST` and `FEE` are charges (positive or zero); `PAYMENT`, `CREDIT` " +
          "and `REFUND` are money credited back (negative or zero).",
      ),
    posted_at: timestamp("When the transaction was posted to the account, inside the cycle"),
    transaction_date: timestamp("When the transaction happened").optional(),
    description: z
      .string()
      .meta({ minLength: 1, maxLength: MAX_DESCRIPTION_LENGTH })
      .describe("The transaction as the cardholder sees it on the statement."),
    amount: z
      .int()
      .describe("In the smallest currency unit of the statement, in the card-statement sign."),
    merchant: z
      .object({
        name: z.string(),
        category_code: z
          .string()
          .meta({ pattern: MCC_PATTERN.source })
          .describe("The merchant category code (MCC), four digits."),
        city: z.string().optional(),
        country: z
          .string()
          .meta({ pattern: "^[A-Z]{2}$" })
          .optional()
          .describe("ISO 3166-1 alpha-2 country code."),
      })
      .optional()
      .describe("Where the card was used; omitted for payments, interest and most fees."),
    original_amount: z
      .int()
      .optional()
      .describe("For a foreign transaction: its amount in `original_currency`'s smallest unit."),
    original_currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional()
      .describe("For a foreign transaction: its ISO 4217 currency."),
    card_last4: z
      .string()
      .meta({ pattern: CARD_LAST4_PATTERN.source })
      .optional()
      .describe("The last four digits of the card used."),
  })
  .describe(
    "One transaction of a statement. The line items of a type sum to the statement's total of " +
      "that type (`PURCHASE` to `purchases`, …), and `previous_balance` plus every line item " +
      "is `statement_balance`.",
  );

export const LineItemListSchema = z.object({
  data: z
    .array(LineItemSchema)
    .describe("Line items of the page, in the document's order: `posted_at`, then id."),
  has_more: z.boolean().describe("True when another page exists."),
  next_page_token: z
    .string()
    .optional()
    .describe("Opaque cursor for the next page, sent back as `starting_after`; only with more."),
});

export const AccountSchema = z
  .object({
    account_id: z.string(),
    customer_id: z.string(),
    status: z.string().optional(),
    currency,
    credit_limit: amount("Credit limit, in the smallest currency unit."),
    current_balance: amount("Balance today, in the smallest currency unit."),
    available_credit: amount("Credit still available, in the smallest currency unit."),
    as_of: timestamp("When the account was read, which is when the request was served"),
  })
  .describe("Where the customer stands today on a card account.");

export const CustomerSchema = z.object({
  customer_id: z.string(),
  partner_customer_id: z
    .string()
    .optional()
    .describe("Your own identifier for the customer, once linked."),
  authorized_users: z
    .array(z.object({ authorized_user_id: z.string(), name: z.string() }))
    .optional()
    .describe("Only on retrieve, and only for keys holding AUTHORIZED_USER_READ."),
});

/**
 * A customer a sandbox simulation created: as retrieving it shows it, with the accounts it opened.
 * Its fields are Customer's: a version change to Customer changes this schema too
 * (test/reference/docs.test.ts holds the two together in every version).
 */
export const SimulatedCustomerSchema = CustomerSchema.extend({
  accounts: z
    .array(AccountSchema)
    .describe("The accounts it opened, as the accounts list shows them."),
});

/** The `{data, has_more}` page of every list except statements. */
const listOf = (item: z.ZodType) =>
  z.object({
    data: z.array(item),
    has_more: z.boolean().describe("True when another page exists; page on with the last id."),
  });

export const ApiKeySchema = z.object({
  key_id: z.string(),
  api_key: z.string().describe("The key itself; shown only in this response."),
  environment: z.enum(["sandbox", "production"]),
  scopes: z.array(z.enum(SCOPES)).describe("Exactly the scopes of the key that created it."),
  created_at: timestamp("When the key was created"),
  name: z.string().optional(),
});

/** Every error type the service emits, canonical names; `ErrorType` (app/errors.ts) is read from it. */
export const ERROR_TYPES = [
  "UNAUTHORIZED_ERROR",
  "BAD_REQUEST_ERROR",
  "INVALID_REQUEST_ERROR",
  "FORBIDDEN_ERROR",
  "NOT_FOUND_ERROR",
  "CUSTOMER_NOT_FOUND_ERROR",
  "ACCOUNT_NOT_FOUND_ERROR",
  "STATEMENT_NOT_FOUND_ERROR",
  "CONFLICT_ERROR",
  "IDEMPOTENCY_KEY_IN_USE_ERROR",
  "IDEMPOTENCY_KEY_REUSED_ERROR",
  "PRECONDITION_FAILED_ERROR",
  "PAYLOAD_TOO_LARGE_ERROR",
  "UNSUPPORTED_MEDIA_TYPE_ERROR",
  "RANGE_NOT_SATISFIABLE_ERROR",
  "RATE_LIMITED_ERROR",
  "NOT_IMPLEMENTED_ERROR",
  "SERVICE_UNAVAILABLE_ERROR",
  "INTERNAL_ERROR",
] as const;

/** The ApiError envelope, narrowed to some error types. */
const envelope = (types: readonly [string, ...string[]], description: string) =>
  z
    .object({
      error: z.object({
        type: z.enum(types),
        message: z.string(),
        param: z.string().optional().describe("The parameter or header at fault."),
        details: z.array(z.string()).optional().describe("Each problem found, for validation."),
      }),
    })
    .describe(description);

export const ApiErrorSchema = envelope(ERROR_TYPES, "Every error, in one envelope.");
export const InvalidRequestErrorSchema = envelope(
  ["INVALID_REQUEST_ERROR"],
  "A request that failed validation; `details` lists each problem.",
);
export const CustomerNotFoundErrorSchema = envelope(
  ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"],
  "The customer, or the customer's account, does not exist for this key.",
);
export const StatementNotFoundErrorSchema = envelope(
  ["STATEMENT_NOT_FOUND_ERROR"],
  "The statement is not one of the account's, or has been hidden.",
);

// Request bodies are closed: a field the version does not have is refused, not ignored. Each is
// the one schema its route validates with and the reference publishes.
export const CustomerLinkRequestSchema = z.strictObject({
  partner_customer_id: z
    .string()
    .superRefine((value, ctx) => {
      const problem = partnerCustomerIdProblem(value);
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
    })
    // Counted in characters (code points), as JSON Schema counts them.
    .meta({ minLength: 1, maxLength: PARTNER_CUSTOMER_ID_MAX })
    .describe("Your identifier for the customer."),
});

export const CreateKeyRequestSchema = z.strictObject({
  name: z.string().min(1).max(255).optional().describe("A label for the key."),
});

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

export const SimulateCustomerRequestSchema = z.strictObject({
  partner_customer_id: CustomerLinkRequestSchema.shape.partner_customer_id
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
});

/** Text a cardholder reads on a simulated line item: 1 to `max` characters, not blank. */
const simulatedText = (max: number) =>
  z
    .string()
    .refine((value) => value.trim() !== "", "must not be empty or blank")
    .refine((value) => [...value].length <= max, `must be at most ${max} characters long`)
    .meta({ minLength: 1, maxLength: max });

/** A line item a simulation is given: the operator import's line item (CONTRACT §9). */
export const SimulatedLineItemSchema = z
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

export const SimulateStatementRequestSchema = z.strictObject({
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
});

const { Event, EventList, EventResend } = eventSchemas(StatementSchema);

/** The request bodies, by the name versions use for them. */
export const REQUEST_SCHEMAS = {
  CustomerLinkRequest: CustomerLinkRequestSchema,
  CreateKeyRequest: CreateKeyRequestSchema,
  CreateWebhookEndpointRequest: CreateWebhookEndpointRequestSchema,
  UpdateWebhookEndpointRequest: UpdateWebhookEndpointRequestSchema,
  RecoverWebhookEndpointRequest: RecoverWebhookEndpointRequestSchema,
  RollWebhookEndpointSecretRequest: RollWebhookEndpointSecretRequestSchema,
  ResendEventRequest: ResendEventRequestSchema,
  SimulateCustomerRequest: SimulateCustomerRequestSchema,
  SimulateStatementRequest: SimulateStatementRequestSchema,
} as const;

/** Names of the request bodies a change can reshape. */
export type RequestName = keyof typeof REQUEST_SCHEMAS;

const registry = z.registry<{ id: string }>();
const NAMED = {
  Statement: StatementSchema,
  StatementList: StatementListSchema,
  LineItem: LineItemSchema,
  LineItemList: LineItemListSchema,
  Account: AccountSchema,
  AccountList: listOf(AccountSchema),
  Customer: CustomerSchema,
  CustomerList: listOf(CustomerSchema),
  SimulatedCustomer: SimulatedCustomerSchema,
  ApiKey: ApiKeySchema,
  ApiError: ApiErrorSchema,
  InvalidRequestError: InvalidRequestErrorSchema,
  CustomerNotFoundError: CustomerNotFoundErrorSchema,
  StatementNotFoundError: StatementNotFoundErrorSchema,
  Event,
  EventList,
  EventResend,
  WebhookEndpoint: WebhookEndpointSchema,
  WebhookEndpointList: listOf(WebhookEndpointSchema),
  WebhookEndpointRecovery: WebhookEndpointRecoverySchema,
  EventTypeList: listOf(EventTypeSchema),
  DeliveryAttempt: DeliveryAttemptSchema,
  DeliveryAttemptList: listOf(DeliveryAttemptSchema),
  ...REQUEST_SCHEMAS,
} as const;
for (const [id, schema] of Object.entries(NAMED)) registry.add(schema, { id });

export type SchemaName = keyof typeof NAMED;

/** A named schema of the canonical model, by reference: what a route declares its bodies with. */
export interface SchemaRef<Name extends SchemaName = SchemaName> {
  readonly name: Name;
  readonly schema: (typeof NAMED)[Name];
}

/** Every named schema, by reference. */
export const schemas = Object.fromEntries(
  Object.entries(NAMED).map(([name, schema]) => [name, { name, schema }]),
) as { readonly [Name in SchemaName]: SchemaRef<Name> };

/** The canonical body of a schema: what a handler builds, or what a request body reads as. */
export type BodyOf<Ref extends SchemaRef> = z.output<Ref["schema"]>;

/** Per named schema, the names of its fields: what version changes may name. */
export type CanonicalFields = {
  [Name in SchemaName]: keyof z.output<(typeof NAMED)[Name]> & string;
};

/** Response bodies other than errors: each is a schema of the same name. */
export const RESOURCES = [
  "Statement",
  "StatementList",
  "LineItemList",
  "Account",
  "AccountList",
  "Customer",
  "CustomerList",
  "SimulatedCustomer",
  "ApiKey",
  "Event",
  "EventList",
  "WebhookEndpoint",
  "WebhookEndpointList",
  "DeliveryAttemptList",
  "EventResend",
  "WebhookEndpointRecovery",
  "EventTypeList",
] as const satisfies readonly SchemaName[];

/** Names of the response bodies a change can reshape (the canonical schemas), and `Error`. */
export type ResourceName = (typeof RESOURCES)[number] | "Error";

/**
 * Shapes zod's output for publication: response objects stay open (a new response field is not a
 * breaking change) while request bodies stay closed, and integers say int64 rather than spelling
 * out the safe-integer bounds.
 */
function publishable(value: unknown, closed: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => publishable(item, closed));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$schema" || key === "$id") continue;
    if (key === "additionalProperties" && child === false && !closed) continue;
    if ((key === "minimum" || key === "maximum") && Math.abs(Number(child)) === MAX_SAFE) continue;
    out[key] = publishable(child, closed);
  }
  if (out.type === "integer" && out.minimum === undefined) out.format = "int64";
  return out;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

let canonical: SchemaMap | undefined;

/** The canonical schemas as OpenAPI 3.1 components, built once per isolate. */
export function canonicalSchemas(): SchemaMap {
  if (!canonical) {
    const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` });
    canonical = Object.fromEntries(
      Object.entries(schemas).map(([name, schema]) => [
        name,
        publishable(schema, name in REQUEST_SCHEMAS),
      ]),
    ) as SchemaMap;
  }
  return canonical;
}

// The schemas must describe what handlers build: these fail to compile when the two drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const drift: [
  Same<z.infer<typeof StatementSchema>, Statement>,
  Same<z.infer<typeof LineItemSchema>, LineItem>,
  Same<z.infer<typeof AccountSchema>, Account>,
  Same<z.infer<typeof CustomerSchema>, Customer>,
  Same<z.infer<typeof SimulatedCustomerSchema>, Customer & { accounts: Account[] }>,
] = [true, true, true, true, true];
void drift;
