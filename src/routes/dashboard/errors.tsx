// Errors on dashboard pages are pages: the ApiError's status and message, in the layout.
import type { Context } from "hono";
import type { AppEnv } from "../../app/context";
import { ApiError } from "../../app/errors";
import { ErrorPage } from "./views/error-page";

export function renderDashboardError(err: Error, c: Context<AppEnv>): Response | Promise<Response> {
  let status = 500;
  let message = `An unexpected error occurred (request ${c.get("requestId")}).`;
  if (err instanceof ApiError) {
    status = err.status;
    message = err.message;
  } else {
    console.error(JSON.stringify({ request_id: c.get("requestId"), error: String(err) }));
  }
  return c.html(
    <ErrorPage status={status} message={message} session={c.get("session")} />,
    status as 400,
  );
}
