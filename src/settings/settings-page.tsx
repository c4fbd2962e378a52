// /dashboard/settings (every signed-in user): the partner's own settings as the service holds them,
// among them the jurisdiction its data stays in, fixed when the partner was created.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { allow, type DashboardPage } from "../dashboard/page";
import { partnerJurisdiction } from "../db/partners";
import { type Jurisdiction, jurisdictionPlace } from "../domain/jurisdiction";

function ResidencyText({ jurisdiction }: { jurisdiction: Jurisdiction }) {
  if (jurisdiction === "none") {
    return (
      <p>
        Your account has no jurisdiction: its data is stored wherever the platform places it. A
        jurisdiction is chosen when an account is created; ask us if your contract needs one.
      </p>
    );
  }
  return (
    <p>
      Your statements, statement documents, customers and accounts, request logs, events and webhook
      deliveries, API keys, team and audit log are stored only in {jurisdictionPlace(jurisdiction)}:
      in a database and a document bucket created in that jurisdiction. The service's shared
      directory keeps only your account's id, where it lives, and your team's addresses as keyed
      hashes. The jurisdiction was set when your account was created and never changes.
    </p>
  );
}

function SettingsView(props: { partnerId: string; name: string; jurisdiction: Jurisdiction }) {
  return (
    <>
      <dl class="fields">
        <dt>Name</dt>
        <dd>{props.name}</dd>
        <dt>Account id</dt>
        <dd>
          <code>{props.partnerId}</code>
        </dd>
        <dt>Data residency</dt>
        <dd>
          <code>{props.jurisdiction}</code> ({jurisdictionPlace(props.jurisdiction)})
        </dd>
      </dl>
      <h2>Where your data is stored</h2>
      <ResidencyText jurisdiction={props.jurisdiction} />
    </>
  );
}

export const settingsPage: DashboardPage = {
  routes: new Hono<AppEnv>().get("/settings", allow(), async (c) => {
    const { user } = c.var.session;
    const jurisdiction = await partnerJurisdiction(c.get("db"), user.partnerId);
    if (jurisdiction === null) throw new ApiError("NOT_FOUND_ERROR", "There is no such account.");
    return c.render(
      <SettingsView
        partnerId={user.partnerId}
        name={c.var.session.partnerName}
        jurisdiction={jurisdiction}
      />,
      { title: "Settings", section: "settings" },
    );
  }),
  nav: { section: "settings", label: "Settings", perEnvironment: false },
};
