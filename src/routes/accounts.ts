// GET /v2/customers/{customer_id}/accounts and /accounts/{account_id}: the account as it stands.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { accountNotFound, customerNotFound } from "../app/errors";
import { respond } from "../app/respond";
import { findAccount, readAccountPage, readScopeOf } from "../db/customer-queries";
import { toAccount } from "../domain/account";
import { idPage, parseIdPage } from "./list-params";

export const accountRoutes = new Hono<AppEnv>()
  .get("/v2/customers/:customer_id/accounts", async (c) => {
    const customerId = c.req.param("customer_id");
    const { limit, after } = parseIdPage((name) => c.req.queries(name));
    const scope = readScopeOf(c.get("caller"), c.get("merchantKey"));
    const page = await readAccountPage(c.get("db"), scope, customerId, after, limit);
    if (!page.customerFound) throw customerNotFound(customerId);
    // One instant for the whole page.
    const asOf = c.get("now")().toISOString();
    return respond(
      c,
      "AccountList",
      idPage(page.rows, limit, (row) => toAccount(row, asOf)),
    );
  })
  .get("/v2/customers/:customer_id/accounts/:account_id", async (c) => {
    const customerId = c.req.param("customer_id");
    const accountId = c.req.param("account_id");
    const scope = readScopeOf(c.get("caller"), c.get("merchantKey"));
    const found = await findAccount(c.get("db"), scope, customerId, accountId);
    if (!found.customerFound) throw customerNotFound(customerId);
    if (!found.account) {
      throw accountNotFound(accountId);
    }
    return respond(c, "Account", toAccount(found.account, c.get("now")().toISOString()));
  });
