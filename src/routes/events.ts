// /v2/events: statement events of the caller's product, newest first, kept 30 days; their
// delivery attempts, and re-sending one to webhook endpoints.

import type { Context } from "hono";
import { Hono } from "hono";
import { keyActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { invalidRequest } from "../app/errors";
import { renderEvent, renderEvents } from "../app/event-view";
import { resendEventTo, retainedEvent, retainedSince } from "../app/events";
import { respond } from "../app/respond";
import { readScopeOf } from "../db/customer-queries";
import { readEventPage } from "../db/events";
import type { ReadScope } from "../db/queries";
import { readAttemptPage } from "../db/webhook-deliveries";
import { toDeliveryAttempt } from "../domain/delivery-attempt";
import { decodeEventPageToken, encodeEventPageToken } from "../domain/page-token";
import { idPage, parseIdPage, parseLimit } from "./list-params";
import { readRequest } from "./request-body";

const ONE = "/v2/events/:event_id";

function scopeOf(c: Context<AppEnv>): ReadScope {
  return readScopeOf(c.get("caller"), c.get("merchantKey"));
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
    const since = retainedSince(c.get("now")());
    const rows = await readEventPage(c.get("db"), scope, since, after, limit);
    const page = rows.slice(0, limit);
    const moment = readMoment(c);
    // Canonical events: the bundle reshapes the whole list, statements inside included, once.
    const data = await renderEvents(page, moment);
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
    const row = await retainedEvent(c, scopeOf(c), c.req.param("event_id"));
    return respond(c, "Event", await renderEvent(row, readMoment(c)));
  })

  .get(`${ONE}/delivery_attempts`, async (c) => {
    const { limit, after } = parseIdPage((name) => c.req.queries(name));
    const row = await retainedEvent(c, scopeOf(c), c.req.param("event_id"));
    const rows = await readAttemptPage(c.get("db"), row.eventId, after, limit);
    return respond(c, "DeliveryAttemptList", idPage(rows, limit, toDeliveryAttempt));
  })

  .post(`${ONE}/resend`, async (c) => {
    const body = await readRequest(c, "ResendEventRequest", { allowEmpty: true });
    const resent = await resendEventTo(c, {
      scope: scopeOf(c),
      eventId: c.req.param("event_id"),
      endpointId: body.webhook_endpoint_id ?? null,
      actor: keyActor(c),
    });
    const result = { event_id: resent.eventId, webhook_endpoint_ids: resent.endpointIds };
    // Stored after the fact by the idempotency layer: a crash in between would only queue the
    // event once more, which at-least-once delivery allows.
    return respond(c, "EventResend", result, 202);
  });
