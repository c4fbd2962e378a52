// GET /v2/customers/{customer_id}/accounts/{account_id}/statements: closed statements, newest first.
import { accountNotFound, customerNotFound } from "../app/errors";
import { requestOrigin } from "../app/request-context";
import { route } from "../app/route";
import { schemas } from "../canonical/schemas";
import { customerExists } from "../db/customers";
import { decodePageToken } from "../domain/page-token";
import { buildStatementPage } from "./statement-page";
import { statementPageReads } from "./statement-pages";
import { filterBinding, foreignCursor, statementListQuery } from "./statement-query";

export const listStatements = route({
  method: "GET",
  path: "/v2/customers/:customer_id/accounts/:account_id/statements",
  summary: "List an account's statements",
  scope: "ACCOUNT_READ",
  customerScoped: true,
  query: statementListQuery,
  // Planned from the request alone, so the page rides in the key lookup's own statement: one D1
  // round trip, and nothing read for a key that is not live.
  plan: (query, params) =>
    statementPageReads(
      params.account_id,
      query.startingAfter?.position ?? null,
      query.limit,
      query.filters,
    ),
  response: { status: 200, schema: schemas.StatementList },
  async handler(c, { query, reads, reply }) {
    const customerId = c.req.param("customer_id");
    const accountId = c.req.param("account_id");
    const caller = c.get("caller");
    const filtered = filterBinding(query.filters);
    const binding = {
      partnerId: caller.partnerId,
      environment: caller.environment,
      merchantKey: c.get("merchantKey"),
      customerId,
      accountId,
      ...(filtered === undefined ? {} : { filters: filtered }),
    };
    // Nothing read is used before the cursor's signature proves it was issued for this binding.
    const { startingAfter } = query;
    if (startingAfter && !(await decodePageToken(c.get("signer"), binding, startingAfter.token))) {
      throw foreignCursor();
    }

    // A continuation's token proves ownership; a first page checks the account's owner row.
    const { owner, rows } = reads;
    const owned =
      owner === undefined ||
      (owner !== null &&
        owner.customerId === customerId &&
        owner.partnerId === binding.partnerId &&
        owner.environment === binding.environment &&
        owner.merchantKey === binding.merchantKey);
    if (!owned) {
      // Only a miss pays a second round trip, to tell which of the two ids is unknown.
      if (!(await customerExists(c.get("db"), binding, customerId))) {
        throw customerNotFound(customerId);
      }
      throw accountNotFound(accountId);
    }

    const deps = {
      signer: c.get("signer"),
      now: c.get("now")(),
      origin: requestOrigin(c),
      shard: caller.shard,
    };
    return reply(await buildStatementPage(deps, binding, rows, query.limit));
  },
});
