// /dashboard/{environment}/customers/{customer_id}/orders: a customer's orders (newest first, each
// with its captures and refunds) and its transaction intents, as the API answers them, in the
// customer's scope. Read-only; production data is for Admins, and each view of it is audited.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { auditDataView } from "../dashboard/data-audit";
import { allow, type DashboardPage } from "../dashboard/page";
import { Table } from "../dashboard/table";
import { findPartnerCustomer } from "../db/customers";
import { eventsOfOrders, orderPage, toOrder, toOrderEvent } from "../orders";
import { intentPage, toIntent } from "../transaction-intents";
import { customerNotFound } from "./customers-page";
import { Day, Fact, Money } from "./data-view";

/** The newest orders and intents shown: the page is a look, the API pages the rest. */
const SHOWN = 20;

export const ordersPage: DashboardPage = {
  routes: new Hono<AppEnv>().get(
    "/:environment/customers/:customer_id/orders",
    allow("data.view"),
    async (c) => {
      const environment = c.var.environment;
      const customerId = c.req.param("customer_id");
      const db = c.get("db");
      const { partnerId } = c.var.session.user;
      const found = await findPartnerCustomer(db, partnerId, environment, customerId);
      if (!found) throw customerNotFound(customerId);
      await auditDataView(c, "customer", customerId);
      const scope = found.scope;
      const [orderRows, intentRows] = await Promise.all([
        orderPage(db, scope, { customer_id: customerId }, null, SHOWN - 1),
        intentPage(db, scope, customerId, undefined, null, SHOWN - 1),
      ]);
      const orders = orderRows.map(toOrder);
      const events = (
        await eventsOfOrders(
          db,
          scope,
          orders.map((o) => o.order_id),
        )
      ).map(toOrderEvent);
      const intents = intentRows.map(toIntent);
      const base = `/dashboard/${environment}/customers/${encodeURIComponent(customerId)}`;
      return c.render(
        <>
          <p>
            <a href={base}>Back to the customer</a>
          </p>
          <h2>Orders</h2>
          {orders.length === 0 ? (
            <p>No orders.</p>
          ) : (
            orders.map((order) => (
              <section>
                <h3>
                  <code>{order.order_id}</code> ({order.partner_order_id})
                </h3>
                <dl class="fields">
                  <dt>Total</dt>
                  <dd>
                    <Money amount={order.total_amount} currency={order.currency} />
                  </dd>
                  <dt>Captured</dt>
                  <dd>
                    <Money amount={order.captured_amount} currency={order.currency} />
                  </dd>
                  <dt>Refunded</dt>
                  <dd>
                    <Money amount={order.refunded_amount} currency={order.currency} />
                  </dd>
                  <dt>Merchant</dt>
                  <dd>
                    <Fact value={order.merchant?.name} />
                  </dd>
                  <dt>Created</dt>
                  <dd>
                    <Day at={order.created_at} />
                  </dd>
                </dl>
                <Table
                  caption={`Events of ${order.order_id}`}
                  columns={["Event", "Type", "Amount", "Network transaction", "Recorded"]}
                >
                  {events
                    .filter((e) => e.order_id === order.order_id)
                    .map((e) => (
                      <tr>
                        <td>
                          <code>{e.order_event_id}</code>
                        </td>
                        <td>{e.type}</td>
                        <td>
                          <Money amount={e.amount} currency={e.currency} />
                        </td>
                        <td>
                          <code>{e.network_transaction_id}</code>
                        </td>
                        <td>
                          <Day at={e.created_at} />
                        </td>
                      </tr>
                    ))}
                </Table>
              </section>
            ))
          )}
          <h2>Transaction intents</h2>
          {intents.length === 0 ? (
            <p>No transaction intents.</p>
          ) : (
            <Table
              caption={`Transaction intents of ${customerId}`}
              columns={["Intent", "Status", "Amount", "Expected", "Created"]}
            >
              {intents.map((intent) => (
                <tr>
                  <td>
                    <code>{intent.intent_id}</code>
                  </td>
                  <td>{intent.status}</td>
                  <td>
                    <Money amount={intent.amount} currency={intent.currency} />
                  </td>
                  <td>
                    <Fact value={intent.expected_date} />
                  </td>
                  <td>
                    <Day at={intent.created_at} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </>,
        { title: `Orders and intents of ${customerId}`, section: "customers" },
      );
    },
  ),
};
