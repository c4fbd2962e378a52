// /dashboard/sandbox/simulations: the sandbox's simulations in pages. Create a test customer (with
// its open account), close a billing cycle on one of its accounts, and open the statement and its
// PDF once rendered: the same simulations as POST /v2/simulations/… (simulate.ts), so that what
// the page makes is what the API makes, webhooks, rate limit and quotas included. Sandbox only,
// for every role; an Admin may also reset the sandbox's data older than an age (audited).
import { type Context, Hono } from "hono";
import { readAccountPage } from "../accounts";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { parseRequest } from "../app/request-body";
import { field } from "../dashboard/forms";
import { CsrfField, Time } from "../dashboard/layout";
import { allow, type DashboardPage, may } from "../dashboard/page";
import { plural } from "../dashboard/plural";
import { Table } from "../dashboard/table";
import { auditInsert } from "../db/audit";
import { atomically } from "../db/batch";
import { readCustomerPage } from "../db/customers";
import { productsOf } from "../db/partners";
import { refusalOf } from "../domain/permissions";
import { toStatement } from "../domain/statement";
import { STATEMENT_AMOUNTS } from "../domain/statement-amounts";
import { LINK_LIFETIME_MS, signStatementLinks } from "../domain/statement-link";
import { releaseRowsBefore, SANDBOX_BUDGETS } from "../sandbox-budgets";
import { SimulateCustomerRequest, SimulateStatementRequest } from "./api-schemas";
import { limitSimulations, RESET_AGES_HOURS, SANDBOX_LIMITS } from "./quotas";
import { CUSTOMERS_PER_BATCH, deleteDocuments, deleteOldSandboxData } from "./sandbox-reset";
import {
  closeSandboxCycle,
  createdStatement,
  createSandboxCustomer,
  type SandboxScope,
  simulationDeps,
} from "./simulate";
import {
  findSandboxCustomer,
  findSandboxStatement,
  readSandboxUsage,
  recentStatements,
  type SandboxStatement,
  type SandboxUsage,
} from "./store";

const BASE = "/dashboard/sandbox/simulations";
const LISTED = 20;

const NOTICES: Record<string, string> = {
  customer: "Test customer created, with one open account.",
  statement: "Cycle closed. Its PDF renders in a moment, and its events go to your endpoints.",
};

/** Batches of customers one reset deletes at most; a larger sandbox is reset again. */
const RESET_BATCHES = 20;

/** An age a reset offers, in words. */
function ageOf(hours: number): string {
  if (hours < 24) return hours === 1 ? "1 hour" : `${hours} hours`;
  const days = hours / 24;
  return days === 1 ? "1 day" : `${days} days`;
}

/** What a reset did, as its redirect says it. */
function resetNotice(c: Context<AppEnv>): string | undefined {
  const customers = c.req.query("reset_customers");
  if (customers === undefined || !/^\d+$/.test(customers)) return undefined;
  const deleted = c.req.query("reset_statements") ?? "";
  const statements = /^\d+$/.test(deleted) ? Number(deleted) : 0;
  const more = c.req.query("reset_more") === "1";
  return (
    `Sandbox reset: ${plural(Number(customers), "customer")} and ` +
    `${plural(statements, "statement")} deleted.` +
    (more ? " More remain: reset again to delete the rest." : "")
  );
}

/** The sandbox's limits, what it uses of them, and (for Admins) its reset. */
function Limits(props: { usage: SandboxUsage; canReset: boolean; refusal: string }) {
  return (
    <section aria-labelledby="sandbox-limits">
      <h2 id="sandbox-limits">Sandbox limits</h2>
      <ul>
        <li>
          Simulations: {SANDBOX_LIMITS.simulationsPerMinute} a minute for your whole team, the API
          and this page together.
        </li>
        <li>
          Customers: {props.usage.customers} of {SANDBOX_LIMITS.customers}.
        </li>
        <li>
          Statements closed today: {props.usage.statementsToday} of{" "}
          {SANDBOX_LIMITS.statementsPerDay} (the count starts again at midnight UTC).
        </li>
        <li>
          Line items of simulated statements today: {props.usage.lineItemsToday} of{" "}
          {SANDBOX_BUDGETS.lineItemsPerDay}; {SANDBOX_BUDGETS.lineItemsPerStatement} at most in one
          statement.
        </li>
        <li>
          Rows your sandbox writes made in the last {SANDBOX_LIMITS.expiryDays} days:{" "}
          {props.usage.rowsHeld} of {SANDBOX_BUDGETS.rowsHeld} (a reset gives back the days before
          it).
        </li>
        <li>
          Sandbox customers expire {SANDBOX_LIMITS.expiryDays} days after they were made, with their
          accounts, statements, documents and events.
        </li>
      </ul>
      <h3>Reset sandbox data</h3>
      {props.canReset ? (
        <form method="post" action={`${BASE}/reset`} class="stack">
          <CsrfField />
          <p>
            Deletes the sandbox customers made before the age you choose, with their accounts,
            statements, documents and events. Production is untouched. The audit log records it.
          </p>
          <label for="reset-age">Delete data older than</label>
          <select id="reset-age" name="older_than_hours">
            {RESET_AGES_HOURS.map((hours) => (
              <option value={String(hours)} selected={hours === 24 * 7}>
                {ageOf(hours)}
              </option>
            ))}
          </select>
          <div>
            <button type="submit">Reset sandbox data</button>
          </div>
        </form>
      ) : (
        <p>{props.refusal}</p>
      )}
    </section>
  );
}

