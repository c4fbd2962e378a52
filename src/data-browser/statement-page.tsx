// /dashboard/{environment}/customers/{customer_id}/accounts/{account_id}/statements/{statement_id}:
// one statement as the API shows it (its figures, rates, year-to-date totals and the corrections
// that link it to others) and its line items in the document's order, paged by the API's own
// signed tokens, in the customer's scope. Read-only; production data is for Admins, and each view
// of it is in the audit log. A hidden statement, or another account's, is not found.
import { Hono } from "hono";
import { findPartnerAccount } from "../accounts";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { auditDataView } from "../dashboard/data-audit";
import { allow, type DashboardPage } from "../dashboard/page";
import { Table } from "../dashboard/table";
import { type LineItem, toLineItem } from "../domain/line-item";
import { decodeLineItemPageToken, encodeLineItemPageToken } from "../domain/page-token";
import type { Statement } from "../domain/statement";
import { buildStatement, readStatementWithLineItems } from "../statements";
import { customerNotFound } from "./customers-page";
import { Day, Fact, Money } from "./data-view";

const PAGE_SIZE = 50;

const AMOUNTS = [
  ["Previous balance", "previous_balance"],
  ["Purchases", "purchases"],
  ["Payments", "payments"],
  ["Credits", "credits"],
  ["Refunds", "refunds"],
  ["Interest", "interest"],
  ["Fees", "fees"],
  ["Statement balance", "statement_balance"],
  ["Minimum due", "minimum_due"],
  ["Overdue", "overdue_amount"],
] as const;

function LineItems(props: { items: LineItem[]; currency: string | undefined }) {
  return (
    <Table
      caption="Line items, in the document's order"
      columns={["Posted", "Type", "Description", "Merchant", "Amount", "Line item"]}
    >
      {props.items.map((item) => (
        <tr>
          <td>
            <Day at={item.posted_at} />
          </td>
          <td>{item.type}</td>
          <td>{item.description}</td>
          <td>
            {item.merchant ? (
              <>
                {item.merchant.name} <span class="muted">MCC {item.merchant.category_code}</span>
                {item.merchant.country && <span class="muted"> {item.merchant.country}</span>}
              </>
            ) : (
              <span class="muted">—</span>
            )}
          </td>
          <td>
            <Money amount={item.amount} currency={props.currency} />
            {item.original_amount !== undefined && item.original_currency && (
              <span class="muted">
                {" "}
                (<Money amount={item.original_amount} currency={item.original_currency} />)
              </span>
            )}
          </td>
          <td>
            <code>{item.line_item_id}</code>
          </td>
        </tr>
      ))}
    </Table>
  );
}

function Figures(props: { statement: Statement; link: (id: string) => string }) {
  const s = props.statement;
  return (
    <dl class="fields">
      <dt>Statement</dt>
      <dd>
        <code>{s.statement_id}</code>
      </dd>
      <dt>Period</dt>
      <dd>
        <Day at={s.period_start_date} /> to <Day at={s.period_end_date} />
      </dd>
      <dt>Due</dt>
      <dd>
        <Day at={s.due_date} />
      </dd>
      {AMOUNTS.map(([label, field]) => (
        <>
          <dt>{label}</dt>
          <dd>
            <Money amount={s[field]} currency={s.currency} />
          </dd>
        </>
      ))}
      {s.interest_rates?.map((rate) => (
        <>
          <dt>APR on {rate.balance_type.toLowerCase().replace("_", " ")}</dt>
          <dd>
            {rate.annual_percentage_rate}% on{" "}
            <Money amount={rate.balance_subject_to_interest} currency={s.currency} />:{" "}
            <Money amount={rate.interest} currency={s.currency} />
          </dd>
        </>
      ))}
      {s.year_to_date && (
        <>
          <dt>Year to date</dt>
          <dd>
            fees <Money amount={s.year_to_date.fees} currency={s.currency} />, interest{" "}
            <Money amount={s.year_to_date.interest} currency={s.currency} />
          </dd>
        </>
      )}
      {s.restates && (
        <>
          <dt>Corrects</dt>
          <dd>
            <a href={props.link(s.restates)}>
              <code>{s.restates}</code>
            </a>
          </dd>
        </>
      )}
      {s.restated_by && (
        <>
          <dt>Restated by</dt>
          <dd>
            <a href={props.link(s.restated_by)}>
              <code>{s.restated_by}</code>
            </a>{" "}
            <span class="muted">(this statement left the list; its correction stands there)</span>
          </dd>
        </>
      )}
      <dt>PDF</dt>
      <dd>{s.pdf ? <a href={s.pdf.url}>PDF</a> : <Fact value={undefined} />}</dd>
    </dl>
  );
}

export const statementPage: DashboardPage = {
  routes: new Hono<AppEnv>().get(
    "/:environment/customers/:customer_id/accounts/:account_id/statements/:statement_id",
    allow("data.view"),
    async (c) => {
      const environment = c.var.environment;
      const customerId = c.req.param("customer_id");
      const accountId = c.req.param("account_id");
      const statementId = c.req.param("statement_id");
      const db = c.get("db");
      const { partnerId } = c.var.session.user;
      const found = await findPartnerAccount(db, partnerId, environment, customerId, accountId);
      if (!found) throw customerNotFound(customerId);
      if (!found.account) {
        throw new ApiError("NOT_FOUND_ERROR", `No account ${accountId} of customer ${customerId}.`);
      }
      const binding = { ...found.scope, customerId, accountId, statementId };
      const signer = c.get("signer");
      const token = c.req.query("starting_after");
      const after =
        token === undefined ? null : await decodeLineItemPageToken(signer, binding, token);
      if (token !== undefined && after === null) {
        throw new ApiError("NOT_FOUND_ERROR", "There is no such page of line items.");
      }
      await auditDataView(c, "statement", statementId);
      const read = await readStatementWithLineItems(db, statementId, after, PAGE_SIZE);
      const { statement } = read;
      if (!statement?.visible || statement.accountId !== accountId) {
        throw new ApiError(
          "NOT_FOUND_ERROR",
          `No statement ${statementId} of account ${accountId}.`,
        );
      }
      const now = c.get("now")();
      const origin = new URL(c.req.url).origin;
      const shown = await buildStatement(
        { signer, now, origin, shard: c.get("shard") },
        customerId,
        statement.row,
      );
      const items = read.rows.slice(0, PAGE_SIZE);
      const last = items.at(-1);
      const next =
        read.rows.length > PAGE_SIZE && last
          ? await encodeLineItemPageToken(
              signer,
              binding,
              { postedAt: last.postedAt, lineItemId: last.lineItemId },
              c.get("shard"),
            )
          : null;
      const account = `/dashboard/${environment}/customers/${encodeURIComponent(customerId)}/accounts/${encodeURIComponent(accountId)}`;
      const link = (id: string) => `${account}/statements/${encodeURIComponent(id)}`;
      const here = link(statementId);
      return c.render(
        <>
          <p>
            <a href={account}>Back to the account</a>
          </p>
          <Figures statement={shown} link={link} />
          <h2>Line items</h2>
          {items.length === 0 ? (
            <p>No line items{after === null ? " recorded for this statement" : " after these"}.</p>
          ) : (
            <LineItems items={items.map(toLineItem)} currency={shown.currency} />
          )}
          <p class="pages">
            {after !== null && <a href={here}>First line items</a>}{" "}
            {next && (
              <a href={`${here}?starting_after=${encodeURIComponent(next)}`}>More line items</a>
            )}
          </p>
        </>,
        { title: `Statement ${statementId}`, section: "customers" },
      );
    },
  ),
};
