// /dashboard/{environment}/version: the saved API version, the versions offered, an upgrade (or
// downgrade) with its changes and a side-by-side preview (version-preview.tsx), and the rollback
// of the last change for 72 hours.
import { Hono } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { auditDataView } from "../dashboard/data-audit";
import { field } from "../dashboard/forms";
import { CsrfField, Time } from "../dashboard/layout";
import { allow, type DashboardPage, may } from "../dashboard/page";
import { Table } from "../dashboard/table";
import type { Environment } from "../domain/environment";
import { refusalOf, seesCustomerData } from "../domain/permissions";
import type { JsonValue, VersionBundle } from "../versioning";
import { rollbackCandidate, rollbackDeadline, type SavedVersionChange } from "./saved-version";
import { changeSavedVersion, readSavedVersion } from "./saved-version-store";
import {
  changesBetween,
  PREVIEW_LIMIT,
  previewStatements,
  SideBySide,
  Steps,
  type VersionStep,
} from "./version-preview";

const NOTICES: Record<string, string> = {
  changed: "The saved version is changed. It applies from the next request.",
  "rolled-back": "The saved version is rolled back. It applies from the next request.",
};

/** The change that may be rolled back now, if the version before it is still offered. */
function rollbackOf(
  bundle: VersionBundle,
  state: { saved: string; history: Parameters<typeof rollbackCandidate>[1] },
  environment: Environment,
  now: Date,
) {
  const candidate = rollbackCandidate(state.saved, state.history, now);
  return candidate && bundle.isSupported(candidate.fromVersion, environment) ? candidate : null;
}

function changedMeanwhile(): ApiError {
  return new ApiError(
    "CONFLICT_ERROR",
    "The saved version changed since this page was loaded. Reload it and try again.",
  );
}

interface VersionViewProps {
  environment: Environment;
  saved: string;
  offered: { id: string; released: boolean }[];
  history: SavedVersionChange[];
  rollback: { change: SavedVersionChange; deadline: Date } | null;
  canChange: boolean;
  refusal: string;
  target: {
    version: string;
    direction: "upgrade" | "downgrade";
    steps: VersionStep[];
    preview: { customerId: string; accountId: string; bodies: Record<string, JsonValue> } | null;
    /** The environment whose data the preview shows: sandbox for a Developer in production. */
    previewFrom: Environment;
    previewLimit: number;
  } | null;
}

function VersionView(props: VersionViewProps) {
  const { environment, saved, target } = props;
  return (
    <>
      <p>
        Requests in {environment} that send no version header get <strong>{saved}</strong>, the
        saved version. A change applies from the next request.
      </p>
      {!props.canChange && <p class="muted">{props.refusal}</p>}
      {props.rollback && (
        <Rollback environment={environment} rollback={props.rollback} canChange={props.canChange} />
      )}
      <OfferedVersions
        environment={environment}
        saved={saved}
        offered={props.offered}
        comparing={target?.version}
      />
      {target && (
        <Comparison
          environment={environment}
          saved={saved}
          target={target}
          canChange={props.canChange}
        />
      )}
      {props.history.length > 0 && <RecentChanges history={props.history} />}
    </>
  );
}

/** The last change and, while it may still go back, the form that rolls it back. */
function Rollback(props: {
  environment: Environment;
  rollback: NonNullable<VersionViewProps["rollback"]>;
  canChange: boolean;
}) {
  const { change, deadline } = props.rollback;
  return (
    <section aria-labelledby="rollback-heading">
      <h2 id="rollback-heading">Roll back</h2>
      <p>
        The saved version moved from <code>{change.fromVersion}</code> to{" "}
        <code>{change.toVersion}</code> at <Time at={change.changedAt} />. It can go back until{" "}
        <Time at={deadline.toISOString()} />.
      </p>
      {props.canChange && (
        <form method="post" action={`/dashboard/${props.environment}/version/rollback`}>
          <CsrfField />
          <input type="hidden" name="change" value={String(change.id)} />
          <button type="submit">Roll back to {change.fromVersion}</button>
        </form>
      )}
    </section>
  );
}

