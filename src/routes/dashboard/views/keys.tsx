// The API keys page: every key of the partner in one environment, and the form that creates one.
import type { DashboardSession } from "../../../app/context";
import type { Environment } from "../../../domain/environment";
import { type ApiKeyRecord, type KeyCreator, keyStatus } from "../../../domain/key-record";
import { CsrfField, Page, Time } from "./layout";

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
      <h2 id="create-heading">Create a {environment} key</h2>
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
