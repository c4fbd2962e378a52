// /dashboard/{environment}/logs: the environment's partner API requests, newest first, 50 a page
// by keyset, filtered by query parameters (log-filters.ts), and a search by `x-request-id`;
// /dashboard/{environment}/logs/{request_id}: one request in full, with the bodies the log keeps.
// Production requests name customers (ids in paths, bodies, client addresses): they follow the
// data browser's rule. Admins see them, each view written to the audit log first; Developers see
// them with every identifier masked (masking.ts).
import { type Context, Hono } from "hono";
import type { AppEnv } from "../app/context";
import { ApiError } from "../app/errors";
import { auditDataView } from "../dashboard/data-audit";
import { Time } from "../dashboard/layout";
import { allow, type DashboardPage } from "../dashboard/page";
import { Table } from "../dashboard/table";
import type { Environment } from "../domain/environment";
import { seesCustomerData } from "../domain/permissions";
import {
  isLogId,
  isRequestId,
  REQUEST_LOG_RETENTION_DAYS,
  type RequestLogRecord,
  statusClassOf,
} from "../domain/request-log";
import { listApiKeys } from "../keys";
import { type LogQuery, logsLink, readLogQuery } from "./log-filters";
import { readLogPage, readRequestByLogId, readRequestsById } from "./log-store";
import { maskedRecord } from "./masking";

const PAGE_SIZE = 50;
const METHODS = ["GET", "POST", "PUT", "DELETE"];

/** What a reader needs to know of what the log holds, and of what it is shown. */
function Retention({ view }: { view: LogView }) {
  return (
    <>
      <p class="muted">
        Every request of an API key of this environment, kept {REQUEST_LOG_RETENTION_DAYS} days. A
        request appears a few seconds after its response. Requests that failed authentication have
        no partner and are not recorded. Bodies of writes and of errors are kept with secrets
        redacted.
      </p>
      {view === "masked" && (
        <p class="notice">
          Production requests name your customers: identifiers are masked here (paths show their
          route, bodies their field names, client addresses are hidden). Admins see them in full,
          and each of their views is recorded in the audit log.
        </p>
      )}
      {view === "audited" && (
        <p class="notice">Your views of production requests are recorded in the audit log.</p>
      )}
    </>
  );
}

/** How the signed-in user sees the environment's requests. */
type LogView = "full" | "audited" | "masked";

/**
 * The data browser's rule: production requests in full for those who may see production
 * customers' data (each view audited, before anything is read), masked for the others.
 */
async function logView(
  c: Context<AppEnv>,
  page: "request_log" | "request",
  target: string | null,
): Promise<LogView> {
  const { environment } = c.var;
  if (environment !== "production") return "full";
  if (!seesCustomerData(c.var.session.user.role, environment)) return "masked";
  await auditDataView(c, page, target);
  return "audited";
}

/** The records as `view` shows them; a masked view keys digests with the signing secret. */
function shownAs(
  c: Context<AppEnv>,
  view: LogView,
  records: RequestLogRecord[],
): RequestLogRecord[] {
  const secret = c.env.SIGNING_SECRET ?? "";
  return view === "masked" ? records.map((r) => maskedRecord(r, secret)) : records;
}

/**
 * Where a listed request's page is: by its `x-request-id`, or, in a masked view (which hides the
 * id), by its log id.
 */
function requestLink(environment: Environment, view: LogView, record: RequestLogRecord): string {
  return view === "masked"
    ? `/dashboard/${environment}/logs/entries/${record.log_id}`
    : `/dashboard/${environment}/logs/${encodeURIComponent(record.request_id)}`;
}

function Status({ record }: { record: RequestLogRecord }) {
  return (
    <span class={statusClassOf(record.status) >= 4 ? "status-error" : undefined}>
      {record.status}
      {record.error_type && (
        <>
          {" "}
          <code>{record.error_type}</code>
        </>
      )}
    </span>
  );
}

function Select(props: {
  name: string;
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
}) {
  const known = props.options.some((o) => o.value === props.value);
  return (
    <label>
      {props.label}
      <select name={props.name}>
        <option value="">Any</option>
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === props.value}>
            {o.label}
          </option>
        ))}
        {props.value !== undefined && !known && (
          <option value={props.value} selected>
            {props.value}
          </option>
        )}
      </select>
    </label>
  );
}

/** A `from`/`to` value as a date-time field shows it (UTC, to the minute). */
function localValue(at: Date | undefined): string | undefined {
  return at?.toISOString().slice(0, 16);
}

