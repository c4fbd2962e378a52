// /v2/events: statement events of the caller's product, newest first, kept 30 days, and the event
// types of the request's version (an event's delivery attempts and its re-sending are
// src/webhook-deliveries/routes.ts).
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { invalidRequest } from "../app/errors";
import { readScope } from "../app/pipeline";
import { pageParameters, parseLimit, type QueryDefinition, startingAfterToken } from "../app/query";
import { requestOrigin } from "../app/request-context";
import { route } from "../app/route";
import { decodeEventPageToken, encodeEventPageToken } from "../domain/page-token";
import { Event, EventList, EventTypeList } from "./api-schemas";
import { readEventPage } from "./event-store";
import { canonicalTypesFor, eventTypesOf, unknownEventTypes } from "./event-types";
import { renderEvent, renderEvents } from "./event-view";
import { retainedEvent, retainedSince } from "./retention";

/** The moment events are read: one `as_of` and one link expiry for the whole response. */
function readMoment(c: Context<AppEnv>) {
  return {
    signer: c.get("signer"),
    origin: requestOrigin(c),
    now: c.get("now")(),
    shard: c.get("shard"),
  };
}

const foreignCursor = () =>
  invalidRequest(
    ["starting_after must be a next_page_token returned by this endpoint"],
    "starting_after",
  );

/** The event types a list is filtered to, as sent: `type=a,b` or `type=a&type=b`. */
function typesAsked(values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const types = values.flatMap((value) => value.split(",")).map((type) => type.trim());
  if (types.some((type) => type === "") || types.length > 100) {
    throw invalidRequest(["type must name one or more event types, separated by commas"], "type");
  }
  return [...new Set(types)];
}

interface EventListQuery {
  limit: number;
  startingAfter: string | undefined;
  types: string[] | undefined;
}

/**
 * `limit`, the signed cursor of the previous page (checked against the caller's scope), and the
 * event types to list.
 */
const eventListQuery: QueryDefinition<EventListQuery> = {
  parameters: [
    ...pageParameters("token"),
    {
      name: "type",
      in: "query",
      required: false,
      description:
        "Only events of these types, as this API version names them (`GET /v2/event_types`): " +
        "one, or several separated by commas (`statement.created,statement.hidden`).",
      schema: { type: "string" },
    },
  ],
  parse: (query) => ({
    limit: parseLimit(query("limit")),
    startingAfter: startingAfterToken(query, foreignCursor),
    types: typesAsked(query("type")),
  }),
};

/** The canonical types of the types asked for in the request's version; 400 naming the unknown. */
function canonicalTypesAsked(c: Context<AppEnv>, types: string[] | undefined) {
  if (types === undefined) return null;
  const bundle = c.get("bundle");
  const version = c.get("version");
  const unknown = unknownEventTypes(bundle, version, types);
  if (unknown.length > 0) {
    const known = eventTypesOf(bundle, version).map((entry) => entry.type);
    throw invalidRequest(
      unknown.map(
        (type) =>
          `type: ${JSON.stringify(type.slice(0, 64))} is not an event type of API version ` +
          `${version}; its types are ${known.join(", ")}`,
      ),
      "type",
    );
  }
  return canonicalTypesFor(bundle, version, types);
}

export const listEvents = route({
  method: "GET",
  path: "/v2/events",
  summary: "List events",
  operationId: "listEvents",
  tag: "Events",
  errors: [],
  // Events carry statements, so they need ACCOUNT_READ, and they belong to one product, so the
  // merchant-key rules apply (as to every route of events and webhook endpoints).
  scope: "ACCOUNT_READ",
  customerScoped: true,
  query: eventListQuery,
  response: { status: 200, schema: EventList },
  async handler(c, { query: { limit, startingAfter, types }, reply }) {
    const scope = readScope(c);
    const only = canonicalTypesAsked(c, types);
    let after = null;
    if (startingAfter !== undefined) {
      after = await decodeEventPageToken(c.get("signer"), scope, startingAfter);
      if (!after) throw foreignCursor();
    }
    const since = retainedSince(c.get("now")());
    const rows = await readEventPage(c.get("db"), scope, since, after, limit, only);
    const page = rows.slice(0, limit);
    // Canonical events: the bundle reshapes the whole list, statements inside included, once.
    const data = await renderEvents(page, readMoment(c));
    const last = page.at(-1);
    const body: { data: typeof data; has_more: boolean; next_page_token?: string } = {
      data,
      has_more: rows.length > limit && last !== undefined,
    };
    if (body.has_more && last) {
      body.next_page_token = await encodeEventPageToken(
        c.get("signer"),
        scope,
        { createdAt: last.createdAt, eventId: last.eventId },
        c.get("shard"),
      );
    }
    return reply(body);
  },
});

export const retrieveEvent = route({
  method: "GET",
  path: "/v2/events/:event_id",
  summary: "Retrieve an event",
  operationId: "retrieveEvent",
  tag: "Events",
  errors: [{ status: 404, types: ["NOT_FOUND_ERROR"] }],
  scope: "ACCOUNT_READ",
  customerScoped: true,
  response: { status: 200, schema: Event },
  async handler(c, { reply }) {
    const row = await retainedEvent(c, readScope(c), c.req.param("event_id"));
    return reply(await renderEvent(row, readMoment(c)));
  },
});

export const listEventTypes = route({
  method: "GET",
  path: "/v2/event_types",
  summary: "List event types",
  operationId: "listEventTypes",
  tag: "Event types",
  errors: [],
  scope: "ACCOUNT_READ",
  response: { status: 200, schema: EventTypeList },
  async handler(c, { reply }) {
    // The catalogue of the request's version: what its endpoints may take and its lists filter.
    const data = eventTypesOf(c.get("bundle"), c.get("version")).map((entry) => ({ ...entry }));
    return reply({ data, has_more: false });
  },
});
