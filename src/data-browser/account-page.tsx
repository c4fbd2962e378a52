// /dashboard/{environment}/customers/{customer_id}/accounts/{account_id}: the account and its
// statements, newest first, with their PDF links and each linking its own page (statement-page.tsx,
// its line items and corrections): the page the statements route answers, built
// by the same reads, page builder and signed page tokens, in the customer's scope. Read-only;
// production data is for Admins, and each view of it is in the audit log.
import { Hono } from "hono";
import { findPartnerAccount } from "../accounts";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { auditDataView } from "../dashboard/data-audit";
import { allow, type DashboardPage } from "../dashboard/page";
import { Table } from "../dashboard/table";
import { toAccount } from "../domain/account";
import { decodePageToken } from "../domain/page-token";
import type { Statement } from "../domain/statement";
import { LINK_LIFETIME_MS } from "../domain/statement-link";
import { buildStatementPage, readStatementPage } from "../statements";
import { customerNotFound } from "./customers-page";
import { Day, Fact, Money } from "./data-view";

const PAGE_SIZE = 12;

function Statements(props: { statements: Statement[]; link: (id: string) => string }) {
  return (
    <Table
      caption="Statements, newest first"
      columns={["Statement", "Period", "Due", "Balance", "Minimum due", "PDF"]}
    >
      {props.statements.map((s) => (
        <tr>
          <td>
            <a href={props.link(s.statement_id)}>
              <code>{s.statement_id}</code>
            </a>
            {s.restates && <span class="muted"> (a correction)</span>}
          </td>
          <td>
            <Day at={s.period_start_date} /> to <Day at={s.period_end_date} />
          </td>
          <td>
            <Day at={s.due_date} />
          </td>
          <td>
            <Money amount={s.statement_balance} currency={s.currency} />
          </td>
          <td>
            <Money amount={s.minimum_due} currency={s.currency} />
          </td>
          <td>
            {s.pdf ? (
              <a href={s.pdf.url}>
                PDF<span class="visually-hidden"> of {s.statement_id}</span>
              </a>
            ) : (
              <span class="muted">Not yet</span>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

export const accountPage: DashboardPage = {
  routes: new Hono<AppEnv>().get(
    "/:environment/customers/:customer_id/accounts/:account_id",
    allow("data.view"),
    async (c) => {
      const environment = c.var.environment;
      const customerId = c.req.param("customer_id");
      const accountId = c.req.param("account_id");
      const db = c.get("db");
      const { partnerId } = c.var.session.user;
      const found = await findPartnerAccount(db, partnerId, environment, customerId, accountId);
      if (!found) throw customerNotFound(customerId);
      const { account } = found;
      if (!account) {
        throw new ApiError("NOT_FOUND_ERROR", `No account ${accountId} of customer ${customerId}.`);
      }
      const binding = { ...found.scope, customerId, accountId };
      const signer = c.get("signer");
      const token = c.req.query("starting_after");
      const after = token === undefined ? null : await decodePageToken(signer, binding, token);
      if (token !== undefined && after === null) {
        throw new ApiError("NOT_FOUND_ERROR", "There is no such page of statements.");
      }
      await auditDataView(c, "account", accountId);
      const rows = await readStatementPage(db, accountId, after, PAGE_SIZE);
      const now = c.get("now")();
      const origin = new URL(c.req.url).origin;
      // The canonical page GET …/statements answers: the same builder, links and token.
      const page = await buildStatementPage(
        { signer, now, origin, shard: c.get("shard") },
        binding,
        rows,
        PAGE_SIZE,
      );
      const view = toAccount(account, now.toISOString());
      const base = `/dashboard/${environment}/customers/${encodeURIComponent(customerId)}`;
      const here = `${base}/accounts/${encodeURIComponent(accountId)}`;
      return c.render(
        <>
          <p>
            <a href={base}>Back to the customer</a>
          </p>
          <dl class="fields">
            <dt>Account</dt>
            <dd>
              <code>{view.account_id}</code>
            </dd>
            <dt>Customer</dt>
            <dd>
              <code>{view.customer_id}</code>
            </dd>
            <dt>Status</dt>
            <dd>
              <Fact value={view.status} />
            </dd>
            <dt>Credit limit</dt>
            <dd>
              <Money amount={view.credit_limit} currency={view.currency} />
            </dd>
            <dt>Current balance</dt>
            <dd>
              <Money amount={view.current_balance} currency={view.currency} />
            </dd>
            <dt>Available credit</dt>
            <dd>
              <Money amount={view.available_credit} currency={view.currency} />
            </dd>
          </dl>
          <h2>Statements</h2>
          {page.data.length === 0 ? (
            <p>No statements{after === null ? "" : " after these"}.</p>
          ) : (
            <>
              <p class="muted">
                PDF links work for one hour, until{" "}
                {new Date(now.getTime() + LINK_LIFETIME_MS).toISOString().slice(11, 16)} UTC; reload
                the page for fresh ones.
              </p>
              <Statements
                statements={page.data}
                link={(id) => `${here}/statements/${encodeURIComponent(id)}`}
              />
            </>
          )}
          <p class="pages">
            {after !== null && <a href={here}>Newest statements</a>}{" "}
            {page.next_page_token && (
              <a href={`${here}?starting_after=${encodeURIComponent(page.next_page_token)}`}>
                Older statements
              </a>
            )}
          </p>
        </>,
        { title: `Account ${accountId}`, section: "customers" },
      );
    },
  ),
};
