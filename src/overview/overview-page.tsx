// /dashboard/{environment}: the environment's traffic over the last 30 days, from the request
// log's daily counts (one round trip): requests per day by status class, errors by type and
// route, and the versions each key sends, with their deprecation and sunset dates and a call to
// action while a key still sends a deprecated version.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { allow, type DashboardPage } from "../dashboard/page";
import { plural } from "../dashboard/plural";
import { Table } from "../dashboard/table";
import type { Environment } from "../domain/environment";
import { REQUEST_LOG_RETENTION_DAYS } from "../domain/request-log";
import { listApiKeys } from "../keys";
import { type ErrorGroup, logsLink, readUsage, type VersionInUse } from "../request-logs";
import type { Deprecation, VersionBundle } from "../versioning";
import { type DayBar, UsageChart } from "./usage-chart";

/** The UTC day (`YYYY-MM-DD`) `back` days before `now`'s. */
function dayBefore(now: Date, back: number): string {
  return new Date(now.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

/** The days shown, oldest first, ending today (UTC). */
function lastDays(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) => dayBefore(now, count - 1 - i));
}

/** A version as the Overview shows it: whether it is still served, and when it goes. */
function versionState(bundle: VersionBundle, version: string) {
  const served = bundle.versionOf(version);
  return { served: served !== undefined, deprecated: served?.deprecated };
}

const KEY_LIMIT = 100;

interface KeyLabel {
  name: string | null;
  masked: string;
}

function Key({ keyId, keys }: { keyId: string; keys: Map<string, KeyLabel> }) {
  const known = keys.get(keyId);
  return (
    <>
      {known?.name ? `${known.name} ` : ""}
      <code>{keyId}</code>
    </>
  );
}

function Deprecated({ deprecated }: { deprecated: Deprecation | undefined }) {
  if (!deprecated) return <span class="muted">—</span>;
  return <>{deprecated.date}</>;
}

