// /dashboard/{environment}/webhooks/{webhook_endpoint_id}/roll, …/delete and …/recover: rolling
// an endpoint's signing secret (the previous one may keep signing a while), deleting the endpoint
// and recovering the events it missed, with the API's own rules, writes and audit rows; and the
// page that shows a new secret once.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { parseRequest } from "../app/request-body";
import { field } from "../dashboard/forms";
import { CsrfField, Time } from "../dashboard/layout";
import { allow, type DashboardPage } from "../dashboard/page";
import type { Environment } from "../domain/environment";
import { isRollGrace, ROLL_GRACE, type RollGrace } from "../domain/key-record";
import type { EndpointFields, WebhookEndpoint } from "../domain/webhook-endpoint";
import { RecoverWebhookEndpointRequest, recoverEndpoint } from "../webhook-deliveries";
import {
  deleteEndpoint,
  prepareSecretRoll,
  RollWebhookEndpointSecretRequest,
} from "../webhook-endpoints";
import { endpointNotFound, endpointOf } from "./endpoint-page";

/** A new endpoint's (or a rolled) signing secret, shown once, with a copy button. */
export function NewSecretView(props: {
  environment: Environment;
  endpoint: WebhookEndpoint;
  /** After a roll: until when the replaced secret still signs (now or earlier: no longer). */
  previousUntil?: string | undefined;
  now: Date;
}) {
  const { endpoint, environment, previousUntil } = props;
  const base = `/dashboard/${environment}/webhooks`;
  return (
    <>
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
    </>
  );
}

const OVERLAP_LABELS: Record<RollGrace, string> = {
  now: "No: it stops now",
  "1h": "For 1 hour",
  "24h": "For 24 hours",
  "7d": "For 7 days",
};

function RollSecretView(props: { environment: Environment; endpoint: EndpointFields }) {
  const { endpoint, environment } = props;
  const base = `/dashboard/${environment}/webhooks/${endpoint.endpointId}`;
  return (
    <>
      <p>
        A new secret for <code>{endpoint.url}</code>. While the previous one still signs, each
        delivery carries both signatures: switch your receiver without missing an event.
      </p>
      <form method="post" action={`${base}/roll`} class="stack">
        <CsrfField />
        <fieldset>
          <legend>The previous secret keeps signing</legend>
          {Object.keys(ROLL_GRACE)
            .filter(isRollGrace)
            .map((overlap) => (
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
    </>
  );
}

function DeleteEndpointView(props: { environment: Environment; endpoint: EndpointFields }) {
  const { endpoint, environment } = props;
  const base = `/dashboard/${environment}/webhooks/${endpoint.endpointId}`;
  return (
    <>
      <p>
        Deliveries to <code>{endpoint.url}</code> stop at once, retries included, and its history
        goes too. This cannot be undone.
      </p>
      <form method="post" action={`${base}/delete`} class="stack">
        <CsrfField />
        <div>
          <button type="submit" class="danger">
            Delete endpoint
          </button>{" "}
          <a href={base}>Cancel</a>
        </div>
      </form>
    </>
  );
}

const ONE = "/:environment/webhooks/:webhook_endpoint_id";

export const endpointActionsPage: DashboardPage = {
  routes: new Hono<AppEnv>()
    .get(`${ONE}/roll`, allow("webhooks.roll_secret"), async (c) => {
      const { endpoint } = await endpointOf(c);
      return c.render(<RollSecretView environment={c.var.environment} endpoint={endpoint} />, {
        title: "Roll a signing secret",
        section: "webhooks",
      });
    })

    .post(`${ONE}/roll`, allow("webhooks.roll_secret"), async (c) => {
      const { change } = await endpointOf(c);
      const overlap = await field(c, "previous");
      if (!isRollGrace(overlap)) {
        throw new ApiError(
          "BAD_REQUEST_ERROR",
          "Choose how long the previous secret keeps signing.",
        );
      }
      // The choices are values of the API's `previous_secret_expires_in`, checked as it checks
      // them.
      const { previous_secret_expires_in: keepForSeconds = 0 } = parseRequest(
        RollWebhookEndpointSecretRequest,
        { previous_secret_expires_in: ROLL_GRACE[overlap] / 1000 },
      );
      const prepared = await prepareSecretRoll(c, { ...change, keepForSeconds });
      await prepared.commit();
      return c.render(
        <NewSecretView
          environment={c.var.environment}
          endpoint={prepared.endpoint}
          previousUntil={prepared.endpoint.previous_secret_expires_at ?? ""}
          now={change.now}
        />,
        { title: "Secret rolled", section: "webhooks" },
      );
    })

    .get(`${ONE}/delete`, allow("webhooks.delete"), async (c) => {
      const { endpoint } = await endpointOf(c);
      return c.render(<DeleteEndpointView environment={c.var.environment} endpoint={endpoint} />, {
        title: "Delete a webhook endpoint",
        section: "webhooks",
      });
    })

    .post(`${ONE}/recover`, allow("webhooks.resend"), async (c) => {
      const { change, page } = await endpointOf(c);
      const until = await field(c, "until");
      // The form is the API's recover request: the same schema checks it.
      const body = parseRequest(RecoverWebhookEndpointRequest, {
        since: await field(c, "since"),
        ...(until === "" ? {} : { until }),
      });
      const outcome = await recoverEndpoint(c, { ...change, since: body.since, until: body.until });
      const notice = outcome.queued > 0 ? "recovered" : "recovered-none";
      return c.redirect(`${page}?notice=${notice}`, 303);
    })

    .post(`${ONE}/delete`, allow("webhooks.delete"), async (c) => {
      const { change } = await endpointOf(c);
      if (!(await deleteEndpoint(c.get("db"), change))) throw endpointNotFound();
      return c.redirect(`/dashboard/${c.var.environment}/webhooks?notice=deleted`, 303);
    }),
};
