// A /v2 route, declared once beside its handler: method, path, scope, customer scoping, query
// parameters, request body, response and, for a page read with the key lookup, its read plan. The
// route list (src/routes.ts) is the list of these: the app mounts them, the reference
// documents them, the canonical model and the version modules name them.
import type { Context, MiddlewareHandler } from "hono";
import type { ParamKeys } from "hono/types";
import type { BodyOf, RequestRef, ResponseRef } from "../canonical/schemas";
import type { ReadAhead } from "../db/key-lookup";
import { ENVIRONMENTS, type Environment } from "../domain/environment";
import type { Scope } from "../domain/scopes";
import type { JsonValue } from "../versioning";
import type { AppEnv } from "./context";
import { ApiError, type ErrorType, routeNotFound } from "./errors";
import { merchantKeyHeader } from "./headers";
import { idempotent } from "./idempotency";
import {
  authenticate,
  enforceRateLimits,
  pauseWritesWhileMoving,
  requireRouteInVersion,
  requireScope,
  resolveProduct,
  resolveVersion,
} from "./pipeline";
import type { QueryDefinition } from "./query";
import { type ReadRequestOptions, readRequest } from "./request-body";
import { renderError, shape } from "./respond";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** A route's path parameters, by name. */
export type PathParams<Path extends string> = { [Name in ParamKeys<Path>]: string };

/** The success a served route answers with. */
export interface Success {
  status: 200 | 201 | 202 | 204;
  /** The body's schema; none for a 204. */
  schema?: ResponseRef;
}

/** The request body a route reads before its handler runs. */
export interface RequestBody<Ref extends RequestRef = RequestRef> {
  schema: Ref;
  /** False: an empty body reads as `{}`. */
  required: boolean;
  /** The route's own refusal of the canonical body, before its schema checks it. */
  refuse?: ReadRequestOptions["refuse"];
}

/** A response already shaped for the request's version: what a handler returns. */
export interface Reply {
  readonly status: Success["status"];
  /** The body in the request's version; null for a 204. */
  readonly body: JsonValue | null;
}

/** What a plan reads of the request beyond its query and path. */
export interface PlanRequest {
  /** The product the merchant-key header names, as sent: checked only after authentication. */
  merchantKey: string | undefined;
}

/** What the route hands its handler: everything read and checked before it runs. */
export interface HandlerInput<Query, Reads, Body, Out> {
  /** The query parameters, read once (see `QueryDefinition`). */
  query: Query;
  /** What the read plan read with the key lookup, once the caller is known. */
  reads: Reads;
  /** The request body, brought forward to the canonical shape and validated. */
  body: Body;
  /** Shapes a canonical body for the request's version, with the route's status. */
  reply(body: Out): Reply;
}

/** A /v2 route as the app, the reference and the canonical model read it. */
export interface Route<M extends Method = Method, Path extends string = string> {
  method: M;
  /** The router's path pattern: `/v2/customers/:customer_id`. */
  path: Path;
  /** The reference's one-line summary. */
  summary: string;
  /** The reference's operationId (and the clients' method name): a verb-first camelCase id. */
  operationId: string;
  /** The reference's section the operation is listed in. */
  tag: string;
  /** The scope required, or null when a valid key is enough. */
  scope: Scope | null;
  /** Reads one product's customers, so the merchant-key header rules apply. */
  customerScoped: boolean;
  /** The errors the route's own checks answer, beyond the pipeline's; the reference lists them. */
  errors: readonly RouteError[];
  /**
   * The environments whose keys may call it. Elsewhere it answers exactly as an unknown route, and
   * that environment's reference leaves it out.
   */
  environments: readonly Environment[];
  /** False for a route whose behaviour the specification does not show: it answers 501. */
  implemented: boolean;
  query?: QueryDefinition<unknown>;
  body?: RequestBody;
  success?: Success;
  /** Plans the route's reads from the request alone, before authentication. */
  plan?: (query: never, params: never, request: never) => ReadAhead<unknown>;
  /** The handler, with everything the declaration asks for read first. */
  handle: (c: Context<AppEnv>) => Response | Promise<Response>;
}

