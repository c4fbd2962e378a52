// /dashboard/{environment}/webhooks: the partner's webhook endpoints by product; create one, roll
// its secret, enable or delete it, and read its recent deliveries and re-send an event. The
// rules, writes and audit rows are the API's own (app/webhook-endpoints.ts, app/events.ts).
import { type Context, Hono } from "hono";
import type { Environment } from "../../../versions";
import { userActor } from "../../app/actor";
import type { AppEnv } from "../../app/context";
import { authorize, may } from "../../app/dashboard/authorize";
import { ApiError } from "../../app/errors";
import { resendEventTo } from "../../app/events";
import {
  type EndpointScope,
  prepareEndpoint,
  prepareSecretRoll,
} from "../../app/webhook-endpoints";
import type { Database } from "../../db/client";
import { productsOf } from "../../db/partners";
import { readSavedVersion } from "../../db/saved-versions";
import { readEndpointAttempts } from "../../db/webhook-deliveries";
import {
  deleteEndpoint,
  enableEndpoint,
  findPartnerEndpoint,
  listPartnerEndpoints,
} from "../../db/webhook-endpoints";
import { isRollGrace, ROLL_GRACE } from "../../domain/key-record";
import { refusalOf } from "../../domain/permissions";
import type { Product } from "../../domain/product";
import type { ProductEndpoint } from "../../domain/webhook-endpoint";
import { parseRequest } from "../request-body";
import { environmentParam } from "./environment";
import { field } from "./forms";
import { DeleteEndpointPage, NewSecretPage, RollSecretPage } from "./views/webhook-actions";
import { EndpointPage } from "./views/webhook-endpoint";
import { type ProductEndpoints, WebhooksPage } from "./views/webhooks";

/** Delivery attempts per page of an endpoint's history. */
const ATTEMPTS_PAGE = 50;
const ATTEMPT_ID = /^att_[0-9A-Za-z]{1,64}$/;

const NOTICES: Record<string, string> = {
  deleted: "Webhook endpoint deleted.",
  enabled: "Webhook endpoint enabled.",
  resent: "The event is queued for delivery to this endpoint.",
};

function endpointNotFound(): ApiError {
  return new ApiError("NOT_FOUND_ERROR", "There is no such webhook endpoint in this environment.");
}

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

/**
 * The endpoint `endpointId` of the signed-in user's partner in `environment`, whichever product
 * it serves, and the scope its changes are made in; 404 for any other.
 */
