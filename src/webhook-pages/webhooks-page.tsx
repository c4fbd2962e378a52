// /dashboard/{environment}/webhooks: the partner's webhook endpoints in the environment, by
// product, and the form that adds one with the API's own rules, writes and audit row
// (webhook-endpoints/endpoints.ts). One endpoint's pages: endpoint-page.tsx, endpoint-actions.tsx.
import { Hono } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { parseRequest } from "../app/request-body";
import { field, readForm } from "../dashboard/forms";
import { Time } from "../dashboard/layout";
import { allow, type DashboardPage, may } from "../dashboard/page";
import { Table } from "../dashboard/table";
import type { Database } from "../db/client";
import { productsOf } from "../db/partners";
import type { Environment } from "../domain/environment";
import { refusalOf } from "../domain/permissions";
import type { Product } from "../domain/product";
import type { ProductEndpoint } from "../domain/webhook-endpoint";
import { type EventTypeEntry, eventTypesOf } from "../events";
import { readSavedVersion } from "../saved-versions";
import {
  CreateWebhookEndpointRequest,
  listPartnerEndpoints,
  prepareEndpoint,
} from "../webhook-endpoints";
import { CreateEndpointForm } from "./create-endpoint-form";
import { NewSecretView } from "./endpoint-actions";
import { EventTypes, HealthCell } from "./endpoint-health-view";
import { EndpointStatus, ProductName } from "./endpoint-page";

const NOTICES: Record<string, string> = { deleted: "Webhook endpoint deleted." };

/** The partner's saved version in the environment: a new endpoint's version by default. */
async function savedVersionOf(db: Database, partnerId: string, environment: Environment) {
  const state = await readSavedVersion(db, partnerId, environment, 0);
  if (!state) throw new ApiError("NOT_FOUND_ERROR", "Your partner record is missing.");
  return state.saved;
}

/** The product a new endpoint serves: the one chosen, or the partner's only one. */
function chosenProduct(products: Product[], chosen: string): Product {
  if (products.length === 0) {
    throw new ApiError("BAD_REQUEST_ERROR", "Your partner has no card product yet.");
  }
  const product =
    chosen === "" && products.length === 1
      ? products[0]
      : products.find((p) => p.merchantKey === chosen);
  if (!product) throw new ApiError("BAD_REQUEST_ERROR", "Choose one of your products.");
  return product;
}

/** Endpoints grouped by product, in product order; an endpoint's group always exists. */
function byProduct(products: Product[], endpoints: ProductEndpoint[]): ProductEndpoints[] {
  const groups = products.map((product) => ({
    product,
    endpoints: endpoints.filter((e) => e.merchantKey === product.merchantKey),
  }));
  for (const e of endpoints) {
    if (!groups.some((g) => g.product.merchantKey === e.merchantKey)) {
      groups.push({ product: { merchantKey: e.merchantKey, name: e.merchantKey }, endpoints: [e] });
    }
  }
  return groups;
}

interface ProductEndpoints {
  product: Product;
  endpoints: ProductEndpoint[];
}

interface WebhooksViewProps {
  environment: Environment;
  groups: ProductEndpoints[];
  products: Product[];
  /** The versions a new endpoint may be pinned to, and the one offered first. */
  versions: readonly string[];
  savedVersion: string;
  /** The event types of the saved version, with what each announces. */
  eventTypes: readonly EventTypeEntry[];
  canCreate: boolean;
  canManage: boolean;
  refusal: string;
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
    <Table
      caption={props.caption}
      columns={[
        "Endpoint",
        "Description",
        "API version",
        "Event types",
        "Status",
        "Health",
        "Created",
        ...(canManage ? ["Actions"] : []),
      ]}
    >
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
            <EventTypes endpoint={e} />
          </td>
          <td>
            <EndpointStatus endpoint={e} />
          </td>
          <td>
            <HealthCell endpoint={e} />
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
    </Table>
  );
}

function WebhooksView(props: WebhooksViewProps) {
  const { environment, groups } = props;
  const several = groups.length > 1;
  const total = groups.reduce((n, g) => n + g.endpoints.length, 0);
  return (
    <>
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
    </>
  );
}

export const webhooksPage: DashboardPage = {
  routes: new Hono<AppEnv>()
    .get("/:environment/webhooks", allow("webhooks.view"), async (c) => {
      const { environment } = c.var;
      const { user } = c.var.session;
      const db = c.get("db");
      const [endpoints, products, savedVersion] = await Promise.all([
        listPartnerEndpoints(db, user.partnerId, environment, c.get("now")()),
        productsOf(db, user.partnerId),
        savedVersionOf(db, user.partnerId, environment),
      ]);
      return c.render(
        <WebhooksView
          environment={environment}
          groups={byProduct(products, endpoints)}
          products={products}
          versions={c.get("bundle").supported(environment)}
          savedVersion={savedVersion}
          eventTypes={eventTypesOf(c.get("bundle"), savedVersion)}
          canCreate={may(c, "webhooks.create", environment)}
          canManage={may(c, "webhooks.roll_secret", environment)}
          refusal={refusalOf(user.role, "webhooks.create", environment)}
        />,
        { title: "Webhooks", section: "webhooks", notice: NOTICES[c.req.query("notice") ?? ""] },
      );
    })

    .post("/:environment/webhooks", allow("webhooks.create"), async (c) => {
      const { environment } = c.var;
      const { user } = c.var.session;
      const db = c.get("db");
      const products = await productsOf(db, user.partnerId);
      const product = chosenProduct(products, await field(c, "product"));
      const description = await field(c, "description");
      const version = await field(c, "api_version");
      // Every type when "*" stays checked (or nothing is), else the types checked.
      const checked = (await readForm(c)).getAll("enabled_events");
      const enabledEvents = checked.length === 0 || checked.includes("*") ? undefined : checked;
      // The form is the API's create request: the same schema checks it.
      const body = parseRequest(CreateWebhookEndpointRequest, {
        url: await field(c, "url"),
        ...(description === "" ? {} : { description }),
        api_version:
          version === "" ? await savedVersionOf(db, user.partnerId, environment) : version,
        ...(enabledEvents === undefined ? {} : { enabled_events: enabledEvents }),
      });
      const prepared = await prepareEndpoint(c, {
        scope: { partnerId: user.partnerId, environment, merchantKey: product.merchantKey },
        url: body.url,
        description: body.description ?? null,
        apiVersion: body.api_version ?? version,
        enabledEvents: body.enabled_events,
        actor: userActor(c, user),
      });
      await prepared.commit();
      c.status(201);
      return c.render(
        <NewSecretView
          environment={environment}
          endpoint={prepared.endpoint}
          now={c.get("now")()}
        />,
        { title: "Your new endpoint", section: "webhooks" },
      );
    }),
  nav: { section: "webhooks", label: "Webhooks", action: "webhooks.view", perEnvironment: true },
};
