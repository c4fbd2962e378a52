// A card as the operator import takes it (the `payment_methods` section). Its PAN and CVV are
// secrets: a problem with either names the field and never the value sent, not even its type's
// rendering of it.
import * as z from "zod";
import { id } from "./import-fields";
import { luhnValid } from "./luhn";

export const PAYMENT_METHOD_STATUSES = ["ACTIVE", "INACTIVE", "CANCELED"] as const;
export const CARD_NETWORKS = ["VISA", "MASTERCARD", "AMEX"] as const;
export const CARD_TYPES = ["PHYSICAL", "VIRTUAL"] as const;

const PAN_RULE = "must be 13 to 19 digits passing the Luhn check, ending in last4";
const CVV_RULE = "must be 3 or 4 digits";

const Card = z
  .strictObject({
    network: z.enum(CARD_NETWORKS),
    card_type: z.enum(CARD_TYPES),
    last4: z.string().regex(/^\d{4}$/, "must be 4 digits"),
    expiration_month: z.number().int().min(1).max(12),
    expiration_year: z.number().int().min(1000).max(9999),
    pan: z
      .string({ error: PAN_RULE })
      .regex(/^\d{13,19}$/, PAN_RULE)
      .refine(luhnValid, PAN_RULE),
    cvv: z.string({ error: CVV_RULE }).regex(/^\d{3,4}$/, CVV_RULE),
  })
  .superRefine((card, ctx) => {
    // (Only a PAN that passed its own rules is compared, so that none is refused twice.)
    if (/^\d{13,19}$/.test(card.pan) && luhnValid(card.pan) && !card.pan.endsWith(card.last4)) {
      ctx.addIssue({ code: "custom", path: ["pan"], message: PAN_RULE });
    }
  });

export const PaymentMethodItem = z.strictObject({
  payment_method_id: id,
  customer_id: id,
  account_id: id,
  type: z.literal("CARD"),
  status: z.enum(PAYMENT_METHOD_STATUSES),
  card: Card,
});

export type PaymentMethodInput = z.infer<typeof PaymentMethodItem>;

/** The card fields whose values no message may repeat. */
const SECRET_FIELDS = new Set<PropertyKey>(["pan", "cvv"]);

/**
 * What a message may say of an issue under a payment method item (`path` after the item's index):
 * for the PAN and CVV only whether the field is there and the rule it breaks, never what was sent;
 * null for every other field, which is described as any other.
 */
export function secretFieldProblem(item: unknown, path: readonly PropertyKey[]): string | null {
  const [card, field] = path;
  if (card !== "card" || field === undefined || !SECRET_FIELDS.has(field) || path.length !== 2) {
    return null;
  }
  const holder = typeof item === "object" && item !== null ? Reflect.get(item, "card") : undefined;
  const present =
    typeof holder === "object" && holder !== null && Reflect.get(holder, field) !== undefined;
  if (!present) return "is required";
  return field === "pan" ? PAN_RULE : CVV_RULE;
}
