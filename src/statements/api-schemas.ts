// The statement and its line items, as the API answers them.
import * as z from "zod";
import {
  amount,
  component,
  currency,
  resource,
  timestamp,
  tokenPageOf,
} from "../canonical/schemas";
import {
  CARD_LAST4_PATTERN,
  LINE_ITEM_TYPES,
  type LineItem as LineItemBody,
  MAX_DESCRIPTION_LENGTH,
  MCC_PATTERN,
} from "../domain/line-item";
import { APR_PATTERN, BALANCE_TYPES, type Statement as StatementBody } from "../domain/statement";
import { STATEMENT_AMOUNTS } from "../domain/statement-amounts";

/** The statement's amounts, each an optional integer described as STATEMENT_AMOUNTS says. */
const amountProperties = Object.fromEntries(
  STATEMENT_AMOUNTS.map((field) => [field.api, amount(field.description)]),
  // Object.fromEntries types its keys as string: these are each amount's API name, once each.
) as { [A in (typeof STATEMENT_AMOUNTS)[number] as A["api"]]: ReturnType<typeof amount> };

export const Statement = resource(
  "Statement",
  z
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
      ...amountProperties,
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
      rewards: z
        .object({
          unit: z
            .string()
            .meta({ pattern: "^(POINTS|[A-Z]{3})$" })
            .describe(
              "`POINTS`, or the statement's `currency` for cash back (then every figure here is " +
                "in its smallest unit).",
            ),
          earned: z
            .int()
            .describe("Earned in the cycle; negative when returns took back more than it earned."),
          redeemed: z
            .int()
            .optional()
            .describe("Redeemed in the cycle. Omitted when not recorded."),
          balance: z
            .int()
            .optional()
            .describe("Held after the cycle, ready to redeem. Omitted when not recorded."),
          by_category: z
            .array(
              z.object({
                category_id: z
                  .string()
                  .describe("One of the account's rewards categories (`category_id`)."),
                earned: z.int().describe("What purchases in the category earned in the cycle."),
              }),
            )
            .optional()
            .describe("What each rewards category earned; these sum to `earned`."),
        })
        .optional()
        .describe(
          "What the cycle earned in rewards, what was redeemed and what is held. Omitted when not " +
            "recorded.",
        ),
    })
    .describe(
      "One closed billing cycle. Amounts are integers in the smallest currency unit; a line " +
        "without activity in the cycle is omitted rather than reported as 0.",
    ),
);

export const StatementList = resource(
  "StatementList",
  tokenPageOf(Statement.schema, "Statements of the page, newest first."),
);

export const LineItem = component(
  "LineItem",
  z
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
    ),
);

export const LineItemList = resource(
  "LineItemList",
  tokenPageOf(
    LineItem.schema,
    "Line items of the page, in the document's order: `posted_at`, then id.",
  ),
);

/** This feature's schemas, in the reference's order. */
export const schemas = [Statement, StatementList, LineItem, LineItemList];

// The schemas must describe what handlers build: these fail to compile when the two drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const drift: [
  Same<z.infer<typeof Statement.schema>, StatementBody>,
  Same<z.infer<typeof LineItem.schema>, LineItemBody>,
] = [true, true];
void drift;
