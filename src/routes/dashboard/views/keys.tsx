// API key pages: the list with its create form, a new key shown once, and the roll and revoke
// confirmations.
import type { Environment } from "../../../../versions";
import type { DashboardSession } from "../../../app/context";
import {
  type ApiKeyRecord,
  type KeyCreator,
  keyStatus,
  ROLL_GRACE,
  type RollGrace,
} from "../../../domain/key-record";
import { CsrfField, Page, Time } from "./layout";

const ENVIRONMENT_NAME: Record<Environment, string> = {
  sandbox: "sandbox",
  production: "production",
};

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

export interface KeysPageProps {
  session: DashboardSession;
  environment: Environment;
  keys: ApiKeyRecord[];
  nextAfter: string | null;
  canManage: boolean;
  refusal: string;
  grantedScopes: string[];
  now: Date;
  notice?: string | undefined;
}

function CreateKeyForm(props: KeysPageProps) {
  const { environment, session, grantedScopes } = props;
  return (
    <section aria-labelledby="create-heading">
      <h2 id="create-heading">Create a {ENVIRONMENT_NAME[environment]} key</h2>
      <form method="post" action={`/dashboard/${environment}/keys`} class="stack">
        <CsrfField session={session} />
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

export function KeysPage(props: KeysPageProps) {
  const { environment, keys, canManage, now } = props;
  return (
    <Page
      title="API keys"
      session={props.session}
      environment={environment}
      section="keys"
      notice={props.notice}
    >
      {canManage ? <CreateKeyForm {...props} /> : <p class="muted">{props.refusal}</p>}
      <h2>Keys</h2>
      {keys.length === 0 ? (
        <p>No {environment} key yet.</p>
      ) : (
        <table>
          <caption class="visually-hidden">API keys in {environment}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">Created by</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              {canManage && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      )}
      {props.nextAfter && (
        <p>
          <a href={`/dashboard/${environment}/keys?after=${props.nextAfter}`}>Older keys</a>
        </p>
      )}
    </Page>
  );
}

export function NewKeyPage(props: {
  session: DashboardSession;
  environment: Environment;
  title: string;
  created: { key_id: string; api_key: string; scopes: string[]; name?: string };
  oldKey?: { keyId: string; expiresAt: string };
}) {
  const { created, environment } = props;
  return (
    <Page title={props.title} session={props.session} environment={environment} section="keys">
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
          <Time at={props.oldKey.expiresAt} />.
        </p>
      )}
      <p>
        <a href={`/dashboard/${environment}/keys`}>Back to the keys</a>
      </p>
    </Page>
  );
}

const GRACE_LABELS: Record<RollGrace, string> = {
  now: "Now",
  "1h": "In 1 hour",
  "24h": "In 24 hours",
  "7d": "In 7 days",
};

export function RollPage(props: {
  session: DashboardSession;
  environment: Environment;
  apiKey: ApiKeyRecord;
}) {
  const { apiKey, environment } = props;
  return (
    <Page title="Roll a key" session={props.session} environment={environment} section="keys">
      <p>
        Rolling <code>{apiKey.masked}</code> (<code>{apiKey.keyId}</code>) creates a new key with
        the same scopes. Choose when the old key stops working, so you can deploy the new one first.
      </p>
      <form
        method="post"
        action={`/dashboard/${environment}/keys/${apiKey.keyId}/roll`}
        class="stack"
      >
        <CsrfField session={props.session} />
        <fieldset>
          <legend>The old key expires</legend>
          {(Object.keys(ROLL_GRACE) as RollGrace[]).map((grace) => (
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
    </Page>
  );
}

export function RevokePage(props: {
  session: DashboardSession;
  environment: Environment;
  apiKey: ApiKeyRecord;
  descendants: ApiKeyRecord[];
}) {
  const { apiKey, environment, descendants } = props;
  return (
    <Page title="Revoke a key" session={props.session} environment={environment} section="keys">
      <p>
        Revoking <code>{apiKey.masked}</code> (<code>{apiKey.keyId}</code>) makes it fail on the
        very next request. This cannot be undone.
      </p>
      <form
        method="post"
        action={`/dashboard/${environment}/keys/${apiKey.keyId}/revoke`}
        class="stack"
      >
        <CsrfField session={props.session} />
        {descendants.length > 0 ? (
          <>
            <p>
              {descendants.length === 1 ? "One key was" : `${descendants.length} keys were`} minted
              from it with <code>POST /v2/keys</code>:
            </p>
            <ul>
              {descendants.map((d) => (
                <li>
                  <code>{d.masked}</code> <code class="muted">{d.keyId}</code>
                  {d.name ? ` (${d.name})` : ""}
                </li>
              ))}
            </ul>
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
    </Page>
  );
}
