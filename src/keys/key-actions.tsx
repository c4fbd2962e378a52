// /dashboard/{environment}/keys/{key_id}/roll and …/revoke: rolling a key (a new key, the same
// scopes; the old one expires when chosen) and revoking one with the keys minted from it; and the
// page that shows a new key once.
import { type Context, Hono } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError, liveKeyLimitReached } from "../app/errors";
import { field } from "../dashboard/forms";
import { CsrfField, Time } from "../dashboard/layout";
import { allow, type DashboardPage } from "../dashboard/page";
import type { Environment } from "../domain/environment";
import {
  type ApiKeyRecord,
  isRollGrace,
  keyStatus,
  ROLL_GRACE,
  type RollGrace,
} from "../domain/key-record";
import { descendantsOf, revokeApiKey, rollApiKey } from "./key-lifecycle";
import { findApiKey } from "./key-store";

/** A new key, shown once, with a copy button; after a roll, when the old key stops. */
export function NewKeyView(props: {
  environment: Environment;
  created: { key_id: string; api_key: string; scopes: string[]; name?: string };
  oldKey?: { keyId: string; expiresAt: string; expiredWithIt: string[] };
}) {
  const { created, environment } = props;
  return (
    <>
      <p>
        Copy the key now and keep it in your secret store: it is shown only this once, and only a
        hash of it is kept.
      </p>
      <label for="new-key">API key</label>
      <input id="new-key" class="secret mono" type="text" readonly value={created.api_key} />{" "}
      <button type="button" data-copy="new-key" hidden>
        Copy
      </button>
      <span id="new-key-status" role="status" />
      <dl>
        <dt>Key id</dt>
        <dd>
          <code>{created.key_id}</code>
        </dd>
        <dt>Scopes</dt>
        <dd>{created.scopes.length === 0 ? "None" : created.scopes.join(", ")}</dd>
        {created.name && (
          <>
            <dt>Name</dt>
            <dd>{created.name}</dd>
          </>
        )}
      </dl>
      {props.oldKey && (
        <p>
          The old key <code>{props.oldKey.keyId}</code> stops working at{" "}
          <Time at={props.oldKey.expiresAt} />
          {props.oldKey.expiredWithIt.length > 0 && (
            <>
              , and{" "}
              {props.oldKey.expiredWithIt.length === 1
                ? "1 key minted from it expires with it"
                : `${props.oldKey.expiredWithIt.length} keys minted from it expire with it`}
              :{" "}
              {props.oldKey.expiredWithIt.map((id, i) => (
                <>
                  {i > 0 && ", "}
                  <code>{id}</code>
                </>
              ))}
            </>
          )}
          .
        </p>
      )}
      <p>
        <a href={`/dashboard/${environment}/keys`}>Back to the keys</a>
      </p>
    </>
  );
}

/** 404 for a key that is not the partner's in this environment. */
export function keyNotFound(): ApiError {
  return new ApiError("NOT_FOUND_ERROR", "There is no such key in this environment.");
}

const GRACE_LABELS: Record<RollGrace, string> = {
  now: "Now",
  "1h": "In 1 hour",
  "24h": "In 24 hours",
  "7d": "In 7 days",
};

/** The choices of when the old key expires, in ROLL_GRACE's order. */
const GRACES = Object.keys(ROLL_GRACE).filter(isRollGrace);

/** The keys minted from a key, as its roll and revoke pages list them. */
function MintedKeys(props: { keys: ApiKeyRecord[] }) {
  return (
    <ul>
      {props.keys.map((d) => (
        <li>
          <code>{d.masked}</code> <code class="muted">{d.keyId}</code>
          {d.name ? ` (${d.name})` : ""}
        </li>
      ))}
    </ul>
  );
}

function RollView(props: {
  environment: Environment;
  apiKey: ApiKeyRecord;
  /** The live keys minted from it, which expire when it does. */
  expiringWithIt: ApiKeyRecord[];
}) {
  const { apiKey, environment, expiringWithIt } = props;
  return (
    <>
      <p>
        Rolling <code>{apiKey.masked}</code> (<code>{apiKey.keyId}</code>) creates a new key with
        the same scopes. Choose when the old key stops working, so you can deploy the new one first.
      </p>
      {expiringWithIt.length > 0 ? (
        <>
          <p>
            {expiringWithIt.length === 1 ? "One key was" : `${expiringWithIt.length} keys were`}{" "}
            minted from it with <code>POST /v2/keys</code>. A key never outlives the key that minted
            it, so these stop working when it does; mint new ones from the new key.
          </p>
          <MintedKeys keys={expiringWithIt} />
        </>
      ) : (
        <p>No live key was minted from it.</p>
      )}
      <form
        method="post"
        action={`/dashboard/${environment}/keys/${apiKey.keyId}/roll`}
        class="stack"
      >
        <CsrfField />
        <fieldset>
          <legend>The old key expires</legend>
          {GRACES.map((grace) => (
            <div>
              <input
                type="radio"
                id={`grace-${grace}`}
                name="expires"
                value={grace}
                checked={grace === "24h"}
              />{" "}
              <label for={`grace-${grace}`}>{GRACE_LABELS[grace]}</label>
            </div>
          ))}
        </fieldset>
        <div>
          <button type="submit">Roll key</button>{" "}
          <a href={`/dashboard/${environment}/keys`}>Cancel</a>
        </div>
      </form>
    </>
  );
}

