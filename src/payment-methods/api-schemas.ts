// The payment method (a card), as the API answers it: masked for any key, its PAN and CVV in
// `card.pci_details` only for a key holding PCI_DETAILS_READ, on retrieve.
import * as z from "zod";
import { listOf, requestBody, resource, timestamp } from "../canonical/schemas";
import { CARD_NETWORKS, CARD_TYPES, PAYMENT_METHOD_STATUSES } from "../domain/payment-method-item";

export const WALLETS = ["apple_pay", "google_pay", "samsung_pay"] as const;

const expirationMonth = z.int().min(1).max(12).describe("Expiry month, 1 to 12.");
const expirationYear = z.int().min(1000).max(9999).describe("Expiry year, four digits.");

export const PaymentMethod = resource(
  "PaymentMethod",
  z
    .object({
      payment_method_id: z.string(),
      customer_id: z.string(),
      account_id: z.string().describe("The card account the card draws on."),
      type: z.enum(["CARD"]),
      status: z.enum(PAYMENT_METHOD_STATUSES),
      card: z.object({
        network: z.enum(CARD_NETWORKS),
        card_type: z.enum(CARD_TYPES),
        last4: z.string().describe("The last four digits of the card number."),
        expiration_month: expirationMonth,
        expiration_year: expirationYear,
        wallets: z
          .array(
            z.object({
              wallet: z.enum(WALLETS),
              created_at: timestamp("When the card was provisioned to the wallet"),
            }),
          )
          .describe("The wallets the card was provisioned to, oldest first."),
        pci_details: z
          .object({
            pan: z.string().describe("The full card number."),
            cvv: z.string().describe("The card verification value."),
            expiration_month: expirationMonth,
            expiration_year: expirationYear,
          })
          .optional()
          .describe(
            "Only on retrieve, and only for keys holding PCI_DETAILS_READ; such a response is " +
              "`Cache-Control: no-store`, and each one is recorded in the audit log.",
          ),
      }),
      created_at: timestamp("When the card was first imported"),
    })
    .describe("A customer's card, drawing on one of its card accounts."),
);

export const PaymentMethodList = resource("PaymentMethodList", listOf(PaymentMethod.schema));

export const SimulatePaymentMethodRequest = requestBody(
  "SimulatePaymentMethodRequest",
  z.strictObject({
    customer_id: z.string().min(1).max(255).describe("A sandbox customer of the key's product."),
    account_id: z.string().min(1).max(255).describe("One of that customer's accounts."),
    network: z
      .enum(CARD_NETWORKS)
      .optional()
      .describe("The card's network, whose test range its PAN is on; `VISA` when omitted."),
    card_type: z.enum(CARD_TYPES).optional().describe("`VIRTUAL` when omitted."),
    status: z.enum(PAYMENT_METHOD_STATUSES).optional().describe("`ACTIVE` when omitted."),
  }),
);

/** This feature's schemas, in the reference's order. */
export const schemas = [PaymentMethod, PaymentMethodList, SimulatePaymentMethodRequest];

export type PaymentMethodBody = z.infer<typeof PaymentMethod.schema>;
