// GET /v2/customers/{customer_id}/accounts/{account_id}/statements: closed statements, newest first.
import { requestOrigin } from "../app/request-context";
import { route } from "../app/route";
import { decodePageToken } from "../domain/page-token";
import { readBinding, requireAccountOwner } from "./account-owner";
import { StatementList } from "./api-schemas";
import { buildStatementPage } from "./statement-page";
import { statementPageReads } from "./statement-pages";
import { filterBinding, foreignCursor, statementListQuery } from "./statement-query";

export const listStatements = route({
  method: "GET",
  path: "/v2/customers/:customer_id/accounts/:account_id/statements",
  summary: "List an account's statements",
  operationId: "listAccountStatements",
  tag: "Statements",
  errors: [{ status: 404, types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR"] }],
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
  response: { status: 200, schema: StatementList },
  async handler(c, { query, reads, reply }) {
    const filtered = filterBinding(query.filters);
    const binding = {
      ...readBinding(c),
      ...(filtered === undefined ? {} : { filters: filtered }),
    };
    // Nothing read is used before the cursor's signature proves it was issued for this binding.
    const { startingAfter } = query;
    if (startingAfter && !(await decodePageToken(c.get("signer"), binding, startingAfter.token))) {
      throw foreignCursor();
    }
    // A continuation's token proves ownership; a first page checks the account's owner row.
    await requireAccountOwner(c, binding, reads.owner);

    const deps = {
      signer: c.get("signer"),
      now: c.get("now")(),
      origin: requestOrigin(c),
      shard: c.get("caller").shard,
    };
    return reply(await buildStatementPage(deps, binding, reads.rows, query.limit));
  },
});
