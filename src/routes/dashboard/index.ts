// The partner dashboard under /dashboard: server-rendered pages for API keys, webhooks, the saved
// API version, the team and the audit log, behind passwordless sign-in. Every response carries the
// security headers; every form post is checked for its origin and, once signed in, its CSRF token.
import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../../app/context";
import { dashboardHeaders, sameOriginForms } from "../../app/dashboard/security";
import { isCsrfTokenOf, loadSession } from "../../app/dashboard/session";
import { ApiError } from "../../app/errors";
import { assetRoutes } from "./assets";
import { auditPageRoutes } from "./audit";
import { renderDashboardError } from "./errors";
import { readForm } from "./forms";
import { keyPageRoutes } from "./keys";
import { signInRoutes, signOutRoutes } from "./sign-in";
import { teamPageRoutes } from "./team";
import { versionPageRoutes } from "./version";
import { webhookEndpointPageRoutes } from "./webhook-endpoint";
import { webhookPageRoutes } from "./webhooks";

/** Every signed-in form post carries its session's CSRF token. */
const checkCsrf: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") {
    const token = (await readForm(c)).get("csrf") ?? "";
    if (!(await isCsrfTokenOf(c, token))) {
      throw new ApiError(
        "FORBIDDEN_ERROR",
        "This form has expired or did not come from your session. Reload the page and try again.",
      );
    }
  }
  await next();
};

export const dashboardRoutes = new Hono<AppEnv>()
  .use("/dashboard", dashboardHeaders)
  .use("/dashboard/*", dashboardHeaders, sameOriginForms)
  .get("/dashboard", (c) => c.redirect("/dashboard/sandbox/keys", 303))
  // Without a session: the assets and sign-in.
  .route("/", assetRoutes)
  .route("/", signInRoutes)
  // Everything below needs a session (handlers above answer before this runs).
  .use("/dashboard/*", loadSession, checkCsrf)
  .route("/", signOutRoutes)
  .route("/", teamPageRoutes)
  .route("/", auditPageRoutes)
  .route("/", keyPageRoutes)
  .route("/", webhookPageRoutes)
  .route("/", webhookEndpointPageRoutes)
  .route("/", versionPageRoutes)
  .all("/dashboard/*", () => {
    throw new ApiError("NOT_FOUND_ERROR", "There is no such page in the dashboard.");
  })
  .onError(renderDashboardError);
