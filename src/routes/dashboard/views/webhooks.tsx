// The webhook endpoints page: the partner's endpoints in one environment, by product, and the form
// that creates one.
import type { DashboardSession } from "../../../app/context";
import type { Environment } from "../../../domain/environment";
import type { Product } from "../../../domain/product";
import type { EndpointFields, ProductEndpoint } from "../../../domain/webhook-endpoint";
import { CsrfField, Page, Time } from "./layout";

/** Enabled, or disabled with when and why. */
export function EndpointStatus({ endpoint }: { endpoint: EndpointFields }) {
  if (endpoint.status === "enabled") return <span class="status-active">Enabled</span>;
  return (
    <>
      <span class="status-disabled">
        Disabled{endpoint.disabledAt && <> </>}
        {endpoint.disabledAt && <Time at={endpoint.disabledAt} />}
      </span>
      {endpoint.disabledReason && (
        <>
          <br />
          <span class="muted">{endpoint.disabledReason}</span>
        </>
      )}
    </>
  );
}

/** A product as the pages name it. */
export function ProductName({ product }: { product: Product }) {
  return (
    <>
      {product.name} (<code>{product.merchantKey}</code>)
    </>
  );
}

export interface ProductEndpoints {
  product: Product;
  endpoints: ProductEndpoint[];
}

export interface WebhooksPageProps {
  session: DashboardSession;
  environment: Environment;
  groups: ProductEndpoints[];
  products: Product[];
  /** The versions a new endpoint may be pinned to, and the one offered first. */
  versions: readonly string[];
  savedVersion: string;
  canCreate: boolean;
  canManage: boolean;
  refusal: string;
  notice?: string | undefined;
}

function CreateEndpointForm(props: WebhooksPageProps) {
  const { environment, products, versions, savedVersion } = props;
  if (products.length === 0) {
    return <p>No card product yet, so no event to send.</p>;
  }
  return (
    <section aria-labelledby="create-heading">
      <h2 id="create-heading">Add a {environment} endpoint</h2>
      <form method="post" action={`/dashboard/${environment}/webhooks`} class="stack">
        <CsrfField session={props.session} />
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
        {products.length > 1 && (
          <>
            <label for="endpoint-product">Product</label>
            <select id="endpoint-product" name="product" required>
              {products.map((p) => (
                <option value={p.merchantKey}>{`${p.name} (${p.merchantKey})`}</option>
              ))}
            </select>
          </>
        )}
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
        <div>
          <button type="submit">Add endpoint</button>
        </div>
      </form>
    </section>
  );
}

function EndpointTable(props: {
  environment: Environment;
  group: ProductEndpoints;
  canManage: boolean;
  caption: string;
}) {
  const { environment, group, canManage } = props;
  const base = `/dashboard/${environment}/webhooks`;
  return (
    <table>
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Endpoint</th>
          <th scope="col">Description</th>
          <th scope="col">API version</th>
          <th scope="col">Status</th>
          <th scope="col">Created</th>
          {canManage && <th scope="col">Actions</th>}
        </tr>
      </thead>
      <tbody>
        {group.endpoints.map((e) => (
          <tr id={e.endpointId}>
            <td>
              <a href={`${base}/${e.endpointId}`}>
                <code>{e.url}</code>
              </a>
              <br />
              <code class="muted">{e.endpointId}</code>
            </td>
            <td>{e.description ?? <span class="muted">None</span>}</td>
            <td>
              <code>{e.apiVersion}</code>
            </td>
            <td>
              <EndpointStatus endpoint={e} />
            </td>
            <td>
              <Time at={e.createdAt} />
            </td>
            {canManage && (
              <td>
                <a href={`${base}/${e.endpointId}/roll`}>
                  Roll secret<span class="visually-hidden"> of {e.endpointId}</span>
                </a>{" "}
                <a href={`${base}/${e.endpointId}/delete`}>
                  Delete<span class="visually-hidden"> {e.endpointId}</span>
                </a>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function WebhooksPage(props: WebhooksPageProps) {
  const { environment, groups } = props;
  const several = groups.length > 1;
  const total = groups.reduce((n, g) => n + g.endpoints.length, 0);
  return (
    <Page
      title="Webhooks"
      session={props.session}
      environment={environment}
      section="webhooks"
      notice={props.notice}
    >
      <p>Where your {environment} statement events go; an endpoint gets one product's.</p>
      {props.canCreate ? <CreateEndpointForm {...props} /> : <p class="muted">{props.refusal}</p>}
      <h2>Endpoints</h2>
      {total === 0 && <p>No {environment} endpoint yet.</p>}
      {groups
        .filter((g) => g.endpoints.length > 0)
        .map((group) =>
          several ? (
            <section aria-labelledby={`product-${group.product.merchantKey}`}>
              <h3 id={`product-${group.product.merchantKey}`}>
                <ProductName product={group.product} />
              </h3>
              <EndpointTable
                environment={environment}
                group={group}
                canManage={props.canManage}
                caption={`Webhook endpoints of ${group.product.name} in ${environment}`}
              />
            </section>
          ) : (
            <EndpointTable
              environment={environment}
              group={group}
              canManage={props.canManage}
              caption={`Webhook endpoints in ${environment}, oldest first`}
            />
          ),
        )}
    </Page>
  );
}