async function endpointOf(
  c: Context<AppEnv>,
  environment: Environment,
  endpointId: string,
): Promise<{ endpoint: ProductEndpoint; scope: EndpointScope }> {
  const { partnerId } = c.get("session").user;
  const endpoint = await findPartnerEndpoint(c.get("db"), partnerId, environment, endpointId);
  if (!endpoint) throw endpointNotFound();
  return { endpoint, scope: { partnerId, environment, merchantKey: endpoint.merchantKey } };
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
    const body = parseRequest("CreateWebhookEndpointRequest", {
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
  })

  .get("/dashboard/:environment/webhooks/:endpoint_id", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "webhooks.view", environment);
    const before = c.req.query("before") ?? null;
    if (before !== null && !ATTEMPT_ID.test(before)) {
      throw new ApiError("NOT_FOUND_ERROR", "There is no such page of deliveries.");
    }
    const { endpoint } = await endpointOf(c, environment, c.req.param("endpoint_id"));
    const db = c.get("db");
    const [rows, products] = await Promise.all([
      readEndpointAttempts(db, endpoint.endpointId, before, ATTEMPTS_PAGE),
      productsOf(db, c.get("session").user.partnerId),
    ]);
    const attempts = rows.slice(0, ATTEMPTS_PAGE);
    const last = attempts.at(-1);
    return c.html(
      <EndpointPage
        session={c.get("session")}
        environment={environment}
        endpoint={endpoint}
        product={
          products.length > 1
            ? (products.find((p) => p.merchantKey === endpoint.merchantKey) ?? null)
            : null
        }
        attempts={attempts}
        olderBefore={rows.length > ATTEMPTS_PAGE && last ? last.attemptId : null}
        can={{
          roll: may(c, "webhooks.roll_secret", environment),
          delete: may(c, "webhooks.delete", environment),
          enable: may(c, "webhooks.enable", environment),
          resend: may(c, "webhooks.resend", environment),
        }}
        now={c.get("now")()}
        notice={NOTICES[c.req.query("notice") ?? ""]}
      />,
    );
  })

  .get("/dashboard/:environment/webhooks/:endpoint_id/roll", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "webhooks.roll_secret", environment);
    const { endpoint } = await endpointOf(c, environment, c.req.param("endpoint_id"));
    return c.html(
      <RollSecretPage session={c.get("session")} environment={environment} endpoint={endpoint} />,
    );
  })

  .post("/dashboard/:environment/webhooks/:endpoint_id/roll", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "webhooks.roll_secret", environment);
    const { user } = c.get("session");
    const overlap = await field(c, "previous");
    if (!isRollGrace(overlap)) {
      throw new ApiError("BAD_REQUEST_ERROR", "Choose how long the previous secret keeps signing.");
    }
    const { scope, endpoint } = await endpointOf(c, environment, c.req.param("endpoint_id"));
    // The choices are the API's `previous_secret_expires_in` values: 0 s to 7 days.
    const { previous_secret_expires_in: keepForSeconds = 0 } = parseRequest(
      "RollWebhookEndpointSecretRequest",
      { previous_secret_expires_in: ROLL_GRACE[overlap] / 1000 },
    );
    const prepared = await prepareSecretRoll(c, {
      scope,
      endpointId: endpoint.endpointId,
      keepForSeconds,
      actor: userActor(c, user),
    });
    await prepared.commit();
    return c.html(
      <NewSecretPage
        session={c.get("session")}
        environment={environment}
        title="Secret rolled"
        endpoint={prepared.endpoint}
        previousUntil={prepared.endpoint.previous_secret_expires_at ?? ""}
        now={c.get("now")()}
      />,
    );
  })

  .get("/dashboard/:environment/webhooks/:endpoint_id/delete", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "webhooks.delete", environment);
    const { endpoint } = await endpointOf(c, environment, c.req.param("endpoint_id"));
    return c.html(
      <DeleteEndpointPage
        session={c.get("session")}
        environment={environment}
        endpoint={endpoint}
      />,
    );
  })

  .post("/dashboard/:environment/webhooks/:endpoint_id/delete", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "webhooks.delete", environment);
    const { user } = c.get("session");
    const { scope, endpoint } = await endpointOf(c, environment, c.req.param("endpoint_id"));
    const change = {
      scope,
      endpointId: endpoint.endpointId,
      actor: userActor(c, user),
      now: c.get("now")(),
    };
    if (!(await deleteEndpoint(c.get("db"), change))) throw endpointNotFound();
    return c.redirect(`/dashboard/${environment}/webhooks?notice=deleted`, 303);
  })

  .post("/dashboard/:environment/webhooks/:endpoint_id/enable", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "webhooks.enable", environment);
    const { user } = c.get("session");
    const { scope, endpoint } = await endpointOf(c, environment, c.req.param("endpoint_id"));
    const change = {
      scope,
      endpointId: endpoint.endpointId,
      actor: userActor(c, user),
      now: c.get("now")(),
    };
    if (!(await enableEndpoint(c.get("db"), change))) throw endpointNotFound();
    return c.redirect(
      `/dashboard/${environment}/webhooks/${endpoint.endpointId}?notice=enabled`,
      303,
    );
  })

  .post("/dashboard/:environment/webhooks/:endpoint_id/resend", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "webhooks.resend", environment);
    const { user } = c.get("session");
    const eventId = await field(c, "event_id");
    if (eventId === "") throw new ApiError("BAD_REQUEST_ERROR", "Enter the id of an event.");
    const { scope, endpoint } = await endpointOf(c, environment, c.req.param("endpoint_id"));
    await resendEventTo(c, {
      scope,
      eventId,
      endpointId: endpoint.endpointId,
      actor: userActor(c, user),
    });
    return c.redirect(
      `/dashboard/${environment}/webhooks/${endpoint.endpointId}?notice=resent`,
      303,
    );
  });
