// The dashboard's error pages: what went wrong in a sentence, and a way on.
import type { DashboardSession } from "../../../app/context";
import { Page } from "./layout";

const TITLES: Record<number, string> = {
  400: "Check the form",
  403: "Not allowed",
  404: "Page not found",
  409: "Changed meanwhile",
  413: "Too large",
  415: "Unsupported form",
  500: "Something went wrong",
  503: "Temporarily unavailable",
};

export function ErrorPage(props: {
  status: number;
  message: string;
  session: DashboardSession | undefined;
}) {
  return (
    <Page title={TITLES[props.status] ?? "Error"} session={props.session}>
      <p role="alert">{props.message}</p>
      <p>
        <a href={props.session ? "/dashboard/sandbox/keys" : "/dashboard/sign-in"}>
          {props.session ? "Back to the dashboard" : "Go to sign-in"}
        </a>
      </p>
    </Page>
  );
}