function Filters(props: {
  environment: Environment;
  query: LogQuery;
  keys: { value: string; label: string }[];
  versions: string[];
  routes: readonly string[];
}) {
  const { sent, filters } = props.query;
  return (
    <>
      <form method="get" action={`/dashboard/${props.environment}/logs`} class="search">
        <label for="request-id">Find a request by its x-request-id</label>
        <input
          type="text"
          id="request-id"
          name="request_id"
          value={props.query.requestId ?? ""}
          spellcheck={false}
          autocomplete="off"
        />
        <button type="submit">Find</button>
      </form>
      <form method="get" action={`/dashboard/${props.environment}/logs`} class="filters">
        <fieldset>
          <legend>Filter</legend>
          <Select
            name="status"
            label="Status"
            value={sent.status}
            options={["2xx", "4xx", "5xx"].map((s) => ({ value: s, label: s }))}
          />
          <Select
            name="method"
            label="Method"
            value={sent.method}
            options={METHODS.map((m) => ({ value: m, label: m }))}
          />
          <Select
            name="route"
            label="Route"
            value={sent.route}
            options={props.routes.map((r) => ({ value: r, label: r }))}
          />
          <Select name="key" label="Key" value={sent.key} options={props.keys} />
          <Select
            name="version"
            label="Version"
            value={sent.version}
            options={[
              ...props.versions.map((v) => ({ value: v, label: v })),
              { value: "none", label: "None (refused before one was chosen)" },
            ]}
          />
          <label>
            From (UTC)
            <input type="datetime-local" name="from" value={localValue(filters.from)} />
          </label>
          <label>
            To (UTC)
            <input type="datetime-local" name="to" value={localValue(filters.to)} />
          </label>
          <button type="submit">Filter</button>{" "}
          <a href={`/dashboard/${props.environment}/logs`}>Clear</a>
        </fieldset>
      </form>
    </>
  );
}

function LogTable(props: { environment: Environment; view: LogView; records: RequestLogRecord[] }) {
  return (
    <Table
      caption="Requests, newest first"
      columns={["When", "Request", "Status", "Version", "Key", "Latency"]}
    >
      {props.records.map((r) => (
        <tr>
          <td>
            <Time at={r.at} />
          </td>
          <td>
            <a href={requestLink(props.environment, props.view, r)} class="mono">
              {r.method} {r.path.length > 80 ? `${r.path.slice(0, 79)}…` : r.path}
            </a>
          </td>
          <td>
            <Status record={r} />
          </td>
          <td>{r.version ?? <span class="muted">—</span>}</td>
          <td>
            {r.key_name ? `${r.key_name} ` : ""}
            <code>{r.key_id}</code>
          </td>
          <td>{r.latency_ms} ms</td>
        </tr>
      ))}
    </Table>
  );
}

/** A kept body, pretty-printed when it is JSON; focusable, so a keyboard can scroll it. */
function Body({ text, label }: { text: string; label: string }) {
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON (or cut): as kept.
  }
  return (
    <section class="body" tabindex={0} aria-label={label}>
      <pre>{shown}</pre>
    </section>
  );
}

function Field(props: { name: string; children: unknown }) {
  return (
    <>
      <dt>{props.name}</dt>
      <dd>{props.children ?? <span class="muted">—</span>}</dd>
    </>
  );
}

function RequestDetail({ record, view }: { record: RequestLogRecord; view: LogView }) {
  const code = (text: string | null) => (text === null ? null : <code>{text}</code>);
  return (
    <section aria-labelledby={`request-${record.log_id}`}>
      <h2 id={`request-${record.log_id}`} class="mono">
        {record.method} {record.path}
      </h2>
      <dl class="fields">
        <Field name="Time">
          <Time at={record.at} />
        </Field>
        <Field name="Request id">{code(record.request_id)}</Field>
        <Field name="Status">
          <Status record={record} />
        </Field>
        <Field name="Error message">{record.error_message}</Field>
        <Field name="Route">{code(record.route)}</Field>
        <Field name="API key">
          {record.key_name ? `${record.key_name} ` : ""}
          <code>{record.key_id}</code>
        </Field>
        <Field name="Version">
          {record.version === null
            ? null
            : `${record.version} (${record.version_source === "header" ? "from the version header" : "the saved version"})`}
        </Field>
        <Field name="Latency">{`${record.latency_ms} ms`}</Field>
        <Field name="D1 round trips">{String(record.d1_round_trips)}</Field>
        <Field name="D1 rows read">{String(record.d1_rows_read)}</Field>
        <Field
          name={
            view === "masked"
              ? "Idempotency-Key (keyed digest: equal for requests sent with one key)"
              : "Idempotency-Key (SHA-256, first 16 hex digits)"
          }
        >
          {code(record.idempotency_key)}
        </Field>
        <Field name="Replayed">
          {record.idempotency_key === null ? null : record.idempotent_replayed ? "Yes" : "No"}
        </Field>
        <Field name="Client IP">{code(record.client_ip)}</Field>
        <Field name="User agent">{record.user_agent}</Field>
      </dl>
      <h3>Request body</h3>
      {record.request_body === null ? (
        <p class="muted">None.</p>
      ) : (
        <Body text={record.request_body} label="Request body" />
      )}
      <h3>Response body</h3>
      {record.response_body !== null ? (
        <Body text={record.response_body} label="Response body" />
      ) : (
        <p class="muted">
          {record.status >= 400 ? "None." : "Not kept: only error responses are."}
        </p>
      )}
    </section>
  );
}

