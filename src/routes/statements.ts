// GET /v2/customers/{customer_id}/accounts/{account_id}/statements: closed statements, newest first.
import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/context";
import { accountNotFound, customerNotFound, invalidRequest } from "../app/errors";
import { respond } from "../app/respond";
import { buildStatementPage } from "../app/statement-page";
import { customerExists, statementPageReads, statementPageResults } from "../db/queries";
import { decodePageToken, type PagePosition, peekPagePosition } from "../domain/page-token";
import { parseLimit } from "./list-params";
import { filterBinding, readPeriodEndFilters } from "./statement-filters";

export const STATEMENTS_PATH = "/v2/customers/:customer_id/accounts/:account_id/statements";

/** The single `starting_after` value, or undefined when absent; null when repeated or empty. */
function startingAfter(values: string[] | undefined): string | null | undefined {
  if (values === undefined) return undefined;
  return values.length === 1 && values[0] ? values[0] : null;
}

/**
 * Plans the page's reads from the request alone, before authentication, so that they are the key
 * lookup itself (one D1 round trip per page, and nothing read for a key that is not live). Nothing
 * read is used before the handler has checked the caller, the product, the token's signature and
 * the account's owner. A request whose parameters are invalid plans nothing: it is authenticated
 * as usual, and the handler answers 400 without reading.
 */
export const planStatementPage: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = startingAfter(c.req.queries("starting_after"));
  const after = typeof token === "string" ? peekPagePosition(token) : null;
  const limit = parseLimitOrNull(c.req.queries("limit"));
  const filters = readPeriodEndFilters((name) => c.req.queries(name));
  const valid = limit !== null && !(filters instanceof Error);
  if (valid && token !== null && (token === undefined || after !== null)) {
    c.set("readAhead", statementPageReads(c.req.param("account_id") ?? "", after, limit, filters));
  }
  await next();
};

function parseLimitOrNull(values: string[] | undefined): number | null {
  try {
    return parseLimit(values);
  } catch {
    return null;
  }
}

export const statementRoutes = new Hono<AppEnv>().get(STATEMENTS_PATH, async (c) => {
  const customerId = c.req.param("customer_id");
  const accountId = c.req.param("account_id");
  const caller = c.get("caller");
  const limit = parseLimit(c.req.queries("limit"));
  const filters = readPeriodEndFilters((name) => c.req.queries(name));
  if (filters instanceof Error) throw filters;
  const filtered = filterBinding(filters);
  const binding = {
    partnerId: caller.partnerId,
    environment: caller.environment,
    merchantKey: c.get("merchantKey"),
    customerId,
    accountId,
    ...(filtered === undefined ? {} : { filters: filtered }),
  };

  const token = startingAfter(c.req.queries("starting_after"));
  let after: PagePosition | null = null;
  if (token !== undefined) {
    after = token === null ? null : await decodePageToken(c.get("signer"), binding, token);
    if (!after) {
      throw invalidRequest(
        [
          "starting_after must be a next_page_token returned by this endpoint for this account " +
            "and the same period_end_date filters",
        ],
        "starting_after",
      );
    }
  }

  // Read with the key lookup: planning accepts every request whose limit and token pass here.
  const results = c.get("readAheadResults");
  if (!results) throw new Error("a valid statements request was not planned");
  const { owner, rows: pageRows } = statementPageResults(results);
  // A continuation's token proves ownership; a first page checks the account's owner row.
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

  const deps = { signer: c.get("signer"), now: c.get("now")(), origin: new URL(c.req.url).origin };
  const body = await buildStatementPage(deps, binding, pageRows, limit);
  return respond(c, "StatementList", body);
});
