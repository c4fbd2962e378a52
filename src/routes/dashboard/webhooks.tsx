// /dashboard/{environment}/webhooks: the partner's webhook endpoints by product, and adding one
// with the API's own rules, writes and audit row (app/webhook-endpoints.ts). One endpoint's pages
// are in webhook-endpoint.tsx.
import { Hono } from "hono";
import { userActor } from "../../app/actor";
import type { AppEnv } from "../../app/context";
import { authorize, may } from "../../app/dashboard/authorize";
import { ApiError } from "../../app/errors";
import { parseRequest } from "../../app/request-body";
import { schemas } from "../../canonical/schemas";
import type { Database } from "../../db/client";
import { productsOf } from "../../db/partners";
import { readSavedVersion } from "../../db/saved-versions";
import type { Environment } from "../../domain/environment";
import { refusalOf } from "../../domain/permissions";
import type { Product } from "../../domain/product";
import type { ProductEndpoint } from "../../domain/webhook-endpoint";
import { listPartnerEndpoints } from "../../webhooks/endpoint-store";
import { prepareEndpoint } from "../../webhooks/endpoints";
import { environmentParam } from "./environment";
import { field } from "./forms";
import { NewSecretPage } from "./views/webhook-actions";
import { type ProductEndpoints, WebhooksPage } from "./views/webhooks";

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

export const webhookPageRoutes = new Hono<AppEnv>()
  .get("/dashboard/:environment/webhooks", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "webhooks.view", environment);
    const { user } = c.get("session");
    const db = c.get("db");
    const [endpoints, products, savedVersion] = await Promise.all([
      listPartnerEndpoints(db, user.partnerId, environment),
      productsOf(db, user.partnerId),
      savedVersionOf(db, user.partnerId, environment),
    ]);
    return c.html(
      <WebhooksPage
        session={c.get("session")}
        environment={environment}
        groups={byProduct(products, endpoints)}
        products={products}
        versions={c.get("bundle").supported(environment)}
        savedVersion={savedVersion}
        canCreate={may(c, "webhooks.create", environment)}
        canManage={may(c, "webhooks.roll_secret", environment)}
        refusal={refusalOf(user.role, "webhooks.create", environment)}
        notice={NOTICES[c.req.query("notice") ?? ""]}
      />,
    );
  })

  .post("/dashboard/:environment/webhooks", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "webhooks.create", environment);
    const { user } = c.get("session");
    const db = c.get("db");
    const product = chosenProduct(await productsOf(db, user.partnerId), await field(c, "product"));
    const description = await field(c, "description");
    const version = await field(c, "api_version");
    // The form is the API's create request: the same schema checks it.
    const body = parseRequest(schemas.CreateWebhookEndpointRequest, {
      url: await field(c, "url"),
      ...(description === "" ? {} : { description }),
      api_version: version === "" ? await savedVersionOf(db, user.partnerId, environment) : version,
    });
    const prepared = await prepareEndpoint(c, {
      scope: { partnerId: user.partnerId, environment, merchantKey: product.merchantKey },
      url: body.url,
      description: body.description ?? null,
      apiVersion: body.api_version ?? version,
      actor: userActor(c, user),
    });
    await prepared.commit();
    return c.html(
      <NewSecretPage
        session={c.get("session")}
        environment={environment}
        title="Your new endpoint"
        endpoint={prepared.endpoint}
        now={c.get("now")()}
      />,
      201,
    );
  });