/** An error a route answers of itself: its status, and the error types it carries. */
export interface RouteError {
  status: 404 | 409;
  types: readonly ErrorType[];
}

interface Declaration<M extends Method, Path extends string> {
  method: M;
  path: Path;
  summary: string;
  operationId: string;
  tag: string;
  scope: Scope | null;
  customerScoped?: boolean;
  /** Both environments unless it says otherwise (the sandbox's simulations). */
  environments?: readonly Environment[];
}

/**
 * A served route. `query` is read once (before authentication when the route has a plan), `plan`
 * turns it into reads that ride in the key lookup's own statement, `body` is read before the
 * handler, and the handler answers with `reply(canonicalBody)`, which the route's `response`
 * shapes for the request's version.
 */
export function route<
  const M extends Method,
  const Path extends string,
  Query = undefined,
  Reads = undefined,
  Body extends RequestRef | undefined = undefined,
  Response extends Success = Success,
>(
  declaration: Declaration<M, Path> & {
    query?: QueryDefinition<Query>;
    plan?: (query: Query, params: PathParams<Path>, request: PlanRequest) => ReadAhead<Reads>;
    body?: RequestBody<Exclude<Body, undefined>>;
    /** What the handler's own checks answer (none: `[]`). */
    errors: readonly RouteError[];
    response: Response;
    handler: (
      c: Context<AppEnv, Path>,
      input: HandlerInput<
        Query,
        Reads,
        Body extends RequestRef ? BodyOf<Body> : undefined,
        Response["schema"] extends ResponseRef ? BodyOf<Response["schema"]> : void
      >,
    ) => Promise<Reply>;
  },
): Route<M, Path> {
  const { query, plan, body, response, handler } = declaration;
  const reply = (c: Context<AppEnv>) => (canonical: JsonValue) => ({
    status: response.status,
    // A body goes with a 200, 201 or 202 (so the status has content); a 204 has none.
    body: response.schema
      ? shape(c, response.schema.name, canonical, response.status as 200)
      : null,
  });
  return {
    method: declaration.method,
    path: declaration.path,
    summary: declaration.summary,
    operationId: declaration.operationId,
    tag: declaration.tag,
    scope: declaration.scope,
    errors: declaration.errors,
    customerScoped: declaration.customerScoped ?? false,
    environments: declaration.environments ?? ENVIRONMENTS,
    implemented: true,
    // The route list keeps the definition without its type (the reference reads its parameters,
    // the plan its value); `handle` below reads it with its type.
    ...(query ? { query: query as QueryDefinition<unknown> } : {}),
    ...(body ? { body } : {}),
    success: response,
    ...(plan ? { plan } : {}),
    handle: async (c) => {
      const input = {
        query: query ? queryOf(c, query) : undefined,
        reads: plan ? c.get("readAhead").read(c.get("readAheadResults")) : undefined,
        body: body
          ? await readRequest(c, body.schema, {
              allowEmpty: !body.required,
              ...(body.refuse ? { refuse: body.refuse } : {}),
            })
          : undefined,
        reply: reply(c),
      };
      // Mounted at `path`, so its params are Path's; `input` is read from the same declaration
      // the handler's parameter type is computed from, which TypeScript cannot relate.
      const answer = await handler(c as Context<AppEnv, Path>, input as never);
      if (answer.body === null) return c.body(null, answer.status);
      // A 204 cannot carry a body (the Response constructor refuses one as well).
      if (answer.status === 204) throw new TypeError("A 204 response cannot have a body.");
      return c.json(answer.body, answer.status);
    },
  };
}

