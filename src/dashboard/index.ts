// The partner dashboard under /dashboard: the shell serving the pages it is given (src/pages.ts
// lists them), behind passwordless sign-in. Every response carries the security headers and every
// page the one layout; every form post is checked for its origin and, once signed in, its CSRF
// token. Its stylesheet and script are static assets (public/dashboard/).
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { renderDashboardError } from "./errors";
import { renderer } from "./layout";
import { allow, type DashboardPage } from "./page";
import { dashboardHeaders, sameOriginForms } from "./security";
import { signInPage } from "./sign-in";

/** The dashboard serving `pages`: each mounted, and those with a link in the header, in order. */
export function dashboardRoutes(pages: readonly DashboardPage[]) {
  const navigation = pages.flatMap((page) => (page.nav ? [page.nav] : []));

  const dashboard = new Hono<AppEnv>()
    .use("/dashboard", dashboardHeaders)
    .use("/dashboard/*", dashboardHeaders, renderer(navigation), sameOriginForms)
    .get("/dashboard", (c) => c.redirect("/dashboard/sandbox/keys", 303))
    // Without a session: sign-in.
    .route("/dashboard", signInPage.routes);
  // Every other page lets its users in itself (see `allow`).
  for (const page of pages) dashboard.route("/dashboard", page.routes);

  return dashboard
    .all("/dashboard/*", allow(), () => {
      throw new ApiError("NOT_FOUND_ERROR", "There is no such page in the dashboard.");
    })
    .onError(renderDashboardError);
}
