// GET /v2/customers/{customer_id}/accounts/{account_id}/rewards_categories: what the account's
// card earns per merchant category, the product's whole list (never paged).
import { route } from "../app/route";
import { readBinding, requireAccountOwner } from "../statements";
import { RewardsCategoryList } from "./api-schemas";
import { accountCategoriesReads } from "./rewards-store";

export const listRewardsCategories = route({
  method: "GET",
  path: "/v2/customers/:customer_id/accounts/:account_id/rewards_categories",
  summary: "List an account's rewards categories",
  operationId: "listAccountRewardsCategories",
  tag: "Accounts",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  // No query parameters; declared so that the read below is planned before authentication.
  query: { parameters: [], parse: () => null },
  // Planned from the path alone, so the categories ride in the key lookup's own statement: one
  // D1 round trip, and nothing read for a key that is not live.
  plan: (_query, params) => accountCategoriesReads(params.account_id),
  response: { status: 200, schema: RewardsCategoryList },
  async handler(c, { reads, reply }) {
    await requireAccountOwner(c, readBinding(c), reads.owner);
    return reply({ data: reads.categories, has_more: false });
  },
});