/** A route the specification names without showing its behaviour: 501 after the pipeline. */
export function notImplemented<const M extends Method, const Path extends string>(
  declaration: Declaration<M, Path>,
): Route<M, Path> {
  const shown = `${declaration.method} ${declaration.path.replace(/:(\w+)/g, "{$1}")}`;
  return {
    ...declaration,
    customerScoped: declaration.customerScoped ?? false,
    errors: [],
    environments: declaration.environments ?? ENVIRONMENTS,
    implemented: false,
    handle: () => {
      throw new ApiError("NOT_IMPLEMENTED_ERROR", `${shown} is not available in this service.`);
    },
  };
}

/**
 * The route's query, read once: by its plan before authentication, or here. A malformed
 * parameter is refused now, after the pipeline, with the 400 its definition gives.
 */
function queryOf<Query>(c: Context<AppEnv>, definition: QueryDefinition<Query>): Query {
  const read = readQuery(c, definition);
  if (read instanceof ApiError) throw read;
  return read;
}

function readQuery<Query>(c: Context<AppEnv>, definition: QueryDefinition<Query>) {
  // One route per request: a query already read was read by this same definition.
  let read = c.get("query") as Query | ApiError | undefined;
  if (read === undefined) {
    try {
      // The query string is parsed once for every parameter the definition reads.
      const all = c.req.queries();
      read = definition.parse((name) => all[name]);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      read = err;
    }
    c.set("query", read);
  }
  return read;
}

/**
 * Plans a route's reads from the request alone, before authentication, so that they are the key
 * lookup itself (one D1 round trip, and nothing read for a key that is not live). Nothing read is
 * used before the handler has checked the caller, the product and whatever the plan's reads
 * depend on. A request whose query is malformed plans nothing: it is authenticated as usual, then
 * refused with its 400.
 */
function planReads(c: Context<AppEnv>, route: Route): void {
  const { plan, query } = route;
  if (!plan || !query) return;
  const read = readQuery(c, query);
  if (!(read instanceof ApiError)) {
    const request: PlanRequest = { merchantKey: c.req.header(merchantKeyHeader(c.env)) };
    // The plan was declared with this route's query type, and `read` is that definition's value.
    const planned = (plan as (q: unknown, p: unknown, r: PlanRequest) => ReadAhead)(
      read,
      c.req.param(),
      request,
    );
    c.set("readAhead", planned);
  }
}

/**
 * The /v2 pipeline of a route, in one handler, and the one place its order is written: the steps
 * below run top to bottom, each throwing the error it answers. Without a route, the pipeline of
 * any other /v2 request: authenticated and versioned, then 404.
 */
export function partnerRoute(route: Route | null): MiddlewareHandler<AppEnv> {
  // Every write takes an Idempotency-Key: a POST, a PUT and a DELETE alike.
  const idempotency = route !== null && route.method !== "GET" && route.implemented;
  return async (c) => {
    // Reads planned from the request alone, so that they ride in the key lookup's statement.
    if (route) planReads(c, route);
    // On the shard the key names, which becomes the request's database.
    await authenticate(c);
    resolveVersion(c);
    await enforceRateLimits(c);
    // While the partner's data moves to another shard.
    pauseWritesWhileMoving(c);
    if (!route) throw routeNotFound(c.req.method, c.req.path);
    // In that version and for the key's environment, or answered exactly as an unknown route.
    requireRouteInVersion(c, route);
    if (route.scope) requireScope(c, route.scope);
    if (route.customerScoped) resolveProduct(c);
    // The handler builds the canonical body and `reply` reshapes it for the request's version.
    if (!idempotency) return route.handle(c);
    // The idempotency step wraps the handler and reads its answer, errors rendered included, as
    // a middleware reads what the handlers after it answered.
    return (
      (await idempotent(c, async () => {
        c.res = await answer(c, () => route.handle(c));
      })) ?? undefined
    );
  };
}

/** What `handle` answers, a thrown error rendered as `app.onError` renders it. */
async function answer(
  c: Context<AppEnv>,
  handle: () => Response | Promise<Response>,
): Promise<Response> {
  try {
    return await handle();
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    c.error = err;
    return renderError(err, c);
  }
}
