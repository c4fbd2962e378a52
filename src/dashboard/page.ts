// What a dashboard page is: its routes, its place in the navigation, and the one middleware that
// lets a user in: a live session (a form post must carry its CSRF token), the environment of the
// URL (`/dashboard/{sandbox|production}/…`), and the permission the page's action needs there.
import type { Hono, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError, partnerMoving } from "../app/errors";
import type { Environment } from "../domain/environment";
import { allows, type DashboardAction, refusalOf } from "../domain/permissions";
import { readForm } from "./forms";
import { isCsrfTokenOf, loadSession } from "./session";

/** A link of the header's navigation: `/dashboard/{environment}/{section}` or `/dashboard/{section}`. */
export interface NavEntry {
  /** The path segment the section's pages live under; "" for the environment's own page. */
  section: string;
  label: string;
  /** Shown to users who may take this action (in the page's environment); without one, to all. */
  action?: DashboardAction;
  /** Pages of the section are per environment, and the header switches between them. */
  perEnvironment: boolean;
}

/** A page module: its routes (paths under /dashboard), and its link if it has one. */
export interface DashboardPage {
  routes: Hono<AppEnv>;
  nav?: NavEntry;
}

const notFound = () => new ApiError("NOT_FOUND_ERROR", "There is no such page in the dashboard.");

/** The environment of the URL; partner-wide pages (team, audit) are checked as production. */
function environmentOf(param: string | undefined): Environment | null {
  if (param === undefined) return null;
  if (param === "sandbox" || param === "production") return param;
  throw notFound();
}

/**
 * Lets a signed-in user in, to take `action` (none: any signed-in user): without a live session,
 * a redirect to sign-in; a form post without its session's CSRF token, 403; a form post while
 * the partner's data is being moved, 503; an environment that does not exist, 404; an action the
 * user's role may not take there, 403 with the reason. The page then reads `c.var.session` (its
 * partner's shard is `c.get("db")`) and, on an environment page, `c.var.environment`.
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
      const where = environment ?? "production";
      if (!allows(role, action, where)) {
        throw new ApiError("FORBIDDEN_ERROR", refusalOf(role, action, where));
      }
    }
    await next();
  };
}

/** Whether the signed-in user may take `action` in the page's environment (for its forms). */
export function may(
  c: { var: { session: AppEnv["Variables"]["session"] } },
  action: DashboardAction,
  environment: Environment,
): boolean {
  return allows(c.var.session.user.role, action, environment);
}