/** The call to action: each key still sending a deprecated (or no longer served) version. */
function ActionNeeded(props: {
  environment: Environment;
  rows: (VersionInUse & { deprecated: Deprecation | undefined; served: boolean })[];
  keys: Map<string, KeyLabel>;
}) {
  if (props.rows.length === 0) return null;
  return (
    <section class="callout" aria-labelledby="action-needed">
      <h2 id="action-needed">Action needed: deprecated versions in use</h2>
      <ul>
        {props.rows.map((row) => (
          <li>
            Key <Key keyId={row.keyId} keys={props.keys} /> sent <code>{row.version}</code>{" "}
            {row.served
              ? `(deprecated since ${row.deprecated?.date}${row.deprecated?.sunset ? `, sunset ${row.deprecated.sunset}` : ""})`
              : "(no longer served)"}{" "}
            on {row.lastDay},{" "}
            {row.versionSource === "header" ? "named in its" : "by the saved version, without a"}{" "}
            version header.{" "}
            {row.versionSource === "header" ? (
              "Change the version header your integration sends."
            ) : (
              <a href={`/dashboard/${props.environment}/version`}>Upgrade the saved version</a>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Errors(props: { environment: Environment; errors: ErrorGroup[] }) {
  if (props.errors.length === 0)
    return <p>No errors in the last {REQUEST_LOG_RETENTION_DAYS} days.</p>;
  return (
    <Table
      caption="Errors by type and route, most frequent first"
      columns={["Error type", "Route", "Requests", "Last seen"]}
    >
      {props.errors.map((e) => (
        <tr>
          <td>
            <code>{e.errorType}</code>
          </td>
          <td>
            <a
              href={logsLink(props.environment, { statusClass: e.statusClass, route: e.route })}
              aria-label={`${e.errorType} on ${e.route}: see the requests`}
            >
              <code>{e.route}</code>
            </a>
          </td>
          <td>{e.requests.toLocaleString("en")}</td>
          <td>{e.lastDay}</td>
        </tr>
      ))}
    </Table>
  );
}

function Versions(props: {
  environment: Environment;
  rows: (VersionInUse & { deprecated: Deprecation | undefined; served: boolean })[];
  keys: Map<string, KeyLabel>;
}) {
  if (props.rows.length === 0)
    return <p>No requests in the last {REQUEST_LOG_RETENTION_DAYS} days.</p>;
  return (
    <Table
      caption="API versions in use, per key"
      columns={["Key", "Version", "Chosen by", "Requests", "Last used", "Deprecated", "Sunset"]}
    >
      {props.rows.map((row) => (
        <tr>
          <td>
            <a href={logsLink(props.environment, { keyId: row.keyId, version: row.version })}>
              <Key keyId={row.keyId} keys={props.keys} />
            </a>
          </td>
          <td>
            <code>{row.version}</code>
            {!row.served && " (no longer served)"}
          </td>
          <td>{row.versionSource === "header" ? "Version header" : "Saved version"}</td>
          <td>{row.requests.toLocaleString("en")}</td>
          <td>{row.lastDay}</td>
          <td>
            <Deprecated deprecated={row.deprecated} />
          </td>
          <td>{row.deprecated?.sunset ?? <span class="muted">—</span>}</td>
        </tr>
      ))}
    </Table>
  );
}

export const overviewPage: DashboardPage = {
  routes: new Hono<AppEnv>().get(
    // Only an environment's own address: `/dashboard/team` and the like are other pages. (A bare
    // alternation would match the start of any longer path.)
    "/:environment{(?:sandbox|production)}",
    allow("overview.view"),
    async (c) => {
      const environment = c.var.environment;
      const { partnerId } = c.var.session.user;
      const scope = { partnerId, environment };
      const now = c.get("now")();
      const days = lastDays(now, REQUEST_LOG_RETENTION_DAYS);
      const db = c.get("db");
      const [usage, keyList] = await Promise.all([
        // From the first day shown.
        readUsage(db, scope, dayBefore(now, REQUEST_LOG_RETENTION_DAYS - 1)),
        listApiKeys(db, partnerId, environment, null, KEY_LIMIT),
      ]);
      const keys = new Map(
        (keyList?.keys ?? []).map((k) => [k.keyId, { name: k.name, masked: k.masked }]),
      );
      const byDay = new Map<string, Record<number, number>>();
      for (const { day, statusClass, requests } of usage.days) {
        const counts = byDay.get(day) ?? {};
        counts[statusClass] = (counts[statusClass] ?? 0) + requests;
        byDay.set(day, counts);
      }
      const bars: DayBar[] = days.map((day) => ({ day, byClass: byDay.get(day) ?? {} }));
      const total = usage.days.reduce((n, d) => n + d.requests, 0);
      const failed = usage.days
        .filter((d) => d.statusClass >= 4)
        .reduce((n, d) => n + d.requests, 0);
      const bundle = c.get("bundle");
      const versions = usage.versions
        .map((v) => ({ ...v, ...versionState(bundle, v.version) }))
        .sort((a, b) =>
          a.keyId === b.keyId ? (a.version < b.version ? 1 : -1) : a.keyId < b.keyId ? -1 : 1,
        );
      const deprecatedInUse = versions.filter((v) => v.deprecated !== undefined || !v.served);
      return c.render(
        <>
          <ActionNeeded environment={environment} rows={deprecatedInUse} keys={keys} />
          <p>
            {plural(total, "request")} in the last {REQUEST_LOG_RETENTION_DAYS} days,{" "}
            {failed === 1 ? "1 of them an error" : `${failed.toLocaleString("en")} of them errors`}.{" "}
            <a href={`/dashboard/${environment}/logs`}>See the request log</a>. Requests appear a
            few seconds after they are made; requests that failed authentication have no partner and
            are not counted.
          </p>
          <UsageChart days={bars} />
          <h2>Errors by type and route</h2>
          <Errors environment={environment} errors={usage.errors} />
          <h2>Versions in use</h2>
          <Versions environment={environment} rows={versions} keys={keys} />
        </>,
        { title: "Overview", section: "" },
      );
    },
  ),
  nav: { section: "", label: "Overview", action: "overview.view", perEnvironment: true },
};