function sandboxScope(c: Context<AppEnv>, merchantKey: string): SandboxScope {
  return { partnerId: c.var.session.user.partnerId, environment: "sandbox", merchantKey };
}

/** What became of the statement's document. */
function DocumentState({ s, link }: { s: SandboxStatement; link?: string | undefined }) {
  if (s.hasPdf && link) return <a href={link}>Open the PDF</a>;
  if (s.hasPdf) return <span>Rendered</span>;
  if (s.renderStatus === "failed") return <span>Rendering failed: {s.renderError}</span>;
  if (s.renderStatus === "pending") return <span>Rendering… reload in a moment</span>;
  return <span class="muted">No document</span>;
}

function StatementRows({ statements }: { statements: SandboxStatement[] }) {
  return (
    <Table
      caption="Simulated statements, newest first"
      columns={["Statement", "Closed", "Balance", "Document"]}
    >
      {statements.map((s) => (
        <tr>
          <td>
            <a href={`${BASE}/statements/${s.statementId}`}>
              <code>{s.statementId}</code>
            </a>
          </td>
          <td>
            <Time at={s.periodEndDate} />
          </td>
          <td>{`${s.statementBalance ?? ""} ${s.currency ?? ""}`}</td>
          <td>
            <DocumentState s={s} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

const routes = new Hono<AppEnv>()
  .get("/:environment/simulations", allow("simulations.run"), async (c) => {
    const { partnerId, role } = c.var.session.user;
    const products = await productsOf(c.get("db"), partnerId);
    const usage = await readSandboxUsage(
      c.get("db"),
      partnerId,
      c.get("now")(),
      SANDBOX_LIMITS.customers,
    );
    const listed = await Promise.all(
      products.map(async (product) => ({
        product,
        customers: await readCustomerPage(
          c.get("db"),
          sandboxScope(c, product.merchantKey),
          null,
          LISTED,
        ),
      })),
    );
    return c.render(
      <>
        <p>
          Customers, accounts and statements of your own making, in sandbox: statements render their
          PDF and announce themselves to your webhook endpoints like real ones. The API does the
          same: <code>POST /v2/simulations/customers</code> and{" "}
          <code>POST /v2/simulations/statements</code>.
        </p>
        <section aria-labelledby="new-customer">
          <h2 id="new-customer">Create a test customer</h2>
          {products.length === 0 ? (
            <p>Your partner has no card product yet.</p>
          ) : (
            <form method="post" action={`${BASE}/customers`} class="stack">
              <CsrfField />
              {products.length > 1 && (
                <>
                  <label for="sim-product">Product</label>
                  <select id="sim-product" name="product">
                    {products.map((p) => (
                      <option value={p.merchantKey}>{`${p.name} (${p.merchantKey})`}</option>
                    ))}
                  </select>
                </>
              )}
              <label for="sim-partner-id">Your id for the customer (optional)</label>
              <input id="sim-partner-id" name="partner_customer_id" type="text" maxlength={255} />
              <label for="sim-currency">Currency</label>
              <input
                id="sim-currency"
                name="currency"
                type="text"
                value="USD"
                pattern="[A-Z]{3}"
                required
              />
              <label for="sim-limit">Credit limit, in the currency's smallest unit</label>
              <input id="sim-limit" name="credit_limit" type="number" min={0} value="500000" />
              <div>
                <button type="submit">Create customer</button>
              </div>
            </form>
          )}
        </section>
        <h2>Sandbox customers</h2>
        {listed.map(({ product, customers }) => (
          <section aria-label={`${product.name} customers`}>
            {products.length > 1 && <h3>{product.name}</h3>}
            {customers.length === 0 ? (
              <p>None yet.</p>
            ) : (
              <ul>
                {customers.slice(0, LISTED).map((customer) => (
                  <li>
                    <a href={`${BASE}/customers/${customer.customerId}`}>
                      <code>{customer.customerId}</code>
                    </a>
                    {customer.partnerCustomerId && ` (${customer.partnerCustomerId})`}
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))}
        <Limits
          usage={usage}
          canReset={may(c, "sandbox.reset", "sandbox")}
          refusal={refusalOf(role, "sandbox.reset", "sandbox")}
        />
      </>,
      { title: "Sandbox simulations", section: "simulations", notice: resetNotice(c) },
    );
  })

  // An Admin deletes the sandbox's customers older than the age chosen, with everything of
  // theirs: the audit row first (nothing is deleted without it), then batch by batch.
  .post("/:environment/simulations/reset", allow("sandbox.reset"), async (c) => {
    const asked = Number(await field(c, "older_than_hours"));
    const hours = RESET_AGES_HOURS.find((h) => h === asked);
    if (hours === undefined) {
      throw new ApiError(
        "BAD_REQUEST_ERROR",
        `Choose an age: ${RESET_AGES_HOURS.map(ageOf).join(", ")}.`,
      );
    }
    const { user } = c.var.session;
    const now = c.get("now")();
    const before = new Date(now.getTime() - hours * 3_600_000);
    const db = c.get("db");
    await atomically(db, [
      auditInsert(
        user.partnerId,
        userActor(c, user),
        {
          action: "sandbox.reset",
          environment: "sandbox",
          details: { older_than_hours: hours, made_before: before.toISOString() },
        },
        now,
      ),
    ]);
    let customers = 0;
    let statements = 0;
    let more = false;
    for (let batch = 0; batch < RESET_BATCHES; batch++) {
      const deleted = await deleteOldSandboxData(db, { partnerId: user.partnerId }, before);
      await deleteDocuments(c.env, c.get("shard"), deleted.documents);
      customers += deleted.customers;
      statements += deleted.statements;
      more = deleted.customers === CUSTOMERS_PER_BATCH;
      if (!more) break;
    }
    // Everything made before the cutoff is gone: its rows leave the rows-held budget.
    if (!more) await atomically(db, [releaseRowsBefore(user.partnerId, before)]);
    const query = `reset_customers=${customers}&reset_statements=${statements}${more ? "&reset_more=1" : ""}`;
    return c.redirect(`${BASE}?${query}`, 303);
  })

  .post("/:environment/simulations/customers", allow("simulations.run"), async (c) => {
    const { partnerId } = c.var.session.user;
    await limitSimulations(c, partnerId);
    const products = await productsOf(c.get("db"), partnerId);
    const chosen = await field(c, "product");
    const product = chosen ? products.find((p) => p.merchantKey === chosen) : products[0];
    if (!product) throw new ApiError("BAD_REQUEST_ERROR", "Choose one of your products.");
    const limit = await field(c, "credit_limit");
    const request = parseRequest(SimulateCustomerRequest, {
      currency: (await field(c, "currency")) || undefined,
      partner_customer_id: (await field(c, "partner_customer_id")) || undefined,
      credit_limit: limit === "" ? undefined : Number(limit),
    });
    const { customer } = await createSandboxCustomer(
      simulationDeps(c),
      sandboxScope(c, product.merchantKey),
      request,
    );
    return c.redirect(`${BASE}/customers/${customer.customerId}?notice=customer`, 303);
  })

  .get("/:environment/simulations/customers/:customer_id", allow("simulations.run"), async (c) => {
    const db = c.get("db");
    const { partnerId } = c.var.session.user;
    const customer = await findSandboxCustomer(db, partnerId, c.req.param("customer_id"));
    if (!customer) throw new ApiError("NOT_FOUND_ERROR", "There is no such sandbox customer.");
    const scope = sandboxScope(c, customer.merchantKey);
    const { rows } = await readAccountPage(db, scope, customer.customerId, null, LISTED);
    const accounts = await Promise.all(
      rows.map(async (account) => ({
        account,
        statements: await recentStatements(db, partnerId, account.accountId, 6),
      })),
    );
    return c.render(
      <>
        <p>
          Customer <code>{customer.customerId}</code>
          {customer.partnerCustomerId && (
            <>
              , your id <code>{customer.partnerCustomerId}</code>
            </>
          )}
          . <a href={BASE}>All sandbox customers</a>
        </p>
        {accounts.map(({ account, statements }) => (
          <section aria-labelledby={`account-${account.accountId}`}>
            <h2 id={`account-${account.accountId}`}>
              Account <code>{account.accountId}</code>
            </h2>
            <p>
              {account.status} · {account.currency} · balance {account.currentBalance ?? 0} of a
              limit of {account.creditLimit ?? "none"}
            </p>
            <form method="post" action={`${BASE}/statements`}>
              <CsrfField />
              <input type="hidden" name="customer_id" value={customer.customerId} />
              <input type="hidden" name="account_id" value={account.accountId} />
              <button type="submit">
                Close the next billing cycle
                <span class="visually-hidden"> of {account.accountId}</span>
              </button>
            </form>
            {statements.length === 0 ? (
              <p>No statement yet.</p>
            ) : (
              <StatementRows statements={statements} />
            )}
          </section>
        ))}
      </>,
      {
        title: "Sandbox customer",
        section: "simulations",
        notice: NOTICES[c.req.query("notice") ?? ""],
      },
    );
  })

  .post("/:environment/simulations/statements", allow("simulations.run"), async (c) => {
    await limitSimulations(c, c.var.session.user.partnerId);
    const customerId = await field(c, "customer_id");
    const customer = await findSandboxCustomer(
      c.get("db"),
      c.var.session.user.partnerId,
      customerId,
    );
    if (!customer) throw new ApiError("NOT_FOUND_ERROR", "There is no such sandbox customer.");
    const request = parseRequest(SimulateStatementRequest, {
      customer_id: customerId,
      account_id: await field(c, "account_id"),
    });
    const outcome = await closeSandboxCycle(
      simulationDeps(c),
      sandboxScope(c, customer.merchantKey),
      request,
    );
    const { statementId } = createdStatement(outcome, request);
    return c.redirect(`${BASE}/statements/${statementId}?notice=statement`, 303);
  })

  .get(
    "/:environment/simulations/statements/:statement_id",
    allow("simulations.run"),
    async (c) => {
      const s = await findSandboxStatement(
        c.get("db"),
        c.var.session.user.partnerId,
        c.req.param("statement_id"),
      );
      if (!s) throw new ApiError("NOT_FOUND_ERROR", "There is no such sandbox statement.");
      const now = c.get("now")();
      const [link] = s.hasPdf
        ? await signStatementLinks(
            c.get("signer"),
            new URL(c.req.url).origin,
            [s.statementId],
            now.getTime() + LINK_LIFETIME_MS,
            c.get("shard"),
          )
        : [];
      const shown = toStatement(s, s.customerId, now.toISOString(), undefined);
      const fields: [string, string][] = [
        ["period_start_date", shown.period_start_date ?? ""],
        ["period_end_date", shown.period_end_date ?? ""],
        ["due_date", shown.due_date ?? ""],
        ["currency", shown.currency ?? ""],
        ...STATEMENT_AMOUNTS.filter(({ api }) => shown[api] !== undefined).map(
          ({ api }): [string, string] => [api, String(shown[api])],
        ),
      ];
      return c.render(
        <>
          <p>
            Statement <code>{s.statementId}</code> of account <code>{s.accountId}</code>, customer{" "}
            <a href={`${BASE}/customers/${s.customerId}`}>
              <code>{s.customerId}</code>
            </a>
            , as the API lists it. Document: <DocumentState s={s} link={link} />
            {link && " (the link works for one hour)"}
          </p>
          <table>
            <caption class="visually-hidden">The statement's fields</caption>
            <tbody>
              {fields.map(([name, value]) => (
                <tr>
                  <th scope="row">
                    <code>{name}</code>
                  </th>
                  <td>
                    <code>{value}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>,
        {
          title: "Sandbox statement",
          section: "simulations",
          notice: NOTICES[c.req.query("notice") ?? ""],
        },
      );
    },
  );

export const sandboxPage: DashboardPage = {
  routes,
  nav: {
    section: "simulations",
    label: "Simulations",
    action: "simulations.run",
    perEnvironment: true,
  },
};
