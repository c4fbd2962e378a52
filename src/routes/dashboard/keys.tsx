// /dashboard/{environment}/keys: list, create, roll and revoke the partner's API keys.
import { Hono } from "hono";
import { userActor } from "../../app/actor";
import type { AppEnv } from "../../app/context";
import { authorize, may } from "../../app/dashboard/authorize";
import { ApiError, liveKeyLimitReached } from "../../app/errors";
import { SCOPES } from "../../app/route-table";
import { descendantsOf, revokeApiKey, rollApiKey } from "../../db/key-lifecycle";
import { createApiKey, findApiKey, listApiKeys, operatorGrantedScopes } from "../../db/keys";
import { isRollGrace, keyStatus, ROLL_GRACE } from "../../domain/key-record";
import { refusalOf } from "../../domain/permissions";
import { environmentParam } from "./environment";
import { field, readForm } from "./forms";
import { NewKeyPage, RevokePage, RollPage } from "./views/key-actions";
import { KeysPage } from "./views/keys";

const PAGE_SIZE = 50;

function keyNotFound(): ApiError {
  return new ApiError("NOT_FOUND_ERROR", "There is no such key in this environment.");
}

/** `?revoked=N`: the notice after a revocation. */
function revokedNotice(count: string | undefined): string | undefined {
  if (!count || !/^[0-9]{1,4}$/.test(count)) return undefined;
  if (count === "0") return "Nothing was left to revoke.";
  return count === "1" ? "Revoked 1 key." : `Revoked ${count} keys.`;
}

export const keyPageRoutes = new Hono<AppEnv>()
  .get("/dashboard/:environment/keys", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "keys.view", environment);
    const { user } = c.get("session");
    const db = c.get("db");
    const after = c.req.query("after") ?? null;
    const now = c.get("now")();
    const [page, grantedScopes] = await Promise.all([
      listApiKeys(db, user.partnerId, environment, after, PAGE_SIZE),
      operatorGrantedScopes(db, user.partnerId, environment, now),
    ]);
    if (!page) throw keyNotFound();
    const last = page.keys.at(-1);
    return c.html(
      <KeysPage
        session={c.get("session")}
        environment={environment}
        keys={page.keys}
        nextAfter={page.hasMore && last ? last.keyId : null}
        canManage={may(c, "keys.create", environment)}
        refusal={refusalOf(user.role, "keys.create", environment)}
        grantedScopes={SCOPES.filter((s) => grantedScopes.includes(s))}
        now={now}
        notice={revokedNotice(c.req.query("revoked"))}
      />,
    );
  })

  .post("/dashboard/:environment/keys", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "keys.create", environment);
    const { user } = c.get("session");
    const form = await readForm(c);
    const name = (form.get("name") ?? "").trim();
    if (name.length > 255)
      throw new ApiError("BAD_REQUEST_ERROR", "A name is 255 characters at most.");
    const scopes = [...new Set(form.getAll("scopes"))];
    const now = c.get("now")();
    const granted = await operatorGrantedScopes(c.get("db"), user.partnerId, environment, now);
    const refused = scopes.filter((s) => !granted.includes(s));
    if (refused.length > 0) {
      throw new ApiError(
        "BAD_REQUEST_ERROR",
        `Not granted to your keys in ${environment}: ${refused.join(", ").slice(0, 200)}.`,
      );
    }
    const { outcome, created } = await createApiKey(c.get("db"), {
      partnerId: user.partnerId,
      environment,
      scopes: SCOPES.filter((s) => scopes.includes(s)),
      name: name || null,
      actor: userActor(c, user),
      now,
    });
    // A user's key has no creator key that could stop being live: only the bound refuses it.
    if (outcome !== "created") throw liveKeyLimitReached();
    return c.html(
      <NewKeyPage
        session={c.get("session")}
        environment={environment}
        title="Your new key"
        created={created}
      />,
      201,
    );
  })

  .get("/dashboard/:environment/keys/:key_id/roll", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "keys.roll", environment);
    const { user } = c.get("session");
    const ref = { partnerId: user.partnerId, environment, keyId: c.req.param("key_id") };
    const [apiKey, descendants] = await Promise.all([
      findApiKey(c.get("db"), ref.partnerId, environment, ref.keyId),
      descendantsOf(c.get("db"), ref),
    ]);
    if (!apiKey) throw keyNotFound();
    const now = c.get("now")();
    return c.html(
      <RollPage
        session={c.get("session")}
        environment={environment}
        apiKey={apiKey}
        expiringWithIt={descendants.filter((d) => keyStatus(d, now) !== "expired")}
      />,
    );
  })

  .post("/dashboard/:environment/keys/:key_id/roll", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "keys.roll", environment);
    const { user } = c.get("session");
    const keyId = c.req.param("key_id");
    const grace = await field(c, "expires");
    if (!isRollGrace(grace)) {
      throw new ApiError("BAD_REQUEST_ERROR", "Choose when the old key expires.");
    }
    const db = c.get("db");
    const now = c.get("now")();
    const rolled = await rollApiKey(db, {
      partnerId: user.partnerId,
      environment,
      keyId,
      graceMs: ROLL_GRACE[grace],
      actor: userActor(c, user),
      now,
    });
    if (rolled.kind === "limit_reached") {
      throw liveKeyLimitReached(
        "a roll keeps the old key live for its grace period, so make the old key expire now " +
          "(one key for another), or revoke keys you no longer use first.",
      );
    }
    if (rolled.kind === "not_live") {
      const apiKey = await findApiKey(db, user.partnerId, environment, keyId);
      if (!apiKey) throw keyNotFound();
      throw new ApiError(
        "CONFLICT_ERROR",
        `This key is ${keyStatus(apiKey, now)}: only a live key can be rolled.`,
      );
    }
    return c.html(
      <NewKeyPage
        session={c.get("session")}
        environment={environment}
        title="Key rolled"
        created={rolled.created}
        oldKey={{
          keyId,
          expiresAt: rolled.oldKeyExpiresAt,
          expiredWithIt: rolled.expiredWithIt,
        }}
      />,
      201,
    );
  })

  .get("/dashboard/:environment/keys/:key_id/revoke", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "keys.revoke", environment);
    const { user } = c.get("session");
    const ref = { partnerId: user.partnerId, environment, keyId: c.req.param("key_id") };
    const [apiKey, descendants] = await Promise.all([
      findApiKey(c.get("db"), ref.partnerId, environment, ref.keyId),
      descendantsOf(c.get("db"), ref),
    ]);
    if (!apiKey) throw keyNotFound();
    return c.html(
      <RevokePage
        session={c.get("session")}
        environment={environment}
        apiKey={apiKey}
        descendants={descendants}
      />,
    );
  })

  .post("/dashboard/:environment/keys/:key_id/revoke", async (c) => {
    const environment = environmentParam(c);
    authorize(c, "keys.revoke", environment);
    const { user } = c.get("session");
    const keyId = c.req.param("key_id");
    const db = c.get("db");
    if (!(await findApiKey(db, user.partnerId, environment, keyId))) throw keyNotFound();
    const revoked = await revokeApiKey(db, {
      partnerId: user.partnerId,
      environment,
      keyId,
      cascade: (await field(c, "cascade")) === "1",
      actor: userActor(c, user),
      now: c.get("now")(),
    });
    return c.redirect(`/dashboard/${environment}/keys?revoked=${revoked.length}`, 303);
  });
