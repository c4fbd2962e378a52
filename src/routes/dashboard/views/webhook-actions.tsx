// Webhook endpoint action pages: a signing secret shown once, and the roll and delete
// confirmations.
import type { DashboardSession } from "../../../app/context";
import type { Environment } from "../../../domain/environment";
import { ROLL_GRACE, type RollGrace } from "../../../domain/key-record";
import type { EndpointFields, WebhookEndpoint } from "../../../domain/webhook-endpoint";
import { CsrfField, Page, Time } from "./layout";

export function NewSecretPage(props: {
  session: DashboardSession;
  environment: Environment;
  title: string;
  endpoint: WebhookEndpoint;
  /** After a roll: until when the replaced secret still signs (now or earlier: no longer). */
  previousUntil?: string | undefined;
  now: Date;
}) {
  const { endpoint, environment, previousUntil } = props;
  const base = `/dashboard/${environment}/webhooks`;
  return (
    <Page title={props.title} session={props.session} environment={environment} section="webhooks">
      <p>Copy the signing secret for your receiver now: it is shown only this once.</p>
      <label for="new-secret">Signing secret</label>
      <input id="new-secret" class="secret mono" type="text" readonly value={endpoint.secret} />{" "}
      <button type="button" data-copy="new-secret" hidden>
        Copy
      </button>
      <span id="new-secret-status" role="status" />
      <dl>
        <dt>Endpoint id</dt>
        <dd>
          <code>{endpoint.webhook_endpoint_id}</code>
        </dd>
        <dt>URL</dt>
        <dd>
          <code>{endpoint.url}</code>
        </dd>
        <dt>API version of its payloads</dt>
        <dd>
          <code>{endpoint.api_version}</code>
        </dd>
      </dl>
      {previousUntil !== undefined &&
        (previousUntil > props.now.toISOString() ? (
          <p>
            Deliveries are signed with both secrets until <Time at={previousUntil} />, then with
            this one only.
          </p>
        ) : (
          <p>The previous secret no longer signs deliveries.</p>
        ))}
      <p>
        <a href={`${base}/${endpoint.webhook_endpoint_id}`}>Go to the endpoint</a>{" "}
        <a href={base}>Back to the webhook endpoints</a>
      </p>
    </Page>
  );
}

const OVERLAP_LABELS: Record<RollGrace, string> = {
  now: "No: it stops now",
  "1h": "For 1 hour",
  "24h": "For 24 hours",
  "7d": "For 7 days",
};

export function RollSecretPage(props: {
  session: DashboardSession;
  environment: Environment;
  endpoint: EndpointFields;
}) {
  const { endpoint, environment } = props;
  const base = `/dashboard/${environment}/webhooks/${endpoint.endpointId}`;
  return (
    <Page
      title="Roll a signing secret"
      session={props.session}
      environment={environment}
      section="webhooks"
    >
      <p>
        A new secret for <code>{endpoint.url}</code>. While the previous one still signs, each
        delivery carries both signatures: switch your receiver without missing an event.
      </p>
      <form method="post" action={`${base}/roll`} class="stack">
        <CsrfField session={props.session} />
        <fieldset>
          <legend>The previous secret keeps signing</legend>
          {(Object.keys(ROLL_GRACE) as RollGrace[]).map((overlap) => (
            <div>
              <input
                type="radio"
                id={`overlap-${overlap}`}
                name="previous"
                value={overlap}
                checked={overlap === "24h"}
              />{" "}
              <label for={`overlap-${overlap}`}>{OVERLAP_LABELS[overlap]}</label>
            </div>
          ))}
        </fieldset>
        <div>
          <button type="submit">Roll secret</button> <a href={base}>Cancel</a>
        </div>
      </form>
    </Page>
  );
}

export function DeleteEndpointPage(props: {
  session: DashboardSession;
  environment: Environment;
  endpoint: EndpointFields;
}) {
  const { endpoint, environment } = props;
  const base = `/dashboard/${environment}/webhooks/${endpoint.endpointId}`;
  return (
    <Page
      title="Delete a webhook endpoint"
      session={props.session}
      environment={environment}
      section="webhooks"
    >
      <p>
        Deliveries to <code>{endpoint.url}</code> stop at once, retries included, and its history
        goes too. This cannot be undone.
      </p>
      <form method="post" action={`${base}/delete`} class="stack">
        <CsrfField session={props.session} />
        <div>
          <button type="submit" class="danger">
            Delete endpoint
          </button>{" "}
          <a href={base}>Cancel</a>
        </div>
      </form>
    </Page>
  );
}
