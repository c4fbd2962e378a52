// Orders and order events as the API answers them, and the bodies that create them. The rules a
// body can be checked against alone (types, bounds, lines adding up to the total) are here; the
// rules that depend on stored state (uniqueness, sums of events) are the writes' own.
import * as z from "zod";
import { component, listOf, requestBody, resource, timestamp } from "../canonical/schemas";

/** The most lines an order holds. */
export const MAX_ORDER_LINES = 100;
/** The most events an order holds (captures and refunds together). */
export const MAX_ORDER_EVENTS = 100;
/** The longest id a partner may give (its order, event, transaction or customer ids). */
const MAX_PARTNER_ID_LENGTH = 255;
/** The largest amount, in minor units: far above any order, and exact in every JSON reader. */
const MAX_AMOUNT = 1_000_000_000_000;

const partnerId = (description: string) =>
  z.string().min(1).max(MAX_PARTNER_ID_LENGTH).describe(description);

export const amountIn = (description: string, min = 0) =>
  z.int().min(min).max(MAX_AMOUNT).describe(`${description}, in the smallest currency unit.`);

export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as USD")
  .describe("ISO 4217 currency code.");

export const Merchant = component(
  "Merchant",
  z
    .strictObject({
      name: z.string().min(1).max(200).describe("The merchant's name."),
      category_code: z
        .string()
        .regex(/^[0-9]{4}$/, "must be a four-digit merchant category code")
        .optional()
        .describe("The merchant category code (MCC), four digits."),
      city: z.string().min(1).max(100).optional(),
      country: z
        .string()
        .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code")
        .optional()
        .describe("ISO 3166-1 alpha-2 country code."),
    })
    .describe("Where the purchase was made."),
);

export const OrderLine = component(
  "OrderLine",
  z
    .strictObject({
      name: z.string().min(1).max(200).describe("What was bought."),
      quantity: z.int().min(1).max(1_000_000),
      unit_amount: amountIn("The price of one"),
      rewards_amount: amountIn("The rewards this line earns").optional(),
      product_url: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .optional(),
    })
    .describe("One line of an order."),
);

export const Order = resource(
  "Order",
  z
    .object({
      order_id: z.string(),
      partner_order_id: z.string().describe("Your identifier for the order."),
      customer_id: z.string(),
      payment_method_id: z.string().optional().describe("The card it was paid with."),
      currency: z.string().describe("ISO 4217 currency code."),
      total_amount: z.int().describe("The order's total, in the smallest currency unit."),
      rewards_amount: z.int().optional().describe("The rewards the order earns."),
      merchant: Merchant.schema.optional(),
      lines: z.array(OrderLine.schema),
      captured_amount: z.int().describe("The sum of the order's CAPTURED events."),
      refunded_amount: z.int().describe("The sum of the order's REFUNDED events."),
      created_at: timestamp("When the order was created"),
      updated_at: timestamp("When the order or its sums last changed"),
    })
    .describe("A purchase at your checkout, paid with one of the programme's cards."),
);

export const OrderList = resource("OrderList", listOf(Order.schema));

/** The lines' total, exactly (quantity × unit amount can pass 2^53 before the bounds refuse it). */
function linesTotal(lines: readonly { quantity: number; unit_amount: number }[]): bigint {
  return lines.reduce((sum, l) => sum + BigInt(l.quantity) * BigInt(l.unit_amount), 0n);
}

export const OrderRequest = requestBody(
  "OrderRequest",
  z
    .strictObject({
      partner_order_id: partnerId(
        "Your identifier for the order: unique per product; cannot change.",
      ),
      customer_id: z.string().min(1).max(MAX_PARTNER_ID_LENGTH).describe("Cannot change."),
      currency: currencyCode.describe("ISO 4217 currency code; cannot change."),
      total_amount: amountIn("The order's total; never below what was captured"),
      payment_method_id: z
        .string()
        .min(1)
        .max(MAX_PARTNER_ID_LENGTH)
        .optional()
        .describe("One of the customer's cards."),
      rewards_amount: amountIn("The rewards the order earns").optional(),
      merchant: Merchant.schema.optional(),
      lines: z
        .array(OrderLine.schema)
        .max(MAX_ORDER_LINES)
        .optional()
        .describe(
          `At most ${MAX_ORDER_LINES}; Σ quantity × unit_amount must equal total_amount. ` +
            "On update, the lines sent replace the order's (none sent: none kept).",
        ),
    })
    .superRefine((body, ctx) => {
      if (body.lines === undefined) return;
      const sum = linesTotal(body.lines);
      if (sum !== BigInt(body.total_amount)) {
        ctx.addIssue({
          code: "custom",
          path: ["lines"],
          message:
            `lines add up to ${sum} (Σ quantity × unit_amount), not the total_amount ` +
            `${body.total_amount}`,
        });
      }
    }),
);

export const OrderEvent = resource(
  "OrderEvent",
  z
    .object({
      order_event_id: z.string(),
      order_id: z.string(),
      type: z.enum(["CAPTURED", "REFUNDED"]),
      amount: z.int().describe("In the smallest currency unit."),
      currency: z.string().describe("The order's currency."),
      network_transaction_id: z.string().describe("The card network's transaction id."),
      partner_event_id: z.string().optional().describe("Your identifier for the event."),
      rewards_amount: z.int().optional(),
      created_at: timestamp("When the event was recorded"),
    })
    .describe("A capture or refund of an order, matched to the card network's transaction."),
);

export const OrderEventList = resource("OrderEventList", listOf(OrderEvent.schema));

export const OrderEventRequest = requestBody(
  "OrderEventRequest",
  z.strictObject({
    order_id: z.string().min(1).max(MAX_PARTNER_ID_LENGTH),
    type: z.enum(["CAPTURED", "REFUNDED"]),
    amount: amountIn(
      "More than zero. Captures never pass the order's total_amount; refunds never pass its " +
        "captures",
      1,
    ),
    network_transaction_id: partnerId("The card network's transaction id."),
    partner_event_id: partnerId("Your identifier for the event: unique per product.").optional(),
    rewards_amount: amountIn("The rewards the event earns or takes back").optional(),
  }),
);

/** This feature's schemas, in the reference's order. */
export const schemas = [
  Order,
  OrderList,
  OrderEvent,
  OrderEventList,
  Merchant,
  OrderLine,
  OrderRequest,
  OrderEventRequest,
];

export type OrderBody = z.infer<typeof Order.schema>;
export type OrderEventBody = z.infer<typeof OrderEvent.schema>;
export type MerchantBody = z.infer<typeof Merchant.schema>;
export type OrderLineBody = z.infer<typeof OrderLine.schema>;
