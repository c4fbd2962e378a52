// An endpoint's deliveries on its dashboard page: every attempt, newest first, 50 a page, each
// event re-sendable, and a form that re-sends any event of the last 30 days by id.
import { CsrfField, Time } from "../dashboard/layout";
import { Table } from "../dashboard/table";
import type { Environment } from "../domain/environment";
import type { ProductEndpoint } from "../domain/webhook-endpoint";
import type { AttemptStatus, EndpointAttempt } from "../webhook-deliveries";

const RESULTS: Record<AttemptStatus, { label: string; class: string }> = {
  succeeded: { label: "Succeeded", class: "status-active" },
  failed: { label: "Failed", class: "status-disabled" },
  timed_out: { label: "Timed out", class: "status-disabled" },
};

interface DeliveriesProps {
  environment: Environment;
  endpoint: ProductEndpoint;
  attempts: EndpointAttempt[];
  /** The `before` of the next page of older attempts, if any. */
  olderBefore: string | null;
  can: { resend: boolean };
}

/** The endpoint's attempts, newest first, with a Re-send button per event while it is enabled. */
export function Deliveries(props: DeliveriesProps) {
  const { attempts, endpoint, environment } = props;
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
        <Table
          caption="Delivery attempts, newest first"
          columns={[
            "Attempted",
            "Event",
            "Result",
            "Response",
            "Duration",
            ...(resendable ? ["Re-send"] : []),
          ]}
        >
          {attempts.map((a) => {
            const offer = resendable && !offered.has(a.eventId) && a.eventType !== null;
            offered.add(a.eventId);
            return <AttemptRow attempt={a} resend={resendable ? { base, offer } : null} />;
          })}
        </Table>
      )}
      {props.olderBefore && (
        <p>
          <a href={`${base}?before=${props.olderBefore}`}>Older deliveries</a>
        </p>
      )}
    </section>
  );
}

/**
 * One attempt's row; `resend` is null when the table has no Re-send column, and `offer` says
 * whether this row carries its event's button.
 */
function AttemptRow(props: {
  attempt: EndpointAttempt;
  resend: { base: string; offer: boolean } | null;
}) {
  const { attempt: a, resend } = props;
  const result = RESULTS[a.status];
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
      {resend && (
        <td>
          {resend.offer && (
            <form method="post" action={`${resend.base}/resend`} class="inline">
              <CsrfField />
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
}

/** Re-sends any event of the last 30 days to the endpoint, by id. */
export function ResendForm(props: Omit<DeliveriesProps, "attempts" | "olderBefore">) {
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
        <CsrfField />
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
