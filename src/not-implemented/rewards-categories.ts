// An account's rewards categories: named by the specification's scope table, without the
// behaviour: 501.
import { notImplemented } from "../app/route";

export const listRewardsCategories = notImplemented({
  method: "GET",
  path: "/v2/customers/:customer_id/accounts/:account_id/rewards_categories",
  summary: "List an account's rewards categories",
  operationId: "listAccountRewardsCategories",
  tag: "Accounts",
  scope: "ACCOUNT_READ",
});
