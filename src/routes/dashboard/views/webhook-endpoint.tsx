// One webhook endpoint's page: what it is, its actions, and its recent deliveries (every attempt,
// newest first), each event re-sendable.
import type { DashboardSession } from "../../../app/context";
import type { AttemptStatus, EndpointAttempt } from "../../../domain/delivery-attempt";
import type { Environment } from "../../../domain/environment";
import type { Product } from "../../../domain/product";
import type { ProductEndpoint } from "../../../domain/webhook-endpoint";
import { CsrfField, Page, Time } from "./layout";
import { EndpointStatus, ProductName } from "./webhooks";

const RESULTS: Record<AttemptStatus, { label: string; class: string }> = {
  succeeded: { label: "Succeeded", class: "status-active" },
  failed: { label: "Failed", class: "status-disabled" },
  timed_out: { label: "Timed out", class: "status-disabled" },
};

export interface EndpointPageProps {
  session: DashboardSession;
  environment: Environment;
  endpoint: ProductEndpoint;
  /** Named when the partner has several products. */
  product: Product | null;
  attempts: EndpointAttempt[];
  /** The `before` of the next page of older attempts, if any. */
  olderBefore: string | null;
  can: { roll: boolean; delete: boolean; enable: boolean; resend: boolean };
  now: Date;
  notice?: string | undefined;
}

function Actions(props: EndpointPageProps) {
  const { endpoint, environment, can, session } = props;
  const base = `/dashboard/${environment}/webhooks/${endpoint.endpointId}`;
  return (
    <>
      {endpoint.status === "disabled" && can.enable && (
        <form method="post" action={`${base}/enable`} class="stack">
          <CsrfField session={session} />
          <p>It gets no event until enabled. Then re-send the events it missed.</p>
          <div>
            <button type="submit">Enable endpoint</button>
          </div>
        </form>
      )}
      {(can.roll || can.delete) && (
        <p>
          {can.roll && <a href={`${base}/roll`}>Roll the signing secret</a>}{" "}
          {can.delete && <a href={`${base}/delete`}>Delete this endpoint</a>}
        </p>
      )}
    </>
  );
}

function Deliveries(props: EndpointPageProps) {
  const { attempts, endpoint, environment, session } = props;
  const base = `/dashboard/${environment}/webhooks/${endpoint.endpointId}`;
  const resendable = props.can.resend && endpoint.status === "enabled";
  // One re-send button per event: on its newest attempt of the page.
  const offered = new Set<string>();
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Recent deliveries</h2>
      <p>Every attempt, newest first; events are kept 30 days.</p>
      {attempts.length === 0 ? (
        <p>No delivery attempted yet.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Delivery attempts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Attempted</th>
              <th scope="col">Event</th>
              <th scope="col">Result</th>
              <th scope="col">Response</th>
              <th scope="col">Duration</th>
              {resendable && <th scope="col">Re-send</th>}
            </tr>
          </thead>
          <tbody>
            {attempts.map((a) => {
              const result = RESULTS[a.status];
              const offer = resendable && !offered.has(a.eventId) && a.eventType !== null;
              offered.add(a.eventId);
              return (
                <tr id={a.attemptId}>
                  <td>
                    <Time at={a.attemptedAt} />
                  </td>
                  <td>
                    <code>{a.eventId}</code>
                    {a.eventType && (
                      <>
                        <br />
                        <code class="muted">{a.eventType}</code>
                      </>
                    )}
                  </td>
                  <td>
                    <span class={result.class}>{result.label}</span>
                  </td>
                  <td>
                    {a.responseStatus ?? <span class="muted">No answer</span>}
                    {a.error && (
                      <>
                        <br />
                        <span class="muted">{a.error}</span>
                      </>
                    )}
                  </td>
                  <td>{`${a.durationMs} ms`}</td>
                  {resendable && (
                    <td>
                      {offer && (
                        <form method="post" action={`${base}/resend`} class="inline">
                          <CsrfField session={session} />
                          <input type="hidden" name="event_id" value={a.eventId} />
                          <button type="submit" class="secondary">
                            Re-send<span class="visually-hidden"> {a.eventId}</span>
                          </button>
                        </form>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {props.olderBefore && (
        <p>
          <a href={`${base}?before=${props.olderBefore}`}>Older deliveries</a>
        </p>
      )}
    </section>
  );
}

function ResendForm(props: EndpointPageProps) {
  const { endpoint, environment } = props;
  if (!props.can.resend) return null;
  if (endpoint.status !== "enabled") {
    return <p class="muted">Enable the endpoint to re-send events to it.</p>;
  }
  return (
    <section aria-labelledby="resend-heading">
      <h2 id="resend-heading">Re-send an event</h2>
      <form
        method="post"
        action={`/dashboard/${environment}/webhooks/${endpoint.endpointId}/resend`}
        class="stack"
      >
        <CsrfField session={props.session} />
        <label for="resend-event">Event id</label>
        <input
          id="resend-event"
          name="event_id"
          type="text"
          required
          maxlength={64}
          aria-describedby="resend-event-hint"
        />
        <span id="resend-event-hint" class="muted">
          Any event of this product from the last 30 days; it keeps its <code>webhook-id</code>.
        </span>
        <div>
          <button type="submit">Re-send event</button>
        </div>
      </form>
    </section>
  );
}

export function EndpointPage(props: EndpointPageProps) {
  const { endpoint, environment, now } = props;
  const previousUntil = endpoint.previousSecretExpiresAt;
  return (
    <Page
      title="Webhook endpoint"
      session={props.session}
      environment={environment}
      section="webhooks"
      notice={props.notice}
    >
      <dl>
        <dt>URL</dt>
        <dd>
          <code>{endpoint.url}</code>
        </dd>
        <dt>Endpoint id</dt>
        <dd>
          <code>{endpoint.endpointId}</code>
        </dd>
        <dt>Description</dt>
        <dd>{endpoint.description ?? <span class="muted">None</span>}</dd>
        {props.product && (
          <>
            <dt>Product</dt>
            <dd>
              <ProductName product={props.product} />
            </dd>
          </>
        )}
        <dt>API version of its payloads</dt>
        <dd>
          <code>{endpoint.apiVersion}</code>
        </dd>
        <dt>Status</dt>
        <dd>
          <EndpointStatus endpoint={endpoint} />
        </dd>
        <dt>Created</dt>
        <dd>
          <Time at={endpoint.createdAt} />
        </dd>
        <dt>Signing secret</dt>
        <dd>
          Shown only when created or rolled.
          {previousUntil && previousUntil > now.toISOString() && (
            <>
              {" "}
              The previous secret also signs until <Time at={previousUntil} />.
            </>
          )}
        </dd>
      </dl>
      <Actions {...props} />
      <Deliveries {...props} />
      <ResendForm {...props} />
      <p>
        <a href={`/dashboard/${environment}/webhooks`}>Back to the webhook endpoints</a>
      </p>
    </Page>
  );
}
