// /v2/events: statement events of the caller's product, newest first, kept 30 days; their
// delivery attempts, and re-sending one to webhook endpoints.

import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { enqueueDeliveries } from "../app/delivery-queue";
import { ApiError, invalidRequest } from "../app/errors";
import { renderEvent } from "../app/event-view";
import { respond } from "../app/respond";
import { readScopeOf } from "../db/customer-queries";
import { type EventRow, findEvent, readEventPage } from "../db/events";
import type { ReadScope } from "../db/queries";
import { readAttemptPage, resendEvent } from "../db/webhook-deliveries";
import { findEndpoint } from "../db/webhook-endpoints";
import { toDeliveryAttempt } from "../domain/delivery-attempt";
import { EVENT_RETENTION_MS } from "../domain/event";
import { decodeEventPageToken, encodeEventPageToken } from "../domain/page-token";
import { idPage, parseIdPage, parseLimit } from "./list-params";
import { readRequest } from "./request-body";
import { endpointNotFound } from "./webhook-endpoints";

const ONE = "/v2/events/:event_id";

function scopeOf(c: Context<AppEnv>): ReadScope {
  return readScopeOf(c.get("caller"), c.get("merchantKey"));
}

/** The oldest creation time still kept. */
function retainedSince(c: Context<AppEnv>): string {
  return new Date(c.get("now")().getTime() - EVENT_RETENTION_MS).toISOString();
}

function eventNotFound(eventId: string): ApiError {
  return new ApiError("NOT_FOUND_ERROR", `No such event: ${JSON.stringify(eventId.slice(0, 64))}`, {
    param: "event_id",
  });
}

async function eventOr404(c: Context<AppEnv>, eventId: string): Promise<EventRow> {
  const row = await findEvent(c.get("db"), scopeOf(c), retainedSince(c), eventId);
  if (!row) throw eventNotFound(eventId);
  return row;
}

/** The moment events are read: one `as_of` and one link expiry for the whole response. */
function readMoment(c: Context<AppEnv>) {
  return { signer: c.get("signer"), origin: new URL(c.req.url).origin, now: c.get("now")() };
}

export const eventRoutes = new Hono<AppEnv>()
  .get("/v2/events", async (c) => {
    const limit = parseLimit(c.req.queries("limit"));
    const scope = scopeOf(c);
    const values = c.req.queries("starting_after");
    let after = null;
    if (values !== undefined) {
      const [token] = values;
      after =
        values.length === 1 && token
          ? await decodeEventPageToken(c.get("signer"), scope, token)
          : null;
      if (!after) {
        throw invalidRequest(
          ["starting_after must be a next_page_token returned by this endpoint"],
          "starting_after",
        );
      }
    }
    const rows = await readEventPage(c.get("db"), scope, retainedSince(c), after, limit);
    const page = rows.slice(0, limit);
    const moment = readMoment(c);
    // Canonical events: the bundle reshapes the whole list, statements inside included, once.
    const data = await Promise.all(page.map((row) => renderEvent(row, moment)));
    const last = page.at(-1);
    const body: { data: unknown[]; has_more: boolean; next_page_token?: string } = {
      data,
      has_more: rows.length > limit && last !== undefined,
    };
    if (body.has_more && last) {
      body.next_page_token = await encodeEventPageToken(c.get("signer"), scope, {
        createdAt: last.createdAt,
        eventId: last.eventId,
      });
    }
    return respond(c, "EventList", body);
  })

  .get(ONE, async (c) => {
    const row = await eventOr404(c, c.req.param("event_id"));
    return respond(c, "Event", await renderEvent(row, readMoment(c)));
  })

  .get(`${ONE}/delivery_attempts`, async (c) => {
    const { limit, after } = parseIdPage((name) => c.req.queries(name));
    const row = await eventOr404(c, c.req.param("event_id"));
    const rows = await readAttemptPage(c.get("db"), row.eventId, after, limit);
    return respond(c, "DeliveryAttemptList", idPage(rows, limit, toDeliveryAttempt));
  })

  .post(`${ONE}/resend`, async (c) => {
    const body = await readRequest(c, "ResendEventRequest", { allowEmpty: true });
    const row = await eventOr404(c, c.req.param("event_id"));
    const scope = scopeOf(c);
    const db = c.get("db");
    const endpointId = body.webhook_endpoint_id ?? null;
    if (endpointId !== null) {
      const endpoint = await findEndpoint(db, scope, endpointId);
      if (!endpoint) throw endpointNotFound(endpointId);
      if (endpoint.status !== "enabled") {
        throw invalidRequest(
          ["This webhook endpoint is disabled: enable it before re-sending events to it."],
          "webhook_endpoint_id",
        );
      }
    }
    const deliveries = await resendEvent(db, scope, row.eventId, endpointId, c.get("now")());
    await enqueueDeliveries(c.env.WEBHOOK_DELIVERIES, deliveries, c.get("requestId"));
    const result = {
      event_id: row.eventId,
      webhook_endpoint_ids: deliveries.map((d) => d.endpoint_id),
    };
    // Stored after the fact by the idempotency layer: a crash in between would only queue the
    // event once more, which at-least-once delivery allows.
    return respond(c, "EventResend", result, 202);
  });
