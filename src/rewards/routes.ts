// GET /v2/customers/{customer_id}/accounts/{account_id}/rewards_categories: what the account's
// card earns per merchant category, the product's whole list (never paged).
import { accountNotFound, customerNotFound } from "../app/errors";
import { readScope } from "../app/pipeline";
import { route } from "../app/route";
import { RewardsCategoryList } from "./api-schemas";
import { readAccountCategories } from "./rewards-store";

export const listRewardsCategories = route({
  method: "GET",
  path: "/v2/customers/:customer_id/accounts/:account_id/rewards_categories",
  summary: "List an account's rewards categories",
  operationId: "listAccountRewardsCategories",
  tag: "Accounts",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  response: { status: 200, schema: RewardsCategoryList },
  async handler(c, { reply }) {
    const customerId = c.req.param("customer_id");
    const accountId = c.req.param("account_id");
    const read = await readAccountCategories(c.get("db"), readScope(c), customerId, accountId);
    if (read.found === "no-customer") throw customerNotFound(customerId);
    if (read.found === "no-account") throw accountNotFound(accountId);
    return reply({ data: read.categories, has_more: false });
  },
});
