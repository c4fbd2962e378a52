// The audit log page (Admins): newest first, one row per change, older entries by keyset.
import type { DashboardSession } from "../../../app/context";
import type { AuditAction, AuditEntry } from "../../../domain/audit";
import { Page, Time } from "./layout";

const ACTION_LABELS: Record<AuditAction, string> = {
  "key.created": "Created a key",
  "key.rolled": "Rolled a key",
  "key.revoked": "Revoked a key",
  "webhook_endpoint.created": "Created a webhook endpoint",
  "webhook_endpoint.secret_rolled": "Rolled a webhook secret",
  "webhook_endpoint.enabled": "Enabled a webhook endpoint",
  "webhook_endpoint.deleted": "Deleted a webhook endpoint",
  "event.resent": "Re-sent an event",
  "saved_version.changed": "Changed the saved version",
  "saved_version.rolled_back": "Rolled back the saved version",
  "user.invited": "Invited a user",
  "user.role_changed": "Changed a role",
  "user.removed": "Removed a user",
  "user.sign_in_requested": "Asked for a sign-in link",
  "user.signed_in": "Signed in",
  "user.signed_out": "Signed out",
  "user.signed_out_everywhere": "Signed out everywhere",
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

export function AuditPage(props: {
  session: DashboardSession;
  entries: AuditEntry[];
  olderBefore: string | null;
}) {
  return (
    <Page title="Audit log" session={props.session} section="audit">
      <p>
        Every change to keys, webhook endpoints, saved versions and users, every re-sent event and
        every sign-in, whoever made it: a dashboard user, an API key or the operator.
      </p>
      {props.entries.length === 0 ? (
        <p>Nothing yet.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Audit log, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Environment</th>
              <th scope="col">About</th>
              <th scope="col">Details</th>
              <th scope="col">IP</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      )}
      {props.olderBefore && (
        <p>
          <a href={`/dashboard/audit?before=${props.olderBefore}`}>Older entries</a>
        </p>
      )}
    </Page>
  );
}
