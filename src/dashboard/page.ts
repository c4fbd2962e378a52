// What a dashboard page is, its routes and its link in the header, and `allow`, the one middleware
// that lets a user into a page. Every page's routes call it, so no page can forget to check the
// session, the form's CSRF token or the user's permission.
import type { Hono, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError, partnerMoving } from "../app/errors";
import type { Environment } from "../domain/environment";
import { allows, type DashboardAction, refusalOf } from "../domain/permissions";
import { readForm } from "./forms";
import { isCsrfTokenOf, loadSession } from "./session";

/** A link in the header, to `/dashboard/{environment}/{section}` or to `/dashboard/{section}`. */
export interface NavEntry {
  /** The path segment the section's pages live under; "" for the environment's own page. */
  section: string;
  label: string;
  /** The action a user must be allowed in the environment to see the link; without one, all do. */
  action?: DashboardAction;
  /** Whether the section has a page per environment, which the header switches between. */
  perEnvironment: boolean;
}

/** A page module: its routes, whose paths are under /dashboard, and its link if it has one. */
export interface DashboardPage {
  routes: Hono<AppEnv>;
  nav?: NavEntry;
}

const notFound = () => new ApiError("NOT_FOUND_ERROR", "There is no such page in the dashboard.");

/** The environment named in the URL, or null on a page of the whole partner such as the team's. */
function environmentOf(param: string | undefined): Environment | null {
  if (param === undefined) return null;
  if (param === "sandbox" || param === "production") return param;
  throw notFound();
}

/**
 * Lets a signed-in user into a page if their role allows `action` there; without an action, any
 * signed-in user comes in. A visitor without a live session is sent to sign in. A form post is
 * refused with a 403 when it lacks its session's CSRF token, and with a 503 while the partner's
 * data is being moved. An environment that does not exist is a 404, and an action the user's role
 * may not take there a 403 that says why. The page's handler then reads `c.var.session`, the
 * partner's database as `c.get("db")` and, on a page of an environment, `c.var.environment`.
 *
 * @example
 * export const teamPage: DashboardPage = {
 *   routes: new Hono<AppEnv>().get("/team", allow("team.view"), (c) =>
 *     c.render(<Team users={...} />, { title: "Team", section: "team" }),
 *   ),
 *   nav: { section: "team", label: "Team", action: "team.view", perEnvironment: false },
 * };
 */
export function allow(action?: DashboardAction): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const signedIn = await loadSession(c);
    if (signedIn) return signedIn;
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      const token = (await readForm(c)).get("csrf") ?? "";
      if (!(await isCsrfTokenOf(c, token))) {
        throw new ApiError(
          "FORBIDDEN_ERROR",
          "This form has expired or did not come from your session. Reload the page and try again.",
        );
      }
    }
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.get("session").moving) {
      throw partnerMoving();
    }
    const environment = environmentOf(c.req.param("environment"));
    if (environment) c.set("environment", environment);
    if (action) {
      const { role } = c.get("session").user;
      // A page of the whole partner, such as the team's, asks for production's stricter rights.
      const where = environment ?? "production";
      if (!allows(role, action, where)) {
        throw new ApiError("FORBIDDEN_ERROR", refusalOf(role, action, where));
      }
    }
    await next();
  };
}

/** Whether the signed-in user may take `action` there: a page shows only the forms they may use. */
export function may(
  c: { var: { session: AppEnv["Variables"]["session"] } },
  action: DashboardAction,
  environment: Environment,
): boolean {
  return allows(c.var.session.user.role, action, environment);
}
