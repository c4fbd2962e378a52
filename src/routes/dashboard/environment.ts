// The environment of a dashboard page, from its URL: `/dashboard/{sandbox|production}/...`.
import type { Context } from "hono";
import type { AppEnv } from "../../app/context";
import { ApiError } from "../../app/errors";
import type { Environment } from "../../domain/environment";

export function environmentParam(c: Context<AppEnv>): Environment {
  const environment = c.req.param("environment");
  if (environment === "sandbox" || environment === "production") return environment;
  throw new ApiError("NOT_FOUND_ERROR", "There is no such page in the dashboard.");
}