/** Every version the environment offers, each but the saved one with a link to compare it. */
function OfferedVersions(props: {
  environment: Environment;
  saved: string;
  offered: VersionViewProps["offered"];
  comparing: string | undefined;
}) {
  const { environment, saved } = props;
  return (
    <>
      <h2>Versions offered in {environment}</h2>
      <Table
        caption={<>Versions offered in {environment}</>}
        columns={["Version", "Status", "Compare"]}
      >
        {props.offered.map((v) => (
          <tr>
            <td>
              <code>{v.id}</code>
              {v.id === saved && <strong> (saved)</strong>}
            </td>
            <td>{v.released ? "Released" : "Unreleased, sandbox only"}</td>
            <td>
              {v.id !== saved && (
                <a
                  href={`/dashboard/${environment}/version?target=${v.id}`}
                  aria-current={props.comparing === v.id ? "true" : undefined}
                >
                  Compare with {v.id}
                </a>
              )}
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

/** The saved version beside the one compared: its changes, a preview, and the form that saves it. */
function Comparison(props: {
  environment: Environment;
  saved: string;
  target: NonNullable<VersionViewProps["target"]>;
  canChange: boolean;
}) {
  const { environment, saved, target } = props;
  return (
    <section aria-labelledby="target-heading">
      <h2 id="target-heading">
        From {saved} to {target.version}
      </h2>
      <h3>Changes</h3>
      <Steps direction={target.direction} steps={target.steps} />
      <h3>Preview</h3>
      {target.previewFrom !== environment && (
        <p>
          This preview is built from your sandbox data: production customers' data is shown to
          Admins only.
        </p>
      )}
      {target.preview ? (
        <>
          <p>
            One real {target.previewFrom} response of yours, as each version returns it:{" "}
            <code>
              GET /v2/customers/{target.preview.customerId}/accounts/
              {target.preview.accountId}/statements?limit={target.previewLimit}
            </code>
          </p>
          <SideBySide left={saved} right={target.version} bodies={target.preview.bodies} />
        </>
      ) : (
        <p>There is no statement in {target.previewFrom} yet to show.</p>
      )}
      {props.canChange && (
        <form method="post" action={`/dashboard/${environment}/version`} class="stack">
          <CsrfField />
          <input type="hidden" name="from" value={saved} />
          <input type="hidden" name="to" value={target.version} />
          <div>
            <button type="submit">
              Save {target.version} as the {environment} version
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/** The saved version's recent changes and rollbacks, newest first. */
function RecentChanges(props: { history: SavedVersionChange[] }) {
  return (
    <>
      <h2>Recent changes</h2>
      <Table caption="Recent changes of the saved version" columns={["When", "From", "To", "Kind"]}>
        {props.history.map((h) => (
          <tr>
            <td>
              <Time at={h.changedAt} />
            </td>
            <td>
              <code>{h.fromVersion}</code>
            </td>
            <td>
              <code>{h.toVersion}</code>
            </td>
            <td>{h.kind === "change" ? "Change" : "Rollback"}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}

const routes = new Hono<AppEnv>()
  .get("/:environment/version", allow("version.view"), async (c) => {
    const { environment } = c.var;
    const { user } = c.var.session;
    const bundle = c.get("bundle");
    const state = await readSavedVersion(c.get("db"), user.partnerId, environment);
    if (!state) throw new ApiError("NOT_FOUND_ERROR", "Your partner record is missing.");
    const now = c.get("now")();
    const candidate = rollbackOf(bundle, state, environment, now);
    const requested = c.req.query("target");
    let target = null;
    if (requested !== undefined && requested !== state.saved) {
      if (!bundle.isSupported(requested, environment)) {
        throw new ApiError(
          "NOT_FOUND_ERROR",
          `${JSON.stringify(requested.slice(0, 64))} is not a version offered in ${environment}.`,
        );
      }
      // Production customers' data only for those who may see it, its view audited before it is
      // read (as the data browser's); sandbox data otherwise.
      const previewFrom = seesCustomerData(user.role, environment) ? environment : "sandbox";
      await auditDataView(c, "version_preview", requested, previewFrom);
      const preview = await previewStatements(c, user.partnerId, previewFrom, [
        state.saved,
        requested,
      ]);
      target = {
        version: requested,
        ...changesBetween(bundle, state.saved, requested),
        preview,
        previewFrom,
        previewLimit: PREVIEW_LIMIT,
      };
    }
    // Newest first, as the bundle lists them; production offers released versions only.
    const offered = bundle
      .supported(environment)
      .map((id) => ({ id, released: bundle.versionOf(id)?.released ?? false }));
    return c.render(
      <VersionView
        environment={environment}
        saved={state.saved}
        offered={offered}
        history={state.history}
        rollback={candidate ? { change: candidate, deadline: rollbackDeadline(candidate) } : null}
        canChange={may(c, "version.change", environment)}
        refusal={refusalOf(user.role, "version.change", environment)}
        target={target}
      />,
      { title: "API version", section: "version", notice: NOTICES[c.req.query("notice") ?? ""] },
    );
  })

  .post("/:environment/version", allow("version.change"), async (c) => {
    const { environment } = c.var;
    const { user } = c.var.session;
    const [from, to] = [await field(c, "from"), await field(c, "to")];
    if (!c.get("bundle").isSupported(to, environment)) {
      throw new ApiError(
        "BAD_REQUEST_ERROR",
        `${JSON.stringify(to.slice(0, 64))} is not a version offered in ${environment}.`,
      );
    }
    if (from === to) throw new ApiError("BAD_REQUEST_ERROR", `${to} is already the saved version.`);
    const changed = await changeSavedVersion(c.get("db"), {
      partnerId: user.partnerId,
      environment,
      from,
      to,
      rollbackOf: null,
      actor: userActor(c, user),
      now: c.get("now")(),
    });
    if (!changed) throw changedMeanwhile();
    return c.redirect(`/dashboard/${environment}/version?notice=changed`, 303);
  })

  .post("/:environment/version/rollback", allow("version.rollback"), async (c) => {
    const { environment } = c.var;
    const { user } = c.var.session;
    const db = c.get("db");
    const now = c.get("now")();
    const state = await readSavedVersion(db, user.partnerId, environment);
    const candidate = state && rollbackOf(c.get("bundle"), state, environment, now);
    if (!candidate || String(candidate.id) !== (await field(c, "change"))) {
      throw new ApiError(
        "CONFLICT_ERROR",
        "This change can no longer be rolled back: the 72 hours have passed, or the saved " +
          "version changed since.",
      );
    }
    const rolledBack = await changeSavedVersion(db, {
      partnerId: user.partnerId,
      environment,
      from: candidate.toVersion,
      to: candidate.fromVersion,
      rollbackOf: candidate.id,
      actor: userActor(c, user),
      now,
    });
    if (!rolledBack) throw changedMeanwhile();
    return c.redirect(`/dashboard/${environment}/version?notice=rolled-back`, 303);
  });

export const versionPage: DashboardPage = {
  routes,
  nav: { section: "version", label: "API version", action: "version.view", perEnvironment: true },
};