function RevokeView(props: {
  environment: Environment;
  apiKey: ApiKeyRecord;
  descendants: ApiKeyRecord[];
}) {
  const { apiKey, environment, descendants } = props;
  return (
    <>
      <p>
        Revoking <code>{apiKey.masked}</code> (<code>{apiKey.keyId}</code>) makes it fail on the
        very next request. This cannot be undone.
      </p>
      <form
        method="post"
        action={`/dashboard/${environment}/keys/${apiKey.keyId}/revoke`}
        class="stack"
      >
        <CsrfField />
        {descendants.length > 0 ? (
          <>
            <p>
              {descendants.length === 1 ? "One key was" : `${descendants.length} keys were`} minted
              from it with <code>POST /v2/keys</code>:
            </p>
            <MintedKeys keys={descendants} />
            <div>
              <input type="checkbox" id="cascade" name="cascade" value="1" checked />{" "}
              <label for="cascade">Revoke the keys minted from it too</label>
            </div>
          </>
        ) : (
          <>
            <p>No key was minted from it.</p>
            {/* Should one be minted before this is sent, it goes too. */}
            <input type="hidden" name="cascade" value="1" />
          </>
        )}
        <div>
          <button type="submit" class="danger">
            Revoke
          </button>{" "}
          <a href={`/dashboard/${environment}/keys`}>Cancel</a>
        </div>
      </form>
    </>
  );
}

/** The key of the page's URL, with the keys minted from it; 404 unless it is the partner's here. */
async function keyOfPage(c: Context<AppEnv>) {
  const ref = {
    partnerId: c.var.session.user.partnerId,
    environment: c.var.environment,
    keyId: c.req.param("key_id") ?? "",
  };
  const [apiKey, descendants] = await Promise.all([
    findApiKey(c.get("db"), ref.partnerId, ref.environment, ref.keyId),
    descendantsOf(c.get("db"), ref),
  ]);
  if (!apiKey) throw keyNotFound();
  return { apiKey, descendants };
}

export const keyRollPage: DashboardPage = {
  routes: new Hono<AppEnv>()
    .get("/:environment/keys/:key_id/roll", allow("keys.roll"), async (c) => {
      const { apiKey, descendants } = await keyOfPage(c);
      const now = c.get("now")();
      const expiringWithIt = descendants.filter((d) => keyStatus(d, now) !== "expired");
      return c.render(
        <RollView
          environment={c.var.environment}
          apiKey={apiKey}
          expiringWithIt={expiringWithIt}
        />,
        { title: "Roll a key", section: "keys" },
      );
    })

    .post("/:environment/keys/:key_id/roll", allow("keys.roll"), async (c) => {
      const { environment } = c.var;
      const { user } = c.var.session;
      const keyId = c.req.param("key_id");
      const grace = await field(c, "expires");
      if (!isRollGrace(grace)) {
        throw new ApiError("BAD_REQUEST_ERROR", "Choose when the old key expires.");
      }
      const db = c.get("db");
      const now = c.get("now")();
      const rolled = await rollApiKey(db, {
        partnerId: user.partnerId,
        shard: c.get("shard"),
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
      const oldKey = {
        keyId,
        expiresAt: rolled.oldKeyExpiresAt,
        expiredWithIt: rolled.expiredWithIt,
      };
      c.status(201);
      const { created } = rolled;
      return c.render(<NewKeyView environment={environment} created={created} oldKey={oldKey} />, {
        title: "Key rolled",
        section: "keys",
      });
    }),
};

export const keyRevokePage: DashboardPage = {
  routes: new Hono<AppEnv>()
    .get("/:environment/keys/:key_id/revoke", allow("keys.revoke"), async (c) => {
      const { apiKey, descendants } = await keyOfPage(c);
      return c.render(
        <RevokeView environment={c.var.environment} apiKey={apiKey} descendants={descendants} />,
        { title: "Revoke a key", section: "keys" },
      );
    })

    .post("/:environment/keys/:key_id/revoke", allow("keys.revoke"), async (c) => {
      const { environment } = c.var;
      const { user } = c.var.session;
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
    }),
};
