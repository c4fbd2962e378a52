// GET /v2/customers/{customer_id}/accounts/{account_id}/statements: closed statements, newest first.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { respond } from "../app/respond";
import { readStatementPage } from "../db/queries";
import { decodePageToken, encodePageToken, type PagePosition } from "../domain/page-token";
import { type Statement, toStatement } from "../domain/statement";
import { LINK_LIFETIME_MS, signStatementLink } from "../domain/statement-link";
import { parseLimit } from "./list-params";

export const statementRoutes = new Hono<AppEnv>().get(
  "/v2/customers/:customer_id/accounts/:account_id/statements",
  async (c) => {
    const customerId = c.req.param("customer_id");
    const accountId = c.req.param("account_id");
    const caller = c.get("caller");
    const limit = parseLimit(c.req.queries("limit"));
    const binding = {
      partnerId: caller.partnerId,
      environment: caller.environment,
      merchantKey: c.get("merchantKey"),
      customerId,
      accountId,
    };

    const tokens = c.req.queries("starting_after");
    let after: PagePosition | null = null;
    if (tokens !== undefined) {
      const [token] = tokens;
      after =
        tokens.length === 1 && token
          ? await decodePageToken(c.get("signer"), binding, token)
          : null;
      if (!after) {
        throw invalidRequest(
          ["starting_after must be a next_page_token returned by this endpoint for this account"],
          "starting_after",
        );
      }
    }

    const page = await readStatementPage(c.get("db"), binding, customerId, accountId, after, limit);
    if (!page.customerFound) {
      throw new ApiError(
        "CUSTOMER_NOT_FOUND_ERROR",
        `No such customer: ${JSON.stringify(customerId)}`,
        {
          param: "customer_id",
        },
      );
    }
    if (!page.accountFound) {
      throw new ApiError(
        "ACCOUNT_NOT_FOUND_ERROR",
        `No such account for this customer: ${JSON.stringify(accountId)}`,
        { param: "account_id" },
      );
    }

    // One instant for the whole page: as_of, and the expiry of every link on it.
    const now = c.get("now")();
    const asOf = now.toISOString();
    const expiresAt = now.getTime() + LINK_LIFETIME_MS;
    const expiresAtText = new Date(expiresAt).toISOString();
    const origin = new URL(c.req.url).origin;
    const rows = page.rows.slice(0, limit);
    const data: Statement[] = await Promise.all(
      rows.map(async (row) => {
        const pdf = row.pdfKey
          ? {
              url: await signStatementLink(c.get("signer"), origin, row.statementId, expiresAt),
              expires_at: expiresAtText,
            }
          : undefined;
        return toStatement(row, customerId, asOf, pdf);
      }),
    );

    const last = rows.at(-1);
    const hasMore = page.rows.length > limit && last !== undefined;
    const body: { data: Statement[]; has_more: boolean; next_page_token?: string } = {
      data,
      has_more: hasMore,
    };
    if (hasMore) {
      body.next_page_token = await encodePageToken(c.get("signer"), binding, {
        periodEndDate: last.periodEndDate,
        statementId: last.statementId,
      });
    }
    return respond(c, "StatementList", body);
  },
);
