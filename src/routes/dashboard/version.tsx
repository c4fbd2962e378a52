// /dashboard/{environment}/version: the saved API version, an upgrade (or downgrade) with its
// changes and a side-by-side preview, and the rollback of the last change for 72 hours.
import { Hono } from "hono";
import type { Environment, VersionBundle } from "../../../versions";
import { userActor } from "../../app/actor";
import type { AppEnv } from "../../app/context";
import { authorize, may } from "../../app/dashboard/authorize";
import {
  changesBetween,
  PREVIEW_LIMIT,
  previewStatements,
} from "../../app/dashboard/version-preview";
import { ApiError } from "../../app/errors";
import { changeSavedVersion, readSavedVersion } from "../../db/saved-versions";
import { refusalOf, seesCustomerData } from "../../domain/permissions";
import { rollbackCandidate, rollbackDeadline } from "../../domain/saved-version";
import { environmentParam } from "./environment";
import { field } from "./forms";
import { VersionPage } from "./views/version";

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

export const versionPageRoutes = new Hono<AppEnv>()
  .get("/dashboard/:environment/version", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "version.view", environment);
    const { user } = c.get("session");
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
      // Production customers' data only for those who may see it; sandbox data otherwise.
      const previewFrom = seesCustomerData(user.role, environment) ? environment : "sandbox";
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
    return c.html(
      <VersionPage
        session={c.get("session")}
        environment={environment}
        saved={state.saved}
        offered={offered}
        history={state.history}
        rollback={candidate ? { change: candidate, deadline: rollbackDeadline(candidate) } : null}
        canChange={may(c, "version.change", environment)}
        refusal={refusalOf(user.role, "version.change", environment)}
        target={target}
        notice={NOTICES[c.req.query("notice") ?? ""]}
      />,
    );
  })

  .post("/dashboard/:environment/version", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "version.change", environment);
    const { user } = c.get("session");
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

  .post("/dashboard/:environment/version/rollback", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "version.rollback", environment);
    const { user } = c.get("session");
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
