// The card account, as the API answers it.
import * as z from "zod";
import { amount, currency, listOf, resource, timestamp } from "../canonical/schemas";
import type { Account as AccountBody } from "../domain/account";

export const Account = resource(
  "Account",
  z
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
    .describe("Where the customer stands today on a card account."),
);

export const AccountList = resource("AccountList", listOf(Account.schema));

/** This feature's schemas, in the reference's order. */
export const schemas = [Account, AccountList];

// The schema must describe what handlers build: this fails to compile when the two drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const drift: Same<z.infer<typeof Account.schema>, AccountBody> = true;
void drift;
