// Wiring only. A partner request runs: request context → CORS → authenticate → resolve version →
// scope → product → handler (canonical model) → version modules reshape the body → response.
import { Hono } from "hono";
import type { AppEnv } from "./app/context";
import { corsFor } from "./app/cors";
import { ApiError } from "./app/errors";
import {
  authenticate,
  enforceKeyRateLimit,
  requireScope,
  resolveProduct,
  resolveVersion,
} from "./app/pipeline";
import { requestContext } from "./app/request-context";
import { renderError } from "./app/respond";
import { ROUTES } from "./app/route-table";
import { securityHeaders } from "./app/security-headers";
import { accountRoutes } from "./routes/accounts";
import { customerRoutes } from "./routes/customers";
import { docsRoutes } from "./routes/docs";
import { fileRoutes } from "./routes/files";
import { keyRoutes } from "./routes/keys";
import { operatorRoutes } from "./routes/operator";
import { planStatementPage, STATEMENTS_PATH, statementRoutes } from "./routes/statements";
import { unimplementedRoutes } from "./routes/unimplemented";

const app = new Hono<AppEnv>();

app.use("*", requestContext, securityHeaders);
app.use("/v2/*", (c, next) => corsFor(c.env)(c, next));

// Unauthenticated surfaces.
app.route("/", docsRoutes);
app.route("/", fileRoutes);
app.route("/", operatorRoutes);

// The partner API: every /v2 request is authenticated, then versioned, before anything else.
// A statements page plans its reads first, so that they are the key lookup's own statement.
app.get(STATEMENTS_PATH, planStatementPage);
app.use("/v2/*", authenticate, resolveVersion, enforceKeyRateLimit);
for (const spec of ROUTES) {
  if (spec.scope) app.on(spec.method, spec.path, requireScope(spec.scope));
  if (spec.customerScoped) app.on(spec.method, spec.path, resolveProduct);
}
app.route("/", statementRoutes);
app.route("/", accountRoutes);
app.route("/", customerRoutes);
app.route("/", keyRoutes);
app.route("/", unimplementedRoutes);
app.all("/v2/*", (c) => {
  throw new ApiError("NOT_FOUND_ERROR", `No route ${c.req.method} ${c.req.path}.`);
});

app.notFound((c) =>
  renderError(new ApiError("NOT_FOUND_ERROR", `No route ${c.req.method} ${c.req.path}.`), c),
);
app.onError(renderError);

export default app;
