// The customer, as the API answers it, and the request that links it to the partner's own id.
import * as z from "zod";
import { Account } from "../accounts";
import { listOf, requestBody, resource } from "../canonical/schemas";
import type { Account as AccountBody } from "../domain/account";
import {
  type Customer as CustomerBody,
  PARTNER_CUSTOMER_ID_MAX,
  partnerCustomerIdProblem,
} from "../domain/customer";

export const Customer = resource(
  "Customer",
  z.object({
    customer_id: z.string(),
    partner_customer_id: z
      .string()
      .optional()
      .describe("Your own identifier for the customer, once linked."),
    authorized_users: z
      .array(z.object({ authorized_user_id: z.string(), name: z.string() }))
      .optional()
      .describe("Only on retrieve, and only for keys holding AUTHORIZED_USER_READ."),
  }),
);

export const CustomerList = resource("CustomerList", listOf(Customer.schema));

/**
 * A customer a sandbox simulation created: as retrieving it shows it, with the accounts it opened.
 * Its fields are Customer's: a version change to Customer changes this schema too
 * (test/reference/docs.test.ts holds the two together in every version).
 */
export const SimulatedCustomer = resource(
  "SimulatedCustomer",
  Customer.schema.extend({
    accounts: z
      .array(Account.schema)
      .describe("The accounts it opened, as the accounts list shows them."),
  }),
);

export const CustomerLinkRequest = requestBody(
  "CustomerLinkRequest",
  z.strictObject({
    partner_customer_id: z
      .string()
      .superRefine((value, ctx) => {
        const problem = partnerCustomerIdProblem(value);
        if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
      })
      // Counted in characters (code points), as JSON Schema counts them.
      .meta({ minLength: 1, maxLength: PARTNER_CUSTOMER_ID_MAX })
      .describe("Your identifier for the customer."),
  }),
);

/** This feature's schemas, in the reference's order. */
export const schemas = [Customer, CustomerList, SimulatedCustomer, CustomerLinkRequest];

// The schemas must describe what handlers build: these fail to compile when the two drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const drift: [
  Same<z.infer<typeof Customer.schema>, CustomerBody>,
  Same<z.infer<typeof SimulatedCustomer.schema>, CustomerBody & { accounts: AccountBody[] }>,
] = [true, true];
void drift;
