// GET /v2/customers/{customer_id}/accounts and /accounts/{account_id}: the account as it stands.
import { accountNotFound, customerNotFound } from "../app/errors";
import { readScope } from "../app/pipeline";
import { idPage, idPageQuery } from "../app/query";
import { route } from "../app/route";
import { toAccount } from "../domain/account";
import { findAccount, readAccountPage } from "./account-store";
import { Account, AccountList } from "./api-schemas";

export const listAccounts = route({
  method: "GET",
  path: "/v2/customers/:customer_id/accounts",
  summary: "List a customer's accounts",
  operationId: "listCustomerAccounts",
  tag: "Accounts",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  query: idPageQuery,
  response: { status: 200, schema: AccountList },
  async handler(c, { query: { limit, after }, reply }) {
    const customerId = c.req.param("customer_id");
    const scope = readScope(c);
    const page = await readAccountPage(c.get("db"), scope, customerId, after, limit);
    if (!page.customerFound) throw customerNotFound(customerId);
    // One instant for the whole page.
    const asOf = c.get("now")().toISOString();
    return reply(idPage(page.rows, limit, (row) => toAccount(row, asOf)));
  },
});

export const retrieveAccount = route({
  method: "GET",
  path: "/v2/customers/:customer_id/accounts/:account_id",
  summary: "Retrieve an account",
  operationId: "retrieveAccount",
  tag: "Accounts",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  response: { status: 200, schema: Account },
  async handler(c, { reply }) {
    const customerId = c.req.param("customer_id");
    const accountId = c.req.param("account_id");
    const scope = readScope(c);
    const found = await findAccount(c.get("db"), scope, customerId, accountId);
    if (!found.customerFound) throw customerNotFound(customerId);
    if (!found.account) throw accountNotFound(accountId);
    return reply(toAccount(found.account, c.get("now")().toISOString()));
  },
});