/** The list page: what the log keeps, the filters, one page of requests and the way to the next. */
function LogList(props: {
  environment: Environment;
  query: LogQuery;
  view: LogView;
  page: { records: RequestLogRecord[]; hasMore: boolean };
  filters: { keys: { value: string; label: string }[]; versions: string[]; routes: string[] };
}) {
  const { environment, query, page } = props;
  const last = page.records.at(-1);
  const filtered = query.requestId === null ? query.filters : { requestId: query.requestId };
  return (
    <>
      <Retention view={props.view} />
      <Filters environment={environment} query={query} {...props.filters} />
      {page.records.length === 0 ? (
        <p role="status">
          {query.requestId === null
            ? "No requests match."
            : `No request with the id ${query.requestId} in the last ${REQUEST_LOG_RETENTION_DAYS} days.`}
        </p>
      ) : (
        <LogTable environment={environment} view={props.view} records={page.records} />
      )}
      <p class="pages">
        {query.before !== null && <a href={logsLink(environment, filtered)}>Newest requests</a>}{" "}
        {page.hasMore && last && (
          <a href={logsLink(environment, filtered, last.log_id)}>Older requests</a>
        )}
      </p>
    </>
  );
}

/** One request id's page: every request sent with it, newest first, each in full. */
function RequestPage(props: {
  environment: Environment;
  view: LogView;
  records: RequestLogRecord[];
}) {
  const { records } = props;
  return (
    <>
      <p>
        <a href={`/dashboard/${props.environment}/logs`}>Back to the request log</a>
      </p>
      {props.view === "masked" && (
        <p class="notice">
          Identifiers of production requests are masked: Admins see them in full, and each of their
          views is recorded in the audit log.
        </p>
      )}
      {records.length > 1 && (
        <p>
          {records.length} requests were sent with this <code>x-request-id</code>, newest first.
        </p>
      )}
      {records.map((record) => (
        <RequestDetail record={record} view={props.view} />
      ))}
    </>
  );
}

/** The request log's pages; its route filter offers `routePaths` (the API's path patterns). */
export function logsPage(routePaths: readonly string[]): DashboardPage {
  const routePatterns = [...new Set(routePaths), "(unmatched)"];
  return {
    routes: new Hono<AppEnv>()
      .get("/:environment/logs", allow("logs.view"), async (c) => {
        const environment = c.var.environment;
        const { partnerId } = c.var.session.user;
        const scope = { partnerId, environment };
        const query = readLogQuery(c);
        const view = await logView(c, "request_log", query.requestId);
        const db = c.get("db");
        const [read, keyList] = await Promise.all([
          query.requestId === null
            ? readLogPage(db, scope, query.filters, query.before, PAGE_SIZE)
            : readRequestsById(db, scope, query.requestId).then((records) => ({
                records,
                hasMore: false,
              })),
          listApiKeys(db, partnerId, environment, null, 100),
        ]);
        const page = { ...read, records: shownAs(c, view, read.records) };
        const keys = (keyList?.keys ?? []).map((k) => ({
          value: k.keyId,
          label: `${k.name ? `${k.name} · ` : ""}${k.masked} (${k.keyId})`,
        }));
        return c.render(
          <LogList
            environment={environment}
            query={query}
            view={view}
            page={page}
            filters={{
              keys,
              versions: c.get("bundle").versions.map((v) => v.id),
              routes: routePatterns,
            }}
          />,
          { title: "Request log", section: "logs" },
        );
      })
      .get("/:environment/logs/:request_id", allow("logs.view"), async (c) => {
        const environment = c.var.environment;
        const requestId = c.req.param("request_id");
        const scope = { partnerId: c.var.session.user.partnerId, environment };
        const view = isRequestId(requestId) ? await logView(c, "request", requestId) : "full";
        const records = isRequestId(requestId)
          ? shownAs(c, view, await readRequestsById(c.get("db"), scope, requestId))
          : [];
        if (records.length === 0) {
          throw new ApiError(
            "NOT_FOUND_ERROR",
            `No request with the id ${requestId} in ${environment} in the last ` +
              `${REQUEST_LOG_RETENTION_DAYS} days. A request appears a few seconds after its ` +
              "response; requests that failed authentication are not recorded.",
          );
        }
        return c.render(<RequestPage environment={environment} view={view} records={records} />, {
          title: `Request ${requestId}`,
          section: "logs",
        });
      })
      .get("/:environment/logs/entries/:log_id", allow("logs.view"), async (c) => {
        const environment = c.var.environment;
        const logId = c.req.param("log_id");
        const scope = { partnerId: c.var.session.user.partnerId, environment };
        const view = isLogId(logId) ? await logView(c, "request", logId) : "full";
        const record = isLogId(logId) ? await readRequestByLogId(c.get("db"), scope, logId) : null;
        if (!record) {
          throw new ApiError(
            "NOT_FOUND_ERROR",
            `No such request in ${environment} in the last ${REQUEST_LOG_RETENTION_DAYS} days.`,
          );
        }
        const records = shownAs(c, view, [record]);
        return c.render(<RequestPage environment={environment} view={view} records={records} />, {
          title: "Request",
          section: "logs",
        });
      }),
    nav: { section: "logs", label: "Request log", action: "logs.view", perEnvironment: true },
  };
}
