// /dashboard/{environment}/webhooks/{webhook_endpoint_id}: one endpoint of the partner, what it
// is, its actions, and its recent deliveries (every attempt, newest first), each event
// re-sendable; enabling it and re-sending an event. The rules, writes and audit rows are the API's
// own (webhook-endpoints/endpoints.ts, webhook-deliveries/resend.ts). Rolling its secret and
// deleting it: endpoint-actions.tsx.
import type { Context } from "hono";
import { Hono } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { field } from "../dashboard/forms";
import { CsrfField, Time } from "../dashboard/layout";
import { allow, type DashboardPage, may } from "../dashboard/page";
import { productsOf } from "../db/partners";
import type { Environment } from "../domain/environment";
import type { Product } from "../domain/product";
import type {
  EndpointFields,
  EndpointReadContext,
  ProductEndpoint,
} from "../domain/webhook-endpoint";
import { type EndpointAttempt, readEndpointAttempts, resendEventTo } from "../webhook-deliveries";
import {
  deliveryConfig,
  type EndpointChange,
  type EndpointScope,
  enableWithinBudget,
  findPartnerEndpoint,
} from "../webhook-endpoints";
import { Deliveries, ResendForm } from "./deliveries-view";
import { EventTypes, HealthDetails, prefilledInstant, RecoverForm } from "./endpoint-health-view";

/** Delivery attempts per page of an endpoint's history. */
const ATTEMPTS_PAGE = 50;
const ATTEMPT_ID = /^att_[0-9A-Za-z]{1,64}$/;

const NOTICES: Record<string, string> = {
  enabled: "Webhook endpoint enabled.",
  resent: "The event is queued for delivery to this endpoint.",
  recovered: "The events it missed are queued for delivery, in the order they happened.",
  "recovered-none": "It has missed no event of its types in that window: nothing to queue.",
};

export function endpointNotFound(): ApiError {
  return new ApiError("NOT_FOUND_ERROR", "There is no such webhook endpoint in this environment.");
}

interface PageEndpoint {
  endpoint: ProductEndpoint;
  /** Where the endpoint's changes are made, by whom, when: what the shared layers take. */
  change: EndpointChange & { scope: EndpointScope };
  /** The endpoint's page. */
  page: string;
}

/**
 * The endpoint of the page's URL if it is the partner's in the page's environment (whichever
 * product it serves); 404 for any other.
 */
export async function endpointOf(c: Context<AppEnv>): Promise<PageEndpoint> {
  const { environment } = c.var;
  const { user } = c.var.session;
  const id = c.req.param("webhook_endpoint_id") ?? "";
  const now = c.get("now")();
  const endpoint = await findPartnerEndpoint(c.get("db"), user.partnerId, environment, id, now);
  if (!endpoint) throw endpointNotFound();
  const scope = { partnerId: user.partnerId, environment, merchantKey: endpoint.merchantKey };
  return {
    endpoint,
    change: {
      scope,
      endpointId: endpoint.endpointId,
      actor: userActor(c, user),
      now,
    },
    page: `/dashboard/${environment}/webhooks/${endpoint.endpointId}`,
  };
}

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

interface EndpointViewProps {
  environment: Environment;
  endpoint: ProductEndpoint;
  /** Named when the partner has several products. */
  product: Product | null;
  attempts: EndpointAttempt[];
  /** The `before` of the next page of older attempts, if any. */
  olderBefore: string | null;
  can: { roll: boolean; delete: boolean; enable: boolean; resend: boolean };
  read: EndpointReadContext;
  /** The recovery form's start: when its failures began, right after an enable. */
  recoverSince: string | null;
  perSecond: number;
}

