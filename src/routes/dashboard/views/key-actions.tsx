// Key action pages: a new key shown once, and the roll and revoke confirmations.
import type { Environment } from "../../../../versions";
import type { DashboardSession } from "../../../app/context";
import { type ApiKeyRecord, ROLL_GRACE, type RollGrace } from "../../../domain/key-record";
import { CsrfField, Page, Time } from "./layout";

export function NewKeyPage(props: {
  session: DashboardSession;
  environment: Environment;
  title: string;
  created: { key_id: string; api_key: string; scopes: string[]; name?: string };
  oldKey?: { keyId: string; expiresAt: string; expiredWithIt: string[] };
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
    </Page>
  );
}

const GRACE_LABELS: Record<RollGrace, string> = {
  now: "Now",
  "1h": "In 1 hour",
  "24h": "In 24 hours",
  "7d": "In 7 days",
};

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

export function RollPage(props: {
  session: DashboardSession;
  environment: Environment;
  apiKey: ApiKeyRecord;
  /** The live keys minted from it, which expire when it does. */
  expiringWithIt: ApiKeyRecord[];
}) {
  const { apiKey, environment, expiringWithIt } = props;
  return (
    <Page title="Roll a key" session={props.session} environment={environment} section="keys">
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
    </Page>
  );
}
