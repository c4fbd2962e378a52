// /dashboard/{environment}/keys: every key of the partner in the environment, whoever made it,
// and the form that creates one (the new key is shown once). Rolling and revoking: key-actions.tsx.
import { Hono } from "hono";
import { userActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError, liveKeyLimitReached } from "../app/errors";
import { readForm } from "../dashboard/forms";
import { CsrfField, Time } from "../dashboard/layout";
import { allow, type DashboardPage, may } from "../dashboard/page";
import { Table } from "../dashboard/table";
import type { Environment } from "../domain/environment";
import { type ApiKeyRecord, type KeyCreator, keyStatus } from "../domain/key-record";
import { refusalOf } from "../domain/permissions";
import { SCOPES } from "../domain/scopes";
import { keyNotFound, NewKeyView } from "./key-actions";
import { createApiKey, listApiKeys, operatorGrantedScopes } from "./key-store";

const PAGE_SIZE = 50;

/** `?revoked=N`: the notice after a revocation. */
function revokedNotice(count: string | undefined): string | undefined {
  if (!count || !/^[0-9]{1,4}$/.test(count)) return undefined;
  if (count === "0") return "Nothing was left to revoke.";
  return count === "1" ? "Revoked 1 key." : `Revoked ${count} keys.`;
}

function Creator({ creator }: { creator: KeyCreator }) {
  switch (creator.type) {
    case "operator":
      return <>Operator</>;
    case "user":
      return <>{creator.email ?? "A removed user"}</>;
    case "key":
      return (
        <>
          Key <code>{creator.keyId}</code>
        </>
      );
    default:
      return <span class="muted">Not recorded</span>;
  }
}

function Status({ apiKey, now }: { apiKey: ApiKeyRecord; now: Date }) {
  const status = keyStatus(apiKey, now);
  switch (status) {
    case "active":
      return <span class="status-active">Active</span>;
    case "expiring":
      return (
        <span class="status-expiring">
          Expires <Time at={apiKey.expiresAt ?? ""} />
        </span>
      );
    case "expired":
      return <span class="status-expired">Expired</span>;
    case "revoked":
      return (
        <span class="status-revoked">
          Revoked <Time at={apiKey.revokedAt ?? ""} />
        </span>
      );
  }
}

interface KeysViewProps {
  environment: Environment;
  keys: ApiKeyRecord[];
  nextAfter: string | null;
  canManage: boolean;
  refusal: string;
  grantedScopes: string[];
  now: Date;
}

function CreateKeyForm(props: KeysViewProps) {
  const { environment, grantedScopes } = props;
  return (
    <section aria-labelledby="create-heading">
      <h2 id="create-heading">Create a {environment} key</h2>
      <form method="post" action={`/dashboard/${environment}/keys`} class="stack">
        <CsrfField />
        <label for="key-name">Name (optional)</label>
        <input id="key-name" name="name" type="text" maxlength={255} />
        <fieldset>
          <legend>Scopes</legend>
          {grantedScopes.length === 0 ? (
            <p>The operator has granted no scope in {environment}: a new key would have none.</p>
          ) : (
            grantedScopes.map((scope) => (
              <div>
                <input type="checkbox" id={`scope-${scope}`} name="scopes" value={scope} />{" "}
                <label for={`scope-${scope}`}>
                  <code>{scope}</code>
                </label>
              </div>
            ))
          )}
        </fieldset>
        <div>
          <button type="submit">Create key</button>
        </div>
      </form>
    </section>
  );
}

function KeysView(props: KeysViewProps) {
  const { environment, keys, canManage, now } = props;
  return (
    <>
      {canManage ? <CreateKeyForm {...props} /> : <p class="muted">{props.refusal}</p>}
      <h2>Keys</h2>
      {keys.length === 0 ? (
        <p>No {environment} key yet.</p>
      ) : (
        <Table
          caption={<>API keys in {environment}, newest first</>}
          columns={[
            "Name",
            "Key",
            "Scopes",
            "Created",
            "Created by",
            "Last used",
            "Status",
            ...(canManage ? ["Actions"] : []),
          ]}
        >
          {keys.map((key) => {
            const status = keyStatus(key, now);
            return (
              <tr id={key.keyId}>
                <td>{key.name ?? <span class="muted">Unnamed</span>}</td>
                <td>
                  <code>{key.masked}</code>
                  <br />
                  <code class="muted">{key.keyId}</code>
                </td>
                <td>
                  {key.scopes.length === 0 ? (
                    <span class="muted">None</span>
                  ) : (
                    key.scopes.map((s) => (
                      <>
                        <code>{s}</code>{" "}
                      </>
                    ))
                  )}
                </td>
                <td>
                  <Time at={key.createdAt} />
                </td>
                <td>
                  <Creator creator={key.createdBy} />
                </td>
                <td>{key.lastUsedOn ?? <span class="muted">Never</span>}</td>
                <td>
                  <Status apiKey={key} now={now} />
                </td>
                {canManage && (
                  <td>
                    {(status === "active" || status === "expiring") && (
                      <a href={`/dashboard/${environment}/keys/${key.keyId}/roll`}>
                        Roll<span class="visually-hidden"> {key.keyId}</span>
                      </a>
                    )}{" "}
                    {status !== "revoked" && (
                      <a href={`/dashboard/${environment}/keys/${key.keyId}/revoke`}>
                        Revoke<span class="visually-hidden"> {key.keyId}</span>
                      </a>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </Table>
      )}
      {props.nextAfter && (
        <p>
          <a href={`/dashboard/${environment}/keys?after=${props.nextAfter}`}>Older keys</a>
        </p>
      )}
    </>
  );
}

export const keysPage: DashboardPage = {
  routes: new Hono<AppEnv>()
    .get("/:environment/keys", allow("keys.view"), async (c) => {
      const { environment } = c.var;
      const { user } = c.var.session;
      const db = c.get("db");
      const after = c.req.query("after") ?? null;
      const now = c.get("now")();
      const [page, grantedScopes] = await Promise.all([
        listApiKeys(db, user.partnerId, environment, after, PAGE_SIZE),
        operatorGrantedScopes(db, user.partnerId, environment, now),
      ]);
      if (!page) throw keyNotFound();
      const last = page.keys.at(-1);
      return c.render(
        <KeysView
          environment={environment}
          keys={page.keys}
          nextAfter={page.hasMore && last ? last.keyId : null}
          canManage={may(c, "keys.create", environment)}
          refusal={refusalOf(user.role, "keys.create", environment)}
          grantedScopes={SCOPES.filter((s) => grantedScopes.includes(s))}
          now={now}
        />,
        { title: "API keys", section: "keys", notice: revokedNotice(c.req.query("revoked")) },
      );
    })

    .post("/:environment/keys", allow("keys.create"), async (c) => {
      const { environment } = c.var;
      const { user } = c.var.session;
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
        shard: c.get("shard"),
        environment,
        scopes: SCOPES.filter((s) => scopes.includes(s)),
        name: name || null,
        actor: userActor(c, user),
        now,
      });
      // A user's key has no creator key that could stop being live: only the bound refuses it.
      if (outcome !== "created") throw liveKeyLimitReached();
      c.status(201);
      return c.render(<NewKeyView environment={environment} created={created} />, {
        title: "Your new key",
        section: "keys",
      });
    }),
  nav: { section: "keys", label: "API keys", action: "keys.view", perEnvironment: true },
};