function Actions(props: EndpointViewProps) {
  const { endpoint, environment, can } = props;
  const base = `/dashboard/${environment}/webhooks/${endpoint.endpointId}`;
  return (
    <>
      {endpoint.status === "disabled" && can.enable && (
        <form method="post" action={`${base}/enable`} class="stack">
          <CsrfField />
          <p>It gets no event until enabled. Then recover the events it missed.</p>
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

function EndpointView(props: EndpointViewProps) {
  const { endpoint, environment } = props;
  const { now } = props.read;
  const previousUntil = endpoint.previousSecretExpiresAt;
  return (
    <>
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
        <dt>Event types</dt>
        <dd>
          <EventTypes endpoint={endpoint} />
        </dd>
        <dt>Status</dt>
        <dd>
          <EndpointStatus endpoint={endpoint} />
        </dd>
        <HealthDetails endpoint={endpoint} read={props.read} />
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
      {props.can.resend && props.recoverSince !== null && (
        <RecoverForm
          environment={environment}
          endpoint={endpoint}
          since={props.recoverSince}
          afterEnable={true}
          perSecond={props.perSecond}
        />
      )}
      <Deliveries {...props} />
      <ResendForm {...props} />
      {props.can.resend && props.recoverSince === null && (
        <RecoverForm
          environment={environment}
          endpoint={endpoint}
          since={new Date(now.getTime() - 24 * 3600_000).toISOString()}
          afterEnable={false}
          perSecond={props.perSecond}
        />
      )}
      <p>
        <a href={`/dashboard/${environment}/webhooks`}>Back to the webhook endpoints</a>
      </p>
    </>
  );
}

export const endpointPage: DashboardPage = {
  routes: new Hono<AppEnv>()
    .get("/:environment/webhooks/:webhook_endpoint_id", allow("webhooks.view"), async (c) => {
      const { environment } = c.var;
      const before = c.req.query("before") ?? null;
      const { endpoint } = await endpointOf(c);
      const config = deliveryConfig(c.env);
      if (before !== null && !ATTEMPT_ID.test(before)) {
        throw new ApiError("NOT_FOUND_ERROR", "There is no such page of deliveries.");
      }
      const db = c.get("db");
      const [rows, products] = await Promise.all([
        readEndpointAttempts(db, endpoint.endpointId, before, ATTEMPTS_PAGE),
        productsOf(db, c.var.session.user.partnerId),
      ]);
      const attempts = rows.slice(0, ATTEMPTS_PAGE);
      const last = attempts.at(-1);
      const several = products.length > 1;
      return c.render(
        <EndpointView
          environment={environment}
          endpoint={endpoint}
          product={
            (several && products.find((p) => p.merchantKey === endpoint.merchantKey)) || null
          }
          attempts={attempts}
          olderBefore={rows.length > ATTEMPTS_PAGE && last ? last.attemptId : null}
          can={{
            roll: may(c, "webhooks.roll_secret", environment),
            delete: may(c, "webhooks.delete", environment),
            enable: may(c, "webhooks.enable", environment),
            resend: may(c, "webhooks.resend", environment),
          }}
          read={{ now: c.get("now")(), disableAfterSeconds: config.disableAfterSeconds }}
          recoverSince={prefilledInstant(c.req.query("recover_since"))}
          perSecond={config.maxPerSecond}
        />,
        {
          title: "Webhook endpoint",
          section: "webhooks",
          notice: NOTICES[c.req.query("notice") ?? ""],
        },
      );
    })

    .post(
      "/:environment/webhooks/:webhook_endpoint_id/enable",
      allow("webhooks.enable"),
      async (c) => {
        const { endpoint, change, page } = await endpointOf(c);
        await enableWithinBudget(c, change);
        // Recovery is offered from when its failures began: the events of the disable window
        // before it was disabled were given up with it, and those since were never sent.
        const since = endpoint.failingSince ?? endpoint.disabledAt;
        if (endpoint.status !== "disabled" || since === null) {
          return c.redirect(`${page}?notice=enabled`, 303);
        }
        return c.redirect(
          `${page}?notice=enabled&recover_since=${encodeURIComponent(since)}#recover-heading`,
          303,
        );
      },
    )

    .post(
      "/:environment/webhooks/:webhook_endpoint_id/resend",
      allow("webhooks.resend"),
      async (c) => {
        const { change, page } = await endpointOf(c);
        const eventId = await field(c, "event_id");
        if (eventId === "") throw new ApiError("BAD_REQUEST_ERROR", "Enter the id of an event.");
        await resendEventTo(c, { ...change, eventId });
        return c.redirect(`${page}?notice=resent`, 303);
      },
    ),
};
