// /dashboard/{environment}/customers: the environment's customers, one product at a time (the
// API's scope: partner, environment, product), 50 a page in id order; and
// /dashboard/{environment}/customers/{customer_id}: the customer, its accounts and its cards
// (masked: customer-cards.tsx). Read-only,
// built by the API's own reads and views; production data is for Admins, and each view of it is
// in the audit log (dashboard/data-audit.ts). A customer's account and statements: account-page.tsx.
import { Hono } from "hono";
import { readAccountPage } from "../accounts";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { idPage } from "../app/query";
import { auditDataView } from "../dashboard/data-audit";
import { allow, type DashboardPage } from "../dashboard/page";
import { Table } from "../dashboard/table";
import { findPartnerCustomer, readCustomerPage } from "../db/customers";
import { productsOf } from "../db/partners";
import { toAccount } from "../domain/account";
import { toCustomer } from "../domain/customer";
import type { Environment } from "../domain/environment";
import { ID_PATTERN } from "../domain/import-payload";
import { CustomerCards, customerCards } from "./customer-cards";
import { Fact, Money } from "./data-view";

const PAGE_SIZE = 50;

/** A page cursor: an id the page starts after (a well-formed id, as the import takes them). */
function afterOf(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!ID_PATTERN.test(value)) {
    throw new ApiError("NOT_FOUND_ERROR", "There is no such page.");
  }
  return value;
}

export const customerNotFound = (customerId: string) =>
  new ApiError("NOT_FOUND_ERROR", `No customer ${customerId} in this environment.`);

function ProductChoice(props: {
  environment: Environment;
  products: { merchantKey: string; name: string }[];
  current: string;
}) {
  if (props.products.length < 2) return null;
  return (
    <form method="get" action={`/dashboard/${props.environment}/customers`} class="search">
      <label for="product">Product</label>
      <select id="product" name="product">
        {props.products.map((p) => (
          <option value={p.merchantKey} selected={p.merchantKey === props.current}>
            {p.name} ({p.merchantKey})
          </option>
        ))}
      </select>
      <button type="submit">Show</button>
    </form>
  );
}

const customersRoutes = new Hono<AppEnv>()
  .get("/:environment/customers", allow("data.view"), async (c) => {
    const environment = c.var.environment;
    const { partnerId } = c.var.session.user;
    const db = c.get("db");
    const products = await productsOf(db, partnerId);
    const asked = c.req.query("product");
    const product = asked ?? products[0]?.merchantKey;
    if (product === undefined) {
      return c.render(<p>No products yet: the operator sets them up.</p>, {
        title: "Customers",
        section: "customers",
      });
    }
    if (!products.some((p) => p.merchantKey === product)) {
      throw new ApiError("NOT_FOUND_ERROR", `No product ${product} of yours.`);
    }
    const after = afterOf(c.req.query("after"));
    await auditDataView(c, "customers", product);
    const scope = { partnerId, environment, merchantKey: product };
    const rows = await readCustomerPage(db, scope, after, PAGE_SIZE);
    // What GET /v2/customers answers for this page.
    const page = idPage(rows, PAGE_SIZE, (row) =>
      toCustomer(row, { revealAuthorizedUsers: false }),
    );
    const last = page.data.at(-1);
    const base = `/dashboard/${environment}/customers?product=${encodeURIComponent(product)}`;
    return c.render(
      <>
        <p>
          Read-only, as the API shows them: the customers of one product in {environment}, in id
          order.
        </p>
        <ProductChoice environment={environment} products={products} current={product} />
        {page.data.length === 0 ? (
          <p>No customers{after === null ? "" : " after this one"}.</p>
        ) : (
          <Table caption={`Customers of ${product}`} columns={["Customer", "Partner customer id"]}>
            {page.data.map((customer) => (
              <tr>
                <td>
                  <a
                    href={`/dashboard/${environment}/customers/${encodeURIComponent(customer.customer_id)}`}
                  >
                    <code>{customer.customer_id}</code>
                  </a>
                </td>
                <td>
                  <Fact value={customer.partner_customer_id} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <p class="pages">
          {after !== null && <a href={base}>First customers</a>}{" "}
          {page.has_more && last && (
            <a href={`${base}&after=${encodeURIComponent(last.customer_id)}`}>Next customers</a>
          )}
        </p>
      </>,
      { title: "Customers", section: "customers" },
    );
  })
  .get("/:environment/customers/:customer_id", allow("data.view"), async (c) => {
    const environment = c.var.environment;
    const customerId = c.req.param("customer_id");
    const db = c.get("db");
    const found = await findPartnerCustomer(
      db,
      c.var.session.user.partnerId,
      environment,
      customerId,
    );
    if (!found) throw customerNotFound(customerId);
    const after = afterOf(c.req.query("after"));
    await auditDataView(c, "customer", customerId);
    const [accounts, cards] = await Promise.all([
      readAccountPage(db, found.scope, customerId, after, PAGE_SIZE),
      customerCards(db, found.scope, customerId),
    ]);
    const asOf = c.get("now")().toISOString();
    // What GET /v2/customers/{id} and GET /v2/customers/{id}/accounts answer.
    const customer = toCustomer(found.customer, { revealAuthorizedUsers: false });
    const page = idPage(accounts.rows, PAGE_SIZE, (row) => toAccount(row, asOf));
    const last = page.data.at(-1);
    const base = `/dashboard/${environment}/customers/${encodeURIComponent(customerId)}`;
    return c.render(
      <>
        <p>
          <a
            href={`/dashboard/${environment}/customers?product=${encodeURIComponent(found.scope.merchantKey)}`}
          >
            Back to the customers
          </a>
        </p>
        <dl class="fields">
          <dt>Customer</dt>
          <dd>
            <code>{customer.customer_id}</code>
          </dd>
          <dt>Partner customer id</dt>
          <dd>
            <Fact value={customer.partner_customer_id} />
          </dd>
          <dt>Product</dt>
          <dd>
            <code>{found.scope.merchantKey}</code>
          </dd>
        </dl>
        <h2>Accounts</h2>
        {page.data.length === 0 ? (
          <p>No accounts{after === null ? "" : " after this one"}.</p>
        ) : (
          <Table
            caption={`Accounts of ${customerId}`}
            columns={["Account", "Status", "Credit limit", "Current balance", "Available credit"]}
          >
            {page.data.map((account) => (
              <tr>
                <td>
                  <a href={`${base}/accounts/${encodeURIComponent(account.account_id)}`}>
                    <code>{account.account_id}</code>
                  </a>
                </td>
                <td>
                  <Fact value={account.status} />
                </td>
                <td>
                  <Money amount={account.credit_limit} currency={account.currency} />
                </td>
                <td>
                  <Money amount={account.current_balance} currency={account.currency} />
                </td>
                <td>
                  <Money amount={account.available_credit} currency={account.currency} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <p class="pages">
          {after !== null && <a href={base}>First accounts</a>}{" "}
          {page.has_more && last && (
            <a href={`${base}?after=${encodeURIComponent(last.account_id)}`}>Next accounts</a>
          )}
        </p>
        <h2>Cards</h2>
        <CustomerCards customerId={customerId} cards={cards.cards} more={cards.more} />
      </>,
      { title: `Customer ${customerId}`, section: "customers" },
    );
  });

export const customersPage: DashboardPage = {
  routes: customersRoutes,
  nav: { section: "customers", label: "Customers", action: "data.view", perEnvironment: true },
};
