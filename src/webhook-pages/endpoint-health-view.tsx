// What the dashboard shows of an endpoint's health and filter, and the form that recovers the
// events it missed (the API's own rules and writes, webhook-deliveries/recovery.ts).
import { CsrfField, Time } from "../dashboard/layout";
import type { Environment } from "../domain/environment";
import {
  type EndpointFields,
  type EndpointReadContext,
  enabledEventsOf,
  healthOf,
} from "../domain/webhook-endpoint";

/** The share of recent attempts that succeeded, as a page reads it. */
function rateOf(endpoint: EndpointFields): string {
  const { attempts, succeeded } = endpoint.recent;
  if (attempts === 0) return "No attempt in the last 24 hours";
  const percent = Math.floor((succeeded / attempts) * 1000) / 10;
  return `${percent}% of its last ${attempts} attempt${attempts === 1 ? "" : "s"} succeeded`;
}

/** The health of an endpoint in a table cell: its success rate and its failure streak. */
export function HealthCell({ endpoint }: { endpoint: EndpointFields }) {
  const streak = endpoint.failureStreak;
  return (
    <>
      {rateOf(endpoint)}
      {streak > 0 && (
        <>
          <br />
          <span class="status-disabled">{streak} failed in a row</span>
        </>
      )}
    </>
  );
}

/** The event types an endpoint takes. */
export function EventTypes({ endpoint }: { endpoint: EndpointFields }) {
  const types = enabledEventsOf(endpoint.enabledEvents);
  if (types[0] === "*") return <>Every event type</>;
  return (
    <>
      {types.map((type, i) => (
        <>
          {i > 0 && ", "}
          <code>{type}</code>
        </>
      ))}
    </>
  );
}

/** The health entries of an endpoint's description list. */
export function HealthDetails(props: { endpoint: EndpointFields; read: EndpointReadContext }) {
  const { endpoint } = props;
  const health = healthOf(endpoint, props.read);
  return (
    <>
      <dt>Recent deliveries</dt>
      <dd>{rateOf(endpoint)}</dd>
      <dt>Failure streak</dt>
      <dd>
        {health.failure_streak === 0 ? (
          "None: its last attempt succeeded"
        ) : (
          <span class="status-disabled">
            {health.failure_streak} failed attempt{health.failure_streak === 1 ? "" : "s"} in a row
          </span>
        )}
        {health.failing_since && (
          <>
            , failing since <Time at={health.failing_since} />
          </>
        )}
        {health.disables_at && (
          <>
            <br />
            <span class="muted">
              Disabled at <Time at={health.disables_at} /> if every attempt keeps failing; its
              Admins are mailed a day before.
            </span>
          </>
        )}
      </dd>
    </>
  );
}

/** An RFC 3339 instant accepted as a form's prefilled value, or null. */
export function prefilledInstant(value: string | undefined): string | null {
  return value && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(value) ? value : null;
}

/** Queues every event the endpoint missed since an instant, in order, through its throttle. */
export function RecoverForm(props: {
  environment: Environment;
  endpoint: EndpointFields;
  /** Where the window starts unless changed: when its failures began, after an enable. */
  since: string;
  /** True right after it was enabled: the form is offered first. */
  afterEnable: boolean;
  /** Its throttle: deliveries per second at most. */
  perSecond: number;
}) {
  const { endpoint, environment } = props;
  if (endpoint.status !== "enabled") {
    return <p class="muted">Enable the endpoint to recover the events it missed.</p>;
  }
  return (
    <section aria-labelledby="recover-heading">
      <h2 id="recover-heading">Recover missed events</h2>
      <p>
        {props.afterEnable
          ? "Enabled again: recover every event it missed while it failed and was disabled. "
          : "After an outage of your receiver: "}
        every event of its types in the window that it has not received is queued once, in the order
        they happened, at most {props.perSecond} a second. Events are kept 30 days.
      </p>
      <form
        method="post"
        action={`/dashboard/${environment}/webhooks/${endpoint.endpointId}/recover`}
        class="stack"
      >
        <CsrfField />
        <label for="recover-since">Since</label>
        <input
          id="recover-since"
          name="since"
          type="text"
          required
          value={props.since}
          aria-describedby="recover-hint"
        />
        <label for="recover-until">Until (optional)</label>
        <input id="recover-until" name="until" type="text" aria-describedby="recover-hint" />
        <span id="recover-hint" class="muted">
          RFC 3339 instants in UTC, such as <code>2026-11-27T09:30:00Z</code>; until defaults to
          now.
        </span>
        <div>
          <button type="submit">Recover events</button>
        </div>
      </form>
    </section>
  );
}
