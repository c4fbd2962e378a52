// An account's rewards categories, as the API answers them (CONTRACT §11).
import * as z from "zod";
import { component, resource } from "../canonical/schemas";
import {
  type RewardsCategory as CategoryBody,
  EARN_RATE_PATTERN,
  EARN_UNITS,
} from "../domain/rewards";

export const RewardsCategory = component(
  "RewardsCategory",
  z
    .object({
      category_id: z.string().describe("Identifier of the category, unique in its product."),
      name: z.string().describe("What the cardholder is shown, such as `Dining`."),
      merchant_category_codes: z
        .array(z.string().meta({ pattern: "^[0-9]{4}$" }))
        .describe(
          "The merchant category codes (ISO 18245, four digits) the category covers; empty for " +
            "the catch-all category, which covers every purchase no other category does.",
        ),
      earn_rate: z
        .string()
        .meta({ pattern: EARN_RATE_PATTERN.source })
        .describe('What a purchase earns, as a decimal string exactly as set: `"3"`, `"1.5"`.'),
      earn_unit: z
        .enum(EARN_UNITS)
        .describe(
          "`POINTS_PER_DOLLAR`: points per whole unit of currency spent; `PERCENT_CASH_BACK`: " +
            "that percent of the amount spent, back in the statement's currency.",
        ),
    })
    .describe("What a card earns on purchases of one kind of merchant."),
);

export const RewardsCategoryList = resource(
  "RewardsCategoryList",
  z.object({
    data: z
      .array(RewardsCategory.schema)
      .describe("Every category of the account's product, in the product's order."),
    has_more: z.boolean().describe("Always false: the list is never paged."),
  }),
);

/** This feature's schemas, in the reference's order. */
export const schemas = [RewardsCategory, RewardsCategoryList];

// The schema must describe what handlers build: this fails to compile when the two drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const drift: Same<z.infer<typeof RewardsCategory.schema>, CategoryBody> = true;
void drift;
