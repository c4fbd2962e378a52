// Wiring only: the request context and CORS around everything, the surfaces outside the partner
// API, and the partner API, whose every route runs the /v2 pipeline (its order is written once, in
// `partnerRoute`, app/route.ts). The bundle is an argument, so a test can serve another.
import { Hono } from "hono";
import type { AppEnv } from "./app/context";
import { corsFor } from "./app/cors";
import { routeNotFound } from "./app/errors";
import { operatorApi } from "./app/operator-api";
import { requestContext } from "./app/request-context";
import { renderError } from "./app/respond";
import { partnerRoute } from "./app/route";
import { createVersionUsage, type VersionUsageOptions } from "./app/version-usage";
import { bundle } from "./bundle";
import { queueConsumers } from "./consumers";
import { dashboardRoutes } from "./dashboard";
import { fileRoutes } from "./documents";
import { withGameDay } from "./gameday";
import { runMaintenance } from "./jobs";
import { OPERATOR_ROUTES } from "./operator-routes";
import { PAGES } from "./pages";
import { docsRoutes } from "./reference";
import { createRequestLogSender, requestRecorder } from "./request-logs";
import { ROUTES } from "./routes";
import type { VersionBundle } from "./versioning";

export interface AppOptions extends VersionUsageOptions {
  /** How long a request log record waits for others to share its message (ms; default 50). */
  requestLogGatherMs?: number;
}

/**
 * The whole service, serving `bundle`. One app per isolate: it holds the usage counters and the
 * request log's outgoing records.
 */
export function createApp(bundle: VersionBundle, options: AppOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Every /v2 request of a caller that authenticates is recorded after its response.
  const record = requestRecorder(createRequestLogSender(options.requestLogGatherMs));

  app.use("*", requestContext(bundle, createVersionUsage(options), record));
  app.use("/v2/*", (c, next) => corsFor(c.env)(c, next));

  // The surfaces outside the partner API: the reference and the signed document links (open to
  // all), the operator API (each feature's operator routes, behind the operator's token) and the
  // dashboard (its own sessions).
  app.route("/", docsRoutes(ROUTES));
  app.route("/", fileRoutes);
  app.route("/", operatorApi(OPERATOR_ROUTES));
  app.route("/", dashboardRoutes(PAGES));

  // The partner API: each route runs the whole pipeline in one handler (`partnerRoute`); the
  // request context records the response for the request log. Any other /v2 request goes
  // through the same pipeline without a route, and is answered 404.
  for (const route of ROUTES) app.on(route.method, route.path, partnerRoute(route));
  app.all("/v2/*", partnerRoute(null));

  app.notFound((c) => renderError(routeNotFound(c.req.method, c.req.path), c));
  app.onError(renderError);
  return app;
}

/** The service's app, serving the service bundle. */
export const app = createApp(bundle);

// HTTP requests; the queues (request logs, webhook deliveries, statement renders); the five-minute
// maintenance cron. The game day's fault seams wrap them in a local run that asks for them, and
// only there (src/gameday/).
export default withGameDay({
  fetch: app.fetch,
  queue: queueConsumers(bundle),
  scheduled: runMaintenance,
}) satisfies ExportedHandler<AppEnv["Bindings"], unknown>;
