// /dashboard/{environment}/webhooks/{webhook_endpoint_id}: one endpoint of the partner, its recent
// deliveries, and its actions: roll the secret, delete, enable, re-send an event. The rules,
// writes and audit rows are the API's own (app/webhook-endpoints.ts, app/events.ts).
import { type Context, Hono } from "hono";
import { userActor } from "../../app/actor";
import type { AppEnv } from "../../app/context";
import { authorize, may } from "../../app/dashboard/authorize";
import { ApiError } from "../../app/errors";
import { parseRequest } from "../../app/request-body";
import { schemas } from "../../canonical/schemas";
import { productsOf } from "../../db/partners";
import type { Environment } from "../../domain/environment";
import { isRollGrace, ROLL_GRACE } from "../../domain/key-record";
import type { DashboardAction } from "../../domain/permissions";
import type { ProductEndpoint } from "../../domain/webhook-endpoint";
import { readEndpointAttempts } from "../../webhooks/delivery-store";
import {
  deleteEndpoint,
  type EndpointChange,
  enableEndpoint,
  findPartnerEndpoint,
} from "../../webhooks/endpoint-store";
import { type EndpointScope, prepareSecretRoll } from "../../webhooks/endpoints";
import { resendEventTo } from "../../webhooks/events";
import { environmentParam } from "./environment";
import { field } from "./forms";
import { DeleteEndpointPage, NewSecretPage, RollSecretPage } from "./views/webhook-actions";
import { EndpointPage } from "./views/webhook-endpoint";

const ONE = "/dashboard/:environment/webhooks/:endpoint_id";
/** Delivery attempts per page of an endpoint's history. */
const ATTEMPTS_PAGE = 50;
const ATTEMPT_ID = /^att_[0-9A-Za-z]{1,64}$/;

const NOTICES: Record<string, string> = {
  enabled: "Webhook endpoint enabled.",
  resent: "The event is queued for delivery to this endpoint.",
};

function endpointNotFound(): ApiError {
  return new ApiError("NOT_FOUND_ERROR", "There is no such webhook endpoint in this environment.");
}

interface Target {
  environment: Environment;
  endpoint: ProductEndpoint;
  /** Where the endpoint's changes are made, by whom, when: what the shared layers take. */
  change: EndpointChange & { scope: EndpointScope };
  /** The endpoint's page. */
  page: string;
}

/**
 * The page's environment, once the signed-in user may take `action` there, and the endpoint of
 * the URL if it is the partner's in that environment (whichever product it serves); 404 for any
 * other.
 */
async function target(c: Context<AppEnv>, action: DashboardAction): Promise<Target> {
  const environment = environmentParam(c);
  authorize(c, action, environment);
  const { user } = c.get("session");
  const id = c.req.param("endpoint_id") ?? "";
  const endpoint = await findPartnerEndpoint(c.get("db"), user.partnerId, environment, id);
  if (!endpoint) throw endpointNotFound();
  const scope = { partnerId: user.partnerId, environment, merchantKey: endpoint.merchantKey };
  return {
    environment,
    endpoint,
    change: {
      scope,
      endpointId: endpoint.endpointId,
      actor: userActor(c, user),
      now: c.get("now")(),
    },
    page: `/dashboard/${environment}/webhooks/${endpoint.endpointId}`,
  };
}

export const webhookEndpointPageRoutes = new Hono<AppEnv>()
  .get(ONE, async (c) => {
    const before = c.req.query("before") ?? null;
    const { environment, endpoint } = await target(c, "webhooks.view");
    if (before !== null && !ATTEMPT_ID.test(before)) {
      throw new ApiError("NOT_FOUND_ERROR", "There is no such page of deliveries.");
    }
    const db = c.get("db");
    const [rows, products] = await Promise.all([
      readEndpointAttempts(db, endpoint.endpointId, before, ATTEMPTS_PAGE),
      productsOf(db, c.get("session").user.partnerId),
    ]);
    const attempts = rows.slice(0, ATTEMPTS_PAGE);
    const last = attempts.at(-1);
    const several = products.length > 1;
    return c.html(
      <EndpointPage
        session={c.get("session")}
        environment={environment}
        endpoint={endpoint}
        product={(several && products.find((p) => p.merchantKey === endpoint.merchantKey)) || null}
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

  .get(`${ONE}/roll`, async (c) => {
    const { environment, endpoint } = await target(c, "webhooks.roll_secret");
    return c.html(
      <RollSecretPage session={c.get("session")} environment={environment} endpoint={endpoint} />,
    );
  })

  .post(`${ONE}/roll`, async (c) => {
    const { environment, change } = await target(c, "webhooks.roll_secret");
    const overlap = await field(c, "previous");
    if (!isRollGrace(overlap)) {
      throw new ApiError("BAD_REQUEST_ERROR", "Choose how long the previous secret keeps signing.");
    }
    // The choices are values of the API's `previous_secret_expires_in`, checked as it checks them.
    const { previous_secret_expires_in: keepForSeconds = 0 } = parseRequest(
      schemas.RollWebhookEndpointSecretRequest,
      { previous_secret_expires_in: ROLL_GRACE[overlap] / 1000 },
    );
    const prepared = await prepareSecretRoll(c, { ...change, keepForSeconds });
    await prepared.commit();
    return c.html(
      <NewSecretPage
        session={c.get("session")}
        environment={environment}
        title="Secret rolled"
        endpoint={prepared.endpoint}
        previousUntil={prepared.endpoint.previous_secret_expires_at ?? ""}
        now={change.now}
      />,
    );
  })

  .get(`${ONE}/delete`, async (c) => {
    const { environment, endpoint } = await target(c, "webhooks.delete");
    return c.html(
      <DeleteEndpointPage
        session={c.get("session")}
        environment={environment}
        endpoint={endpoint}
      />,
    );
  })

  .post(`${ONE}/delete`, async (c) => {
    const { environment, change } = await target(c, "webhooks.delete");
    if (!(await deleteEndpoint(c.get("db"), change))) throw endpointNotFound();
    return c.redirect(`/dashboard/${environment}/webhooks?notice=deleted`, 303);
  })

  .post(`${ONE}/enable`, async (c) => {
    const { change, page } = await target(c, "webhooks.enable");
    if (!(await enableEndpoint(c.get("db"), change))) throw endpointNotFound();
    return c.redirect(`${page}?notice=enabled`, 303);
  })

  .post(`${ONE}/resend`, async (c) => {
    const { change, page } = await target(c, "webhooks.resend");
    const eventId = await field(c, "event_id");
    if (eventId === "") throw new ApiError("BAD_REQUEST_ERROR", "Enter the id of an event.");
    await resendEventTo(c, { ...change, eventId });
    return c.redirect(`${page}?notice=resent`, 303);
  });
