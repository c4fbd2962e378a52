// Errors on dashboard pages are pages: the error's status and message, in the layout, and a way on.
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import { toApiError } from "../app/respond";

const TITLES: Record<number, string> = {
  400: "Check the form",
  403: "Not allowed",
  404: "Page not found",
  409: "Changed meanwhile",
  413: "Too large",
  415: "Unsupported form",
  429: "Too many requests",
  500: "Something went wrong",
  503: "Temporarily unavailable",
};

export function renderDashboardError(err: Error, c: Context<AppEnv>): Response | Promise<Response> {
  const apiError = toApiError(err, c);
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  const signedIn = c.get("session") !== undefined;
  c.status(apiError.status);
  return c.render(
    <>
      <p role="alert">{apiError.message}</p>
      <p>
        <a href={signedIn ? "/dashboard/sandbox/keys" : "/dashboard/sign-in"}>
          {signedIn ? "Back to the dashboard" : "Go to sign-in"}
        </a>
      </p>
    </>,
    { title: TITLES[apiError.status] ?? "Error" },
  );
}
