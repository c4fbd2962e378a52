// The form that adds a webhook endpoint on the webhooks page: the API's create request, field by
// field (webhooks-page.tsx checks it with the API's own schema and rules).
import { CsrfField } from "../dashboard/layout";
import type { Environment } from "../domain/environment";
import type { Product } from "../domain/product";
import type { EventTypeEntry } from "../events";

/** What the form offers. */
export interface CreateEndpointProps {
  environment: Environment;
  products: Product[];
  /** The versions a new endpoint may be pinned to, and the one offered first. */
  versions: readonly string[];
  savedVersion: string;
  /** The event types of the saved version, with what each announces. */
  eventTypes: readonly EventTypeEntry[];
}

/** Adds an endpoint: its URL, description, event types, product and version. */
export function CreateEndpointForm(props: CreateEndpointProps) {
  const { environment, products, versions, savedVersion } = props;
  if (products.length === 0) {
    return <p>No card product yet, so no event to send.</p>;
  }
  return (
    <section aria-labelledby="create-heading">
      <h2 id="create-heading">Add a {environment} endpoint</h2>
      <form method="post" action={`/dashboard/${environment}/webhooks`} class="stack">
        <CsrfField />
        <UrlFields />
        {products.length > 1 && <ProductField products={products} />}
        <EventTypeFields eventTypes={props.eventTypes} />
        <VersionField versions={versions} savedVersion={savedVersion} />
        <div>
          <button type="submit">Add endpoint</button>
        </div>
      </form>
    </section>
  );
}

/** The endpoint's URL, with the rules it must meet, and its description. */
function UrlFields() {
  return (
    <>
      <label for="endpoint-url">URL</label>
      <input
        id="endpoint-url"
        name="url"
        type="url"
        required
        maxlength={2048}
        aria-describedby="endpoint-url-hint"
      />
      <span id="endpoint-url-hint" class="muted">
        https, on a public host. Redirects are not followed.
      </span>
      <label for="endpoint-description">Description (optional)</label>
      <input id="endpoint-description" name="description" type="text" maxlength={255} />
    </>
  );
}

/** Which product's events it receives, when the partner has more than one. */
function ProductField(props: { products: Product[] }) {
  return (
    <>
      <label for="endpoint-product">Product</label>
      <select id="endpoint-product" name="product" required>
        {props.products.map((p) => (
          <option value={p.merchantKey}>{`${p.name} (${p.merchantKey})`}</option>
        ))}
      </select>
    </>
  );
}

/** Every type (checked first), or the types checked, as the saved version names them. */
function EventTypeFields(props: { eventTypes: readonly EventTypeEntry[] }) {
  return (
    <fieldset aria-describedby="endpoint-events-hint">
      <legend>Event types it receives</legend>
      <div>
        <input type="checkbox" id="endpoint-events-all" name="enabled_events" value="*" checked />{" "}
        <label for="endpoint-events-all">Every event type, present and future</label>
      </div>
      {props.eventTypes.map((entry) => (
        <div>
          <input
            type="checkbox"
            id={`endpoint-events-${entry.type}`}
            name="enabled_events"
            value={entry.type}
          />{" "}
          <label for={`endpoint-events-${entry.type}`}>
            <code>{entry.type}</code>: {entry.description}
          </label>
        </div>
      ))}
      <span id="endpoint-events-hint" class="muted">
        Uncheck the first to receive only the types checked, as your saved version names them.
      </span>
    </fieldset>
  );
}

/** The version its payloads are pinned to, the saved version first. */
function VersionField(props: { versions: readonly string[]; savedVersion: string }) {
  const { versions, savedVersion } = props;
  return (
    <>
      <label for="endpoint-version">API version of its payloads</label>
      <select id="endpoint-version" name="api_version" aria-describedby="endpoint-version-hint">
        {versions.map((v) => (
          <option value={v} selected={v === savedVersion}>
            {v === savedVersion ? `${v} (your saved version)` : v}
          </option>
        ))}
      </select>
      <span id="endpoint-version-hint" class="muted">
        Pinned for good: to move versions, add a new endpoint.
      </span>
    </>
  );
}
