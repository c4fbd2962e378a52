// What moving the saved version would change, on the version page: the version changes in between
// (from the change modules of the bundle) and one real statements response of the partner in both
// versions, side by side with the differing lines marked.
import type { Context } from "hono";
import type { AppEnv } from "../app/context";
import type { Environment } from "../domain/environment";
import { buildStatementPage, readStatementPage } from "../statements";
import type { JsonValue, VersionBundle, VersionChange } from "../versioning";
import { diffLines } from "./line-diff";
import { sampleStatementAccount } from "./preview-account";

/** Statements in the preview: enough to show a PDF link and a quiet cycle, short to read. */
export const PREVIEW_LIMIT = 2;

export interface VersionStep {
  version: string;
  /** The version's own note for the changelog (why it changes nothing here, say). */
  summary: string | undefined;
  changes: readonly VersionChange[];
}

/**
 * The versions between the saved one and a target with the changes each introduced, newest first:
 * gained on an upgrade (`to` is newer), given up on a downgrade. The changes are those of
 * `bundle.changesNewerThan(older)` that `changesNewerThan(newer)` does not hold.
 */
export function changesBetween(
  bundle: VersionBundle,
  from: string,
  to: string,
): { direction: "upgrade" | "downgrade"; steps: VersionStep[] } {
  const ids = bundle.versions.map((v) => v.id);
  const direction = ids.indexOf(to) < ids.indexOf(from) ? "upgrade" : "downgrade";
  const [newer, older] = direction === "upgrade" ? [to, from] : [from, to];
  const between = new Set(bundle.changesNewerThan(older));
  for (const change of bundle.changesNewerThan(newer)) between.delete(change);
  const steps = bundle.versions.slice(ids.indexOf(newer), ids.indexOf(older)).map((v) => ({
    version: v.id,
    summary: v.summary,
    changes: v.changes.filter((change) => between.has(change)),
  }));
  return { direction, steps };
}

export interface StatementPreview {
  customerId: string;
  accountId: string;
  /** The same canonical page, shaped for each requested version. */
  bodies: Record<string, JsonValue>;
}

/**
 * One page of a real account of the partner in `environment`, built by the statements route's
 * own code and reshaped for each version; null when the environment has no statement yet.
 */
export async function previewStatements(
  c: Context<AppEnv>,
  partnerId: string,
  environment: Environment,
  versions: readonly string[],
): Promise<StatementPreview | null> {
  const db = c.get("db");
  const account = await sampleStatementAccount(db, partnerId, environment);
  if (!account) return null;
  const rows = await readStatementPage(db, account.accountId, null, PREVIEW_LIMIT);
  const now = c.get("now")();
  const origin = new URL(c.req.url).origin;
  const binding = { ...account, environment };
  const canonical = await buildStatementPage(
    { signer: c.get("signer"), now, origin, shard: c.get("shard") },
    binding,
    rows,
    PREVIEW_LIMIT,
  );
  const path = `/v2/customers/${account.customerId}/accounts/${account.accountId}/statements`;
  const ctx = { path, status: 200, timestamp: now.toISOString() };
  const bodies: Record<string, JsonValue> = {};
  for (const version of versions) {
    bodies[version] = c
      .get("bundle")
      .transform(version, "StatementList", structuredClone(canonical), ctx);
  }
  return { customerId: account.customerId, accountId: account.accountId, bodies };
}

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

export function Steps(props: { direction: "upgrade" | "downgrade"; steps: VersionStep[] }) {
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

export function SideBySide(props: {
  left: string;
  right: string;
  bodies: Record<string, JsonValue>;
}) {
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
