// The API version page: the saved version, the versions offered, and for a target version the
// changes in between and one real response in both versions, side by side.
import type { Environment, Json, VersionChange } from "../../../../versions";
import type { DashboardSession } from "../../../app/context";
import type { VersionStep } from "../../../app/dashboard/version-preview";
import { diffLines } from "../../../domain/line-diff";
import type { SavedVersionChange } from "../../../domain/saved-version";
import { CsrfField, Page, Time } from "./layout";

/** A change description with its `code` spans (the changelog's own notation). */
function Described({ text }: { text: string }) {
  return <>{text.split("`").map((part, i) => (i % 2 === 1 ? <code>{part}</code> : part))}</>;
}

function Change({ change }: { change: VersionChange }) {
  return (
    <li>
      <code>{change.name}</code>: <Described text={change.description} />
    </li>
  );
}

function Steps(props: { direction: "upgrade" | "downgrade"; steps: VersionStep[] }) {
  return (
    <>
      <p>
        {props.direction === "upgrade"
          ? "Moving up applies the changes of these versions:"
          : "Moving down undoes the changes of these versions:"}
      </p>
      {props.steps.map((step) => (
        <section aria-label={`Version ${step.version}`}>
          <h4>{step.version}</h4>
          {step.changes.length > 0 ? (
            <ul>
              {step.changes.map((change) => (
                <Change change={change} />
              ))}
            </ul>
          ) : (
            <p>{step.summary ?? "No breaking change."}</p>
          )}
        </section>
      ))}
    </>
  );
}

function SideBySide(props: { left: string; right: string; bodies: Record<string, Json> }) {
  const text = (version: string) => JSON.stringify(props.bodies[version], null, 2).split("\n");
  const diff = diffLines(text(props.left), text(props.right));
  const column = (version: string, lines: typeof diff.left, Mark: "del" | "ins") => (
    <figure>
      <figcaption id={`response-${version}`}>
        <code>{version}</code>
      </figcaption>
      {/* Focusable, so that a keyboard can scroll a wide response. */}
      <section aria-labelledby={`response-${version}`} tabindex={0}>
        <pre>
          {lines.map((line) =>
            line.changed ? (
              Mark === "del" ? (
                <del>{line.text}</del>
              ) : (
                <ins>{line.text}</ins>
              )
            ) : (
              `${line.text}\n`
            ),
          )}
        </pre>
      </section>
    </figure>
  );
  return (
    <div class="side-by-side">
      {column(props.left, diff.left, "del")}
      {column(props.right, diff.right, "ins")}
    </div>
  );
}

export interface VersionPageProps {
  session: DashboardSession;
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
    preview: { customerId: string; accountId: string; bodies: Record<string, Json> } | null;
    /** The environment whose data the preview shows: sandbox for a Developer in production. */
    previewFrom: Environment;
    previewLimit: number;
  } | null;
  notice?: string | undefined;
}

export function VersionPage(props: VersionPageProps) {
  const { environment, saved, target, session } = props;
  return (
    <Page
      title="API version"
      session={session}
      environment={environment}
      section="version"
      notice={props.notice}
    >
      <p>
        Requests in {environment} that send no version header get <strong>{saved}</strong>, the
        saved version. A change applies from the next request.
      </p>
      {!props.canChange && <p class="muted">{props.refusal}</p>}
      {props.rollback && (
        <section aria-labelledby="rollback-heading">
          <h2 id="rollback-heading">Roll back</h2>
          <p>
            The saved version moved from <code>{props.rollback.change.fromVersion}</code> to{" "}
            <code>{props.rollback.change.toVersion}</code> at{" "}
            <Time at={props.rollback.change.changedAt} />. It can go back until{" "}
            <Time at={props.rollback.deadline.toISOString()} />.
          </p>
          {props.canChange && (
            <form method="post" action={`/dashboard/${environment}/version/rollback`}>
              <CsrfField session={session} />
              <input type="hidden" name="change" value={String(props.rollback.change.id)} />
              <button type="submit">Roll back to {props.rollback.change.fromVersion}</button>
            </form>
          )}
        </section>
      )}
      <h2>Versions offered in {environment}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Status</th>
            <th scope="col">Compare</th>
          </tr>
        </thead>
        <tbody>
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
                    aria-current={target?.version === v.id ? "true" : undefined}
                  >
                    Compare with {v.id}
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {target && (
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
              <CsrfField session={session} />
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
      )}
      {props.history.length > 0 && (
        <>
          <h2>Recent changes</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Kind</th>
              </tr>
            </thead>
            <tbody>
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
            </tbody>
          </table>
        </>
      )}
    </Page>
  );
}
