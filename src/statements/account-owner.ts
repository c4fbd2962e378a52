// The check every statements read makes of the account it names, after its one round trip: the
// account must be the customer's, inside the caller's partner, environment and product. Only a
// miss pays a second round trip, to tell which of the two ids is unknown.
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { accountNotFound, customerNotFound } from "../app/errors";
import { customerExists } from "../db/customers";
import type { PageBinding } from "../domain/page-token";
import type { AccountOwner } from "./statement-pages";

/** A parameter of the route's path, which every statements route names in it. */
function pathParam(c: Context<AppEnv>, name: "customer_id" | "account_id"): string {
  const value = c.req.param(name);
  if (value === undefined) throw new Error(`The route's path has no :${name}.`);
  return value;
}

/**
 * The read's binding: who reads (partner, environment, product) and which customer's account. The
 * path's ids, and the caller as the pipeline resolved it.
 */
export function readBinding(c: Context<AppEnv>): PageBinding {
  const caller = c.get("caller");
  return {
    partnerId: caller.partnerId,
    environment: caller.environment,
    merchantKey: c.get("merchantKey"),
    customerId: pathParam(c, "customer_id"),
    accountId: pathParam(c, "account_id"),
  };
}

/**
 * Refuses an account that is not the binding's customer's (404 naming the customer or the
 * account, byte for byte as for ids that never existed). `owner` undefined: not read, because a
 * continuation's signed token already proves it.
 */
export async function requireAccountOwner(
  c: Context<AppEnv>,
  binding: PageBinding,
  owner: AccountOwner | null | undefined,
): Promise<void> {
  const owned =
    owner === undefined ||
    (owner !== null &&
      owner.customerId === binding.customerId &&
      owner.partnerId === binding.partnerId &&
      owner.environment === binding.environment &&
      owner.merchantKey === binding.merchantKey);
  if (owned) return;
  if (!(await customerExists(c.get("db"), binding, binding.customerId))) {
    throw customerNotFound(binding.customerId);
  }
  throw accountNotFound(binding.accountId);
}
