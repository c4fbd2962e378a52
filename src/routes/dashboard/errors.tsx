// Errors on dashboard pages are pages: the error's status and message, in the layout.
import type { Context } from "hono";
import type { AppEnv } from "../../app/context";
import { toApiError } from "../../app/respond";
import { ErrorPage } from "./views/error-page";

export function renderDashboardError(err: Error, c: Context<AppEnv>): Response | Promise<Response> {
  const apiError = toApiError(err, c);
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  return c.html(
    <ErrorPage status={apiError.status} message={apiError.message} session={c.get("session")} />,
    apiError.status as 400,
  );
}
