// /dashboard/audit (Admins): the partner's audit log, newest first, one row per change, older
// entries by keyset.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { Time } from "../dashboard/layout";
import { allow, type DashboardPage } from "../dashboard/page";
import { Table } from "../dashboard/table";
import { readAuditPage } from "../db/audit";
import { type AuditAction, type AuditEntry, auditSequence } from "../domain/audit";
import { type PciReadCount, PciReads, readPciReadCounts } from "./pci-reads";

const PAGE_SIZE = 50;

const ACTION_LABELS: Record<AuditAction, string> = {
  "key.created": "Created a key",
  "key.rolled": "Rolled a key",
  "key.revoked": "Revoked a key",
  "webhook_endpoint.created": "Created a webhook endpoint",
  "webhook_endpoint.secret_rolled": "Rolled a webhook secret",
  "webhook_endpoint.enabled": "Enabled a webhook endpoint",
  "webhook_endpoint.updated": "Changed a webhook endpoint",
  "webhook_endpoint.recovered": "Recovered a webhook endpoint's missed events",
  "webhook_endpoint.deleted": "Deleted a webhook endpoint",
  "event.resent": "Re-sent an event",
  "saved_version.changed": "Changed the saved version",
  "saved_version.rolled_back": "Rolled back the saved version",
  "product.presentation_changed": "Changed a product's statement look",
  "product.documents_changed": "Changed how a product's statements get documents",
  "product.rewards_categories_changed": "Changed a product's rewards categories",
  "user.invited": "Invited a user",
  "user.role_changed": "Changed a role",
  "user.removed": "Removed a user",
  "user.sign_in_requested": "Asked for a sign-in link",
  "user.signed_in": "Signed in",
  "user.signed_out": "Signed out",
  "user.signed_out_everywhere": "Signed out everywhere",
  "customer_data.viewed": "Viewed customer data",
  "payment_method.pci_details_read": "Read a card's PAN and CVV",
  "sandbox.reset": "Reset sandbox data",
  "statement.restated": "Restated a statement",
  "payment_method.provisioned": "Provisioned a card to a wallet",
  "order.created": "Created an order",
  "order.updated": "Changed an order",
  "order.deleted": "Deleted an order",
  "order_event.created": "Recorded a capture or refund",
  "order_event.deleted": "Deleted a capture or refund",
  "transaction_intent.created": "Created a transaction intent",
  "transaction_intent.updated": "Changed a transaction intent",
};

const ACTOR_LABELS = { user: "User", key: "API key", operator: "Operator" } as const;

function Details({ details }: { details: Record<string, unknown> }) {
  const entries = Object.entries(details).filter(([, v]) => v !== null && v !== undefined);
  if (entries.length === 0) return <span class="muted">—</span>;
  return (
    <>
      {entries.map(([name, value]) => (
        <div>
          {name}: <code>{Array.isArray(value) ? value.join(", ") : String(value)}</code>
        </div>
      ))}
    </>
  );
}

function AuditView(props: {
  entries: AuditEntry[];
  olderBefore: string | null;
  pciReads: PciReadCount[];
}) {
  return (
    <>
      <PciReads counts={props.pciReads} />
      <h2>Log</h2>
      <p>
        Every change to keys, webhook endpoints, saved versions, products, users, orders, their
        captures and refunds, and transaction intents, every re-sent event, every restated
        statement, every sign-in, every view of production customers' data and every read of a
        card's number, whoever made it: a dashboard user, an API key or the operator.
      </p>
      {props.entries.length === 0 ? (
        <p>Nothing yet.</p>
      ) : (
        <Table
          caption="Audit log, newest first"
          columns={["When", "Who", "What", "Environment", "About", "Details", "IP"]}
        >
          {props.entries.map((e) => (
            <tr id={e.id}>
              <td>
                <Time at={e.occurredAt} />
              </td>
              <td>
                {ACTOR_LABELS[e.actor.type]}
                {e.actor.type !== "operator" && (
                  <>
                    {" "}
                    <code>{e.actor.label}</code>
                  </>
                )}
              </td>
              <td>{ACTION_LABELS[e.action] ?? e.action}</td>
              <td>{e.environment ?? <span class="muted">—</span>}</td>
              <td>{e.target ? <code>{e.target}</code> : <span class="muted">—</span>}</td>
              <td>
                <Details details={e.details} />
              </td>
              <td>{e.ip ?? <span class="muted">—</span>}</td>
            </tr>
          ))}
        </Table>
      )}
      {props.olderBefore && (
        <p>
          <a href={`/dashboard/audit?before=${props.olderBefore}`}>Older entries</a>
        </p>
      )}
    </>
  );
}

export const auditPage: DashboardPage = {
  routes: new Hono<AppEnv>().get("/audit", allow("audit.view"), async (c) => {
    const before = c.req.query("before");
    const sequence = before === undefined ? null : auditSequence(before);
    if (before !== undefined && sequence === null) {
      throw new ApiError("NOT_FOUND_ERROR", "There is no such page of the audit log.");
    }
    const { partnerId } = c.var.session.user;
    const [page, pciReads] = await Promise.all([
      readAuditPage(c.get("db"), partnerId, sequence, PAGE_SIZE),
      readPciReadCounts(c.get("db"), partnerId),
    ]);
    const last = page.entries.at(-1);
    return c.render(
      <AuditView
        entries={page.entries}
        olderBefore={page.hasMore && last ? last.id : null}
        pciReads={pciReads}
      />,
      { title: "Audit log", section: "audit" },
    );
  }),
  nav: { section: "audit", label: "Audit log", action: "audit.view", perEnvironment: false },
};
