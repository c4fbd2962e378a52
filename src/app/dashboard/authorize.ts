// The server-side check of every dashboard action against the permission table.
import type { Context } from "hono";
import type { Environment } from "../../domain/environment";
import { allows, type DashboardAction, refusalOf } from "../../domain/permissions";
import type { AppEnv } from "../context";
import { ApiError } from "../errors";

/** Whether the signed-in user may take `action` in `environment`. */
export function may(
  c: Context<AppEnv>,
  action: DashboardAction,
  environment: Environment,
): boolean {
  return allows(c.get("session").user.role, action, environment);
}

/** 403 unless the signed-in user may take `action` in `environment`. */
export function authorize(
  c: Context<AppEnv>,
  action: DashboardAction,
  environment: Environment,
): void {
  if (!may(c, action, environment)) {
    const { role } = c.get("session").user;
    throw new ApiError("FORBIDDEN_ERROR", refusalOf(role, action, environment));
  }
}
