// What a Developer sees of a production request: the request log's production details follow the
// data browser's rule (Admins see them, and each view is audited), and a Developer sees every
// identifier masked instead. The path becomes its route pattern (`/v2/customers/{customer_id}`)
// with the query's values masked; bodies keep their shape and field names, and the values of
// fields that describe the request rather than a customer (`type`, `status`, `param`, …); text
// keeps its words, with quoted values and anything shaped like an id masked; the client's address,
// its own `x-request-id` and its User-Agent (either may name a customer or a device) are hidden,
// and the Idempotency-Key's digest is shown keyed with a service secret.
import { maskedIdempotencyDigest, type RequestLogRecord } from "../domain/request-log";

export const MASK = "•••";

/** Fields whose values describe the request, never a customer: shown as they are. */
const PLAIN_FIELDS = new Set([
  "type",
  "error",
  "status",
  "param",
  "environment",
  "version",
  "currency",
  "limit",
  "has_more",
]);

/** Text that names something: quoted values, ids (`cus_…`, UUIDs), addresses, long numbers. */
const IDENTIFIERS =
  /"[^"]*"|'[^']*'|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_-]+\b|[\w.+-]+@[\w-]+(\.[\w-]+)+|\b(?=[A-Za-z0-9-]*\d)[A-Za-z0-9-]{6,}\b/g;

/** Free text (an error message) with its identifiers masked. */
function maskText(text: string): string {
  return text.replace(IDENTIFIERS, (found) =>
    found.startsWith('"') ? `"${MASK}"` : found.startsWith("'") ? `'${MASK}'` : MASK,
  );
}

function maskJson(value: unknown, field: string | null): unknown {
  if (Array.isArray(value)) return value.map((item) => maskJson(item, field));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([name, inner]) => [name, maskJson(inner, name)]),
    );
  }
  if (field !== null && PLAIN_FIELDS.has(field)) return value;
  if (typeof value === "string") {
    return field === "message" || field === "details" ? maskText(value) : MASK;
  }
  return typeof value === "number" ? MASK : value;
}

/** A kept body with its values masked: JSON field by field, anything else as text. */
function maskBody(text: string): string {
  try {
    return JSON.stringify(maskJson(JSON.parse(text), null));
  } catch {
    return maskText(text);
  }
}

/** The request's path as its route pattern, the query's values masked. */
function maskPath(record: Pick<RequestLogRecord, "path" | "route">): string {
  const at = record.path.indexOf("?");
  const pathname = at === -1 ? record.path : record.path.slice(0, at);
  const search = at === -1 ? "" : record.path.slice(at + 1);
  const pattern =
    record.route === "(unmatched)"
      ? pathname
          .split("/")
          .map((segment, i) => (i <= 2 ? segment : MASK))
          .join("/")
      : record.route.replace(/:(\w+)/g, "{$1}");
  if (search === "") return pattern;
  const names = search.split("&").map((pair) => pair.split("=")[0] ?? "");
  return `${pattern}?${names.map((name) => `${name}=${MASK}`).join("&")}`;
}

/**
 * The record as a Developer sees it in production: identifiers masked, the address, request id
 * and User-Agent hidden, the Idempotency-Key's digest keyed with `secret`.
 */
export function maskedRecord(record: RequestLogRecord, secret: string): RequestLogRecord {
  return {
    ...record,
    request_id: MASK,
    path: maskPath(record),
    error_message: record.error_message === null ? null : maskText(record.error_message),
    idempotency_key:
      record.idempotency_key === null
        ? null
        : maskedIdempotencyDigest(secret, record.partner_id, record.idempotency_key),
    client_ip: record.client_ip === null ? null : MASK,
    user_agent: record.user_agent === null ? null : MASK,
    request_body: record.request_body === null ? null : maskBody(record.request_body),
    response_body: record.response_body === null ? null : maskBody(record.response_body),
  };
}
