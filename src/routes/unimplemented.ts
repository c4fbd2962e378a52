// Routes of the scope table whose behaviour the specification does not show: 501 after the pipeline.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { ROUTES } from "../app/route-table";

export const unimplementedRoutes = new Hono<AppEnv>();

for (const spec of ROUTES.filter((r) => !r.implemented)) {
  unimplementedRoutes.on(spec.method, spec.path, () => {
    throw new ApiError(
      "NOT_IMPLEMENTED_ERROR",
      `${spec.method} ${spec.path.replace(/:(\w+)/g, "{$1}")} is not available in this service.`,
    );
  });
}
