// Wiring only. A partner request runs: request context → CORS → authenticate → resolve version →
// the route exists in that version → scope → product → handler (canonical model) → the version
// bundle reshapes the body → response. The bundle is an argument, so a test can serve another.
import { Hono } from "hono";
import type { AppEnv } from "./app/context";
import { corsFor } from "./app/cors";
import { routeNotFound } from "./app/errors";
import { idempotent } from "./app/idempotency";
import {
  authenticate,
  enforceKeyRateLimit,
  requireRouteInVersion,
  requireScope,
  resolveProduct,
  resolveVersion,
} from "./app/pipeline";
import { requestContext } from "./app/request-context";
import { renderError } from "./app/respond";
import { ROUTES } from "./app/route-table";
import { securityHeaders } from "./app/security-headers";
import { createVersionUsage, type VersionUsageOptions } from "./app/version-usage";
import { bundle } from "./canonical/bundle";
import type { DeliveryRef } from "./db/event-writes";
import { webhookConsumer } from "./jobs/deliver-webhooks";
import { runMaintenance } from "./jobs/maintenance";
import { accountRoutes } from "./routes/accounts";
import { customerRoutes } from "./routes/customers";
import { dashboardRoutes } from "./routes/dashboard";
import { docsRoutes } from "./routes/docs";
import { eventRoutes } from "./routes/events";
import { fileRoutes } from "./routes/files";
import { keyRoutes } from "./routes/keys";
import { operatorRoutes } from "./routes/operator";
import { planStatementPage, STATEMENTS_PATH, statementRoutes } from "./routes/statements";
import { unimplementedRoutes } from "./routes/unimplemented";
import { webhookEndpointRoutes } from "./routes/webhook-endpoints";
import type { VersionBundle } from "./versioning";

/** The whole service, serving `bundle`. One app per isolate: it holds the usage counters. */
export function createApp(bundle: VersionBundle, options: VersionUsageOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const versionUsage = createVersionUsage(options);

  app.use("*", async (c, next) => {
    c.set("bundle", bundle);
    c.set("versionUsage", versionUsage);
    await next();
  });
  app.use("*", requestContext, securityHeaders);
  app.use("/v2/*", (c, next) => corsFor(c.env)(c, next));

  // Unauthenticated surfaces.
  app.route("/", docsRoutes);
  app.route("/", fileRoutes);
  app.route("/", operatorRoutes);
  app.route("/", dashboardRoutes);

  // The partner API: every /v2 request is authenticated, then versioned, before anything else.
  // A statements page plans its reads first, so that they are the key lookup's own statement.
  app.get(STATEMENTS_PATH, planStatementPage);
  app.use("/v2/*", authenticate, resolveVersion, enforceKeyRateLimit);
  for (const spec of ROUTES) {
    // A route the version does not have answers exactly as an unknown route, before any check.
    app.on(spec.method, spec.path, requireRouteInVersion(spec));
    if (spec.scope) app.on(spec.method, spec.path, requireScope(spec.scope));
    if (spec.customerScoped) app.on(spec.method, spec.path, resolveProduct);
    if (spec.method === "POST" && spec.implemented) app.on("POST", spec.path, idempotent);
  }
  app.route("/", statementRoutes);
  app.route("/", accountRoutes);
  app.route("/", customerRoutes);
  app.route("/", keyRoutes);
  app.route("/", eventRoutes);
  app.route("/", webhookEndpointRoutes);
  app.route("/", unimplementedRoutes);
  app.all("/v2/*", (c) => {
    throw routeNotFound(c.req.method, c.req.path);
  });

  app.notFound((c) => renderError(routeNotFound(c.req.method, c.req.path), c));
  app.onError(renderError);
  return app;
}

/** The service's app, serving the service bundle. */
export const app = createApp(bundle);

// HTTP requests; webhook deliveries from the queue; the five-minute maintenance cron.
export default {
  fetch: app.fetch,
  queue: webhookConsumer(bundle),
  scheduled: runMaintenance,
} satisfies ExportedHandler<AppEnv["Bindings"], DeliveryRef>;
