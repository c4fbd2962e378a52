// One statement of an account, and the line items it carries: GET …/statements/{statement_id} and
// …/statements/{statement_id}/line_items. Each is one D1 round trip (its reads ride in the key
// lookup's statement); the account is checked as the statements list checks it, and a statement
// that is not the account's, or has been hidden, is not found, as one that never existed.
import { statementNotFound } from "../app/errors";
import { requestOrigin } from "../app/request-context";
import { route } from "../app/route";
import { type LineItem, toLineItem } from "../domain/line-item";
import {
  decodeLineItemPageToken,
  encodeLineItemPageToken,
  type LineItemPageBinding,
} from "../domain/page-token";
import { readBinding, requireAccountOwner } from "./account-owner";
import { LineItemList, Statement } from "./api-schemas";
import { foreignLineItemCursor, lineItemListQuery, typeBinding } from "./line-item-query";
import { buildStatement } from "./statement-page";
import { lineItemPageReads, type StatementFound, statementReads } from "./statement-reads";

/** The statement of the path, if the account's and not hidden; 404 otherwise. */
function visibleStatement<Row>(
  path: { account_id: string; statement_id: string },
  found: StatementFound<Row>["statement"],
) {
  if (!found?.visible || found.accountId !== path.account_id) {
    throw statementNotFound(path.statement_id);
  }
  return found.row;
}

export const retrieveStatement = route({
  method: "GET",
  path: "/v2/customers/:customer_id/accounts/:account_id/statements/:statement_id",
  summary: "Retrieve a statement",
  operationId: "retrieveStatement",
  tag: "Statements",
  errors: [
    {
      status: 404,
      types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR", "STATEMENT_NOT_FOUND_ERROR"],
    },
  ],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  // No query: the plan reads from the path alone.
  query: { parameters: [], parse: () => ({}) },
  plan: (_query, params) => statementReads(params.account_id, params.statement_id),
  response: { status: 200, schema: Statement },
  async handler(c, { reads, reply }) {
    const binding = readBinding(c);
    await requireAccountOwner(c, binding, reads.owner);
    const row = visibleStatement(c.req.param(), reads.statement);
    const deps = {
      signer: c.get("signer"),
      now: c.get("now")(),
      origin: requestOrigin(c),
      shard: c.get("caller").shard,
    };
    return reply(await buildStatement(deps, binding.customerId, row));
  },
});

export const listLineItems = route({
  method: "GET",
  path: "/v2/customers/:customer_id/accounts/:account_id/statements/:statement_id/line_items",
  summary: "List a statement's line items",
  operationId: "listStatementLineItems",
  tag: "Statements",
  errors: [
    {
      status: 404,
      types: ["CUSTOMER_NOT_FOUND_ERROR", "ACCOUNT_NOT_FOUND_ERROR", "STATEMENT_NOT_FOUND_ERROR"],
    },
  ],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  query: lineItemListQuery,
  plan: (query, params) =>
    lineItemPageReads(
      params.account_id,
      params.statement_id,
      query.types,
      query.startingAfter?.position ?? null,
      query.limit,
    ),
  response: { status: 200, schema: LineItemList },
  async handler(c, { query, reads, reply }) {
    const filters = typeBinding(query.types);
    const binding: LineItemPageBinding = {
      ...readBinding(c),
      statementId: c.req.param("statement_id"),
      ...(filters === undefined ? {} : { filters }),
    };
    // Nothing read is used before the cursor's signature proves it was issued for this binding.
    const signer = c.get("signer");
    const { startingAfter } = query;
    if (startingAfter && !(await decodeLineItemPageToken(signer, binding, startingAfter.token))) {
      throw foreignLineItemCursor();
    }
    await requireAccountOwner(c, binding, reads.owner);
    visibleStatement(c.req.param(), reads.statement);

    const rows = reads.rows.slice(0, query.limit);
    const last = rows.at(-1);
    const body: { data: LineItem[]; has_more: boolean; next_page_token?: string } = {
      data: rows.map(toLineItem),
      has_more: reads.rows.length > query.limit && last !== undefined,
    };
    if (body.has_more && last) {
      body.next_page_token = await encodeLineItemPageToken(
        signer,
        binding,
        { postedAt: last.postedAt, lineItemId: last.lineItemId },
        c.get("caller").shard,
      );
    }
    return reply(body);
  },
});
