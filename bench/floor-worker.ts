// The floor: a bare Worker running the statement the service sends for the same read or write,
// with no framework, no auth, no versions, no link signing. Every page and write here is taken
// from the service's own query builders (bench/floor-queries.ts), never written out by hand, so a
// floor cannot drift from the query it stands under; test/bench/floor-plans.test.ts checks that
// each goes through the service's index. Served only by the bench, next to the production bundle;
// it is its own entry point, so nothing here can reach a production deploy.
//
//   /hello            static JSON, no storage: what the runtime alone costs
//   /statements       the statements page of src/statements/statement-pages.ts on its own
//   /one-trip         diagnostic: the page with the service's other reads in the same batch (key
//                     and partner, the account's owner), checked in code afterwards
//   /two-trips        diagnostic: the same checks in the service's earlier two round trips
//   /line-items       a statement's line items page (src/statements/statement-reads.ts) on its own
//   /payment-methods  a customer's cards page (src/payment-methods/card-page.ts) on its own
//   /orders           the scope's orders page (src/orders/order-page.ts) on its own
//   /intents          a customer's transaction intents page (src/transaction-intents/intent-page.ts)
//   /rewards-categories  an account's rewards categories (src/rewards/rewards-store.ts) on its own
//   POST /order-events  an order event's writes (orderEventWrites, in sandbox) in one batch
//
// Every read path counts the request against the two rate limits the service counts a /v2
// request against (per key and per partner: two `limit()` calls, started before the D1 query and
// awaited with it, as the service does) when the limiter bindings are bound; the bench also
// serves this Worker without them, the floor as it was before the service had limits.
//
//   POST /import      the import's floor: the rows an import writes (each statement, its
//                     `statement.created` event and its line items) in multi-row INSERTs of up to
//                     D1's 100 bound parameters each, all in one batch; no validation, no reads
import type { ReadScope } from "../src/db/customers";
import type { Environment } from "../src/domain/environment";
import { rowWeight } from "../src/sandbox-budgets";
import {
  FLOOR_QUERIES,
  type ListRead,
  type MarkedStatement,
  markedOrderEventWrites,
  type OrderEventValue,
  queryBuilder,
  type Statement,
} from "./floor-queries";

/** The Workers Rate Limiting binding's one method. */
interface RateLimiterLike {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

interface FloorEnv {
  DB: D1Database;
  /** The service's limiters (src/app/rate-policies.ts), bound as the service's are. */
  PARTNER_KEY_RATE_LIMITER?: RateLimiterLike;
  PARTNER_RATE_LIMITER?: RateLimiterLike;
}

const JSON_HEADERS = { "content-type": "application/json" };
const HELLO = JSON.stringify({ hello: "world" });
const reject = (status: number) => new Response("{}", { status, headers: JSON_HEADERS });

// ---- The import's floor -------------------------------------------------------------------------

/** D1's bound on the values of one statement. */
const MAX_BOUND = 100;

/** The columns an import writes of a statement, in the order the floor binds them. */
const IMPORTED = [
  "statement_id",
  "account_id",
  "period_start_date",
  "period_end_date",
  "due_date",
  "currency",
  "statement_balance",
  "minimum_due",
  "previous_balance",
  "purchases",
  "payments",
  "credits",
  "refunds",
  "interest",
  "fees",
  "overdue_amount",
] as const;

const LINE_ITEM_COLUMNS = [
  "statement_id",
  "line_item_id",
  "type",
  "posted_at",
  "transaction_date",
  "description",
  "amount",
  "merchant_name",
  "merchant_category_code",
  "merchant_city",
  "merchant_country",
  "original_amount",
  "original_currency",
  "card_last4",
] as const;

/** A line item as the import takes it, its dates in the stored form (the bench sends them so). */
interface LineItemInput {
  line_item_id: string;
  type: string;
  posted_at: string;
  transaction_date?: string;
  description: string;
  amount: number;
  merchant?: { name: string; category_code: string; city?: string; country?: string };
  original_amount?: number;
  original_currency?: string;
  card_last4?: string;
}

function lineItemRow(statementId: unknown, item: LineItemInput): unknown[] {
  return [
    statementId,
    item.line_item_id,
    item.type,
    item.posted_at,
    item.transaction_date ?? null,
    item.description,
    item.amount,
    item.merchant?.name ?? null,
    item.merchant?.category_code ?? null,
    item.merchant?.city ?? null,
    item.merchant?.country ?? null,
    item.original_amount ?? null,
    item.original_currency ?? null,
    item.card_last4 ?? null,
  ];
}

/** `(?, ?, …)` of `width` values. */
const tuple = (width: number) => `(${Array.from({ length: width }, () => "?").join(", ")})`;

/**
 * Multi-row INSERTs of `rows` (each `width` values after `shared` values bound once), as many rows
 * per statement as D1's bound on values allows; `sql(tuples)` writes one statement's SQL.
 */
function multiRow(
  db: D1Database,
  rows: unknown[][],
  width: number,
  sql: (tuples: string) => string,
  shared: unknown[] = [],
): D1PreparedStatement[] {
  const perStatement = Math.floor((MAX_BOUND - shared.length) / width);
  const prepared = new Map<number, D1PreparedStatement>();
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    let statement = prepared.get(chunk.length);
    if (!statement) {
      statement = db.prepare(sql(Array.from(chunk, () => tuple(width)).join(", ")));
      prepared.set(chunk.length, statement);
    }
    statements.push(statement.bind(...shared, ...chunk.flat()));
  }
  return statements;
}

/** An event id shaped like the service's (`evt_` and 24 hex digits). */
function eventId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `evt_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The import's floor: what D1 itself takes to insert the same rows in one batch, each statement,
 * its event (its owner copied from the account row, as the import copies it) and its line items.
 * The bench sends dates already in the stored form, so the rows match the import's byte for byte.
 */
async function importFloor(request: Request, env: FloorEnv): Promise<Response> {
  // The bench's own request: an import body, as bench/import-data.ts writes it.
  const body = (await request.json()) as { statements?: Record<string, unknown>[] };
  const rows = body.statements ?? [];
  const createdAt = new Date().toISOString();
  const statementRows = rows.map((row) => [...IMPORTED.map((c) => row[c] ?? null), createdAt]);
  const eventRows = rows.map((row) => [eventId(), row.statement_id, row.account_id]);
  const lineItemRows = rows.flatMap((row) =>
    // The import body's line items, as the bench wrote them.
    ((row.line_items as LineItemInput[] | undefined) ?? []).map((item) =>
      lineItemRow(row.statement_id, item),
    ),
  );
  const writes = [
    ...multiRow(
      env.DB,
      statementRows,
      IMPORTED.length + 1,
      (tuples) => `INSERT INTO statements (${IMPORTED.join(", ")}, created_at) VALUES ${tuples}`,
    ),
    ...multiRow(
      env.DB,
      eventRows,
      3,
      (tuples) =>
        "INSERT INTO events (event_id, type, statement_id, account_id, customer_id, partner_id, " +
        "environment, merchant_key, created_at) SELECT v.column1, 'statement.created', " +
        "v.column2, a.account_id, a.customer_id, a.partner_id, a.environment, a.merchant_key, ?1 " +
        `FROM (VALUES ${tuples}) AS v JOIN accounts AS a ON a.account_id = v.column3`,
      [createdAt],
    ),
    ...multiRow(
      env.DB,
      lineItemRows,
      LINE_ITEM_COLUMNS.length,
      (tuples) =>
        `INSERT INTO statement_line_items (${LINE_ITEM_COLUMNS.join(", ")}) VALUES ${tuples}`,
    ),
  ];
  const started = performance.now();
  const results = await env.DB.batch(writes);
  const headers = {
    ...JSON_HEADERS,
    "x-d1-ms": String(performance.now() - started),
    "x-d1-size-after": String(results.at(-1)?.meta?.size_after ?? ""),
    "x-d1-rows-written": String(results.reduce((n, r) => n + (r.meta?.rows_written ?? 0), 0)),
  };
  return new Response(
    JSON.stringify({ imported: { statements: rows.length, line_items: lineItemRows.length } }),
    { headers },
  );
}

// ---- The reads ----------------------------------------------------------------------------------

/**
 * Counts the request against the per-key and the per-partner limit, both at once; resolves to
 * false once either is over. True at once when the limiters are not bound.
 */
async function withinLimits(env: FloorEnv, key: string, partner: string): Promise<boolean> {
  if (!env.PARTNER_KEY_RATE_LIMITER || !env.PARTNER_RATE_LIMITER) return true;
  const [perKey, perPartner] = await Promise.all([
    env.PARTNER_KEY_RATE_LIMITER.limit({ key }),
    env.PARTNER_RATE_LIMITER.limit({ key: partner }),
  ]);
  return perKey.success && perPartner.success;
}

const prepare = (env: FloorEnv, { sql, params }: Statement) => env.DB.prepare(sql).bind(...params);

/** A page of `limit` rows from `limit + 1` read, with whether more follow. */
function pageOf(rows: unknown[], limit: number, headers: Record<string, string>): Response {
  const body = { data: rows.slice(0, limit), has_more: rows.length > limit };
  return new Response(JSON.stringify(body), { headers });
}

/** The rows of a `SELECT … AS page` statement: one JSON array in one cell. */
async function jsonPage(env: FloorEnv, statement: Statement) {
  const { results, meta } = await prepare(env, statement).all<{ page: string }>();
  // The page statements of floor-queries.ts select one JSON array as `page`.
  const rows = JSON.parse(results[0]?.page ?? "[]") as unknown[];
  return { rows, rowsRead: meta.rows_read };
}

/** The position a floor continuation is sent (`after_*`), or null for a first page. */
function position(query: URLSearchParams, first: string): [string, string] | null {
  const a = query.get(first);
  const b = query.get("after_id");
  return a !== null && b !== null ? [a, b] : null;
}

/** A page of an account's statements, and nothing else. */
async function statementsFloor(query: URLSearchParams, env: FloorEnv): Promise<Response> {
  const accountId = query.get("account") ?? "";
  const limit = Number(query.get("limit") ?? "10");
  const after = position(query, "after_end");
  const statement = FLOOR_QUERIES.statements(
    accountId,
    after && { periodEndDate: after[0], statementId: after[1] },
    limit,
  );
  // The floor has no key, so the account stands in for both the key and its partner.
  const limited = withinLimits(env, accountId, `partner:${accountId}`);
  const { rows, rowsRead } = await jsonPage(env, statement);
  if (!(await limited)) return reject(429);
  // What the page query alone reads, for the bench's per-query cost figures.
  return pageOf(rows, limit, { ...JSON_HEADERS, "x-d1-rows-read": String(rowsRead) });
}

/** A page of one statement's line items in document order. */
async function lineItemsFloor(query: URLSearchParams, env: FloorEnv): Promise<Response> {
  const statementId = query.get("statement") ?? "";
  const limit = Number(query.get("limit") ?? "10");
  const after = position(query, "after_posted");
  const statement = FLOOR_QUERIES.lineItems(
    statementId,
    after && { postedAt: after[0], lineItemId: after[1] },
    limit,
  );
  const limited = withinLimits(env, statementId, `partner:${statementId}`);
  const { rows, rowsRead } = await jsonPage(env, statement);
  if (!(await limited)) return reject(429);
  return pageOf(rows, limit, { ...JSON_HEADERS, "x-d1-rows-read": String(rowsRead) });
}

/** The read scope a floor request names (the service takes it from the key). */
function scopeOf(query: URLSearchParams): ReadScope {
  return {
    partnerId: query.get("partner") ?? "",
    // Any other text matches no row, as in the service.
    environment: (query.get("environment") ?? "sandbox") as Environment,
    merchantKey: query.get("merchant") ?? "",
  };
}

type ListFloor = "paymentMethods" | "orders" | "intents";
const LIST_FLOORS: Record<string, ListFloor> = {
  "/payment-methods": "paymentMethods",
  "/orders": "orders",
  "/intents": "intents",
};

/** A page of one of the card programme's lists. */
async function listFloor(
  list: ListFloor,
  query: URLSearchParams,
  env: FloorEnv,
): Promise<Response> {
  const read: ListRead = {
    scope: scopeOf(query),
    customerId: query.get("customer") ?? "",
    limit: Number(query.get("limit") ?? "10"),
  };
  const limited = withinLimits(env, read.customerId, `partner:${read.scope.partnerId}`);
  const { rows, rowsRead } = await jsonPage(env, FLOOR_QUERIES[list](read));
  if (!(await limited)) return reject(429);
  return pageOf(rows, read.limit, { ...JSON_HEADERS, "x-d1-rows-read": String(rowsRead) });
}

/** An account's rewards categories: the product's whole list, never paged. */
async function rewardsFloor(query: URLSearchParams, env: FloorEnv): Promise<Response> {
  const accountId = query.get("account") ?? "";
  const statement = FLOOR_QUERIES.rewardsCategories(accountId);
  const limited = withinLimits(env, accountId, `partner:${accountId}`);
  const { results, meta } = await prepare(env, statement).all<{ categories: string | null }>();
  if (!(await limited)) return reject(429);
  if (!results[0]) return reject(404);
  // The products table's rewards_categories: a JSON array the operator import wrote.
  const data = JSON.parse(results[0].categories ?? "[]") as unknown[];
  return new Response(JSON.stringify({ data, has_more: false }), {
    headers: { ...JSON_HEADERS, "x-d1-rows-read": String(meta.rows_read) },
  });
}

// ---- The order event's writes -------------------------------------------------------------------

/** The order event's writes, built for the UTC day `day`. */
let eventWrites: { day: string; writes: MarkedStatement<OrderEventValue>[] } | undefined;

/** An order event id shaped like the service's (`oev_` and a time-ordered suffix). */
function orderEventId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  const random = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `oev_${Date.now().toString(36).padStart(10, "0")}${random}`;
}

/**
 * A capture of `amount` on an order: the service's writes (the event, conditional on its order's
 * room and the sandbox budgets'; the order's sum and the partner's usage, conditional on the
 * event) in one batch; 409 when the insert changed nothing, as the service answers then.
 */
async function orderEventFloor(
  request: Request,
  query: URLSearchParams,
  env: FloorEnv,
): Promise<Response> {
  // The bench's own request body: the fields of an order event create it sends the service.
  const body = (await request.json()) as {
    order_id: string;
    amount: number;
    network_transaction_id: string;
  };
  const now = new Date();
  const day = now.toISOString().slice(0, 10);
  if (eventWrites?.day !== day) {
    eventWrites = { day, writes: markedOrderEventWrites(queryBuilder(env.DB), now) };
  }
  const scope = scopeOf(query);
  const values: Record<OrderEventValue, unknown> = {
    orderEventId: orderEventId(),
    orderId: body.order_id,
    ...scope,
    amount: body.amount,
    networkTransactionId: body.network_transaction_id,
    createdAt: now.toISOString(),
    weight: rowWeight(body),
  };
  const [inserted] = await env.DB.batch<{ currency: string }>(
    eventWrites.writes.map((w) => env.DB.prepare(w.sql).bind(...w.bind(values))),
  );
  const currency = inserted?.results[0]?.currency;
  if (inserted?.meta.changes !== 1 || currency === undefined) return reject(409);
  return new Response(JSON.stringify({ order_event_id: values.orderEventId, ...body, currency }), {
    status: 201,
    headers: JSON_HEADERS,
  });
}

// ---- The diagnostics: the service's other reads, in one round trip or two -------------------

// The service's other reads (src/db/key-lookup.ts, src/db/customers.ts), for the diagnostic
// paths; OWNERSHIP is the check of the earlier two-round-trip design.
const CALLER =
  "SELECT k.key_id, k.partner_id, k.environment, k.scopes, p.saved_version_sandbox, " +
  "p.saved_version_production, p.merchant_keys FROM api_keys k " +
  "JOIN partners p ON p.partner_id = k.partner_id WHERE k.key_hash = ?1 AND k.revoked_at IS NULL " +
  "AND (k.expires_at IS NULL OR k.expires_at > ?2)";
const OWNERSHIP =
  "SELECT CASE WHEN EXISTS (SELECT 1 FROM accounts WHERE account_id = ?1 AND customer_id = ?2 " +
  "AND partner_id = ?3 AND environment = ?4 AND merchant_key = ?5) THEN 2 " +
  "WHEN EXISTS (SELECT 1 FROM customers WHERE customer_id = ?2 AND partner_id = ?3 " +
  "AND environment = ?4 AND merchant_key = ?5) THEN 1 ELSE 0 END AS found";
const ACCOUNT =
  "SELECT customer_id, partner_id, environment, merchant_key FROM accounts WHERE account_id = ?1";

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The key lookup of a request, live at this instant. */
async function callerLookup(env: FloorEnv, request: Request): Promise<D1PreparedStatement> {
  const hash = await sha256Hex(
    (request.headers.get("authorization") ?? "").replace(/^Bearer /, ""),
  );
  return env.DB.prepare(CALLER).bind(hash, new Date().toISOString());
}

/** The caller's single product, as the service picks it when no merchant-key header is sent. */
function soleProduct(caller: Record<string, unknown>): string {
  // The partner row's merchant_keys: a JSON array of text.
  return (JSON.parse(String(caller.merchant_keys)) as string[])[0] ?? "";
}

/** The first statements page with the key lookup and ownership read, in one round trip or two. */
async function withReads(
  route: "/one-trip" | "/two-trips",
  request: Request,
  query: URLSearchParams,
  env: FloorEnv,
): Promise<Response> {
  const accountId = query.get("account") ?? "";
  const customerId = query.get("customer") ?? "";
  const limit = Number(query.get("limit") ?? "10");
  const page = prepare(env, FLOOR_QUERIES.statements(accountId, null, limit));
  const limited = withinLimits(env, accountId, `partner:${accountId}`);
  let cell: unknown;
  if (route === "/two-trips") {
    const caller = (await (await callerLookup(env, request)).all()).results[0];
    if (!caller) return reject(401);
    const scope = [customerId, caller.partner_id, caller.environment, soleProduct(caller)];
    const ownership = env.DB.prepare(OWNERSHIP).bind(accountId, ...scope);
    const [check, rows] = await env.DB.batch<Record<string, unknown>>([ownership, page]);
    if (check?.results[0]?.found !== 2) return reject(404);
    cell = rows?.results[0]?.page;
  } else {
    const [callers, accounts, rows] = await env.DB.batch<Record<string, unknown>>([
      await callerLookup(env, request),
      env.DB.prepare(ACCOUNT).bind(accountId),
      page,
    ]);
    const caller = callers?.results[0];
    if (!caller) return reject(401);
    const account = accounts?.results[0];
    const owned =
      account?.customer_id === customerId &&
      account.partner_id === caller.partner_id &&
      account.environment === caller.environment &&
      account.merchant_key === soleProduct(caller);
    if (!owned) return reject(404);
    cell = rows?.results[0]?.page;
  }
  if (!(await limited)) return reject(429);
  // The page statement selects one JSON array as `page`.
  return pageOf(JSON.parse(String(cell ?? "[]")) as unknown[], limit, JSON_HEADERS);
}

export default {
  async fetch(request: Request, env: FloorEnv): Promise<Response> {
    const url = new URL(request.url);
    const query = url.searchParams;
    // The hello arm: what the runtime costs with no storage at all.
    if (url.pathname === "/hello") return new Response(HELLO, { headers: JSON_HEADERS });
    if (request.method === "POST") {
      if (url.pathname === "/import") return importFloor(request, env);
      if (url.pathname === "/order-events") return orderEventFloor(request, query, env);
      return reject(404);
    }
    if (url.pathname === "/statements") return statementsFloor(query, env);
    if (url.pathname === "/line-items") return lineItemsFloor(query, env);
    if (url.pathname === "/one-trip" || url.pathname === "/two-trips") {
      return withReads(url.pathname, request, query, env);
    }
    if (url.pathname === "/rewards-categories") return rewardsFloor(query, env);
    const list = LIST_FLOORS[url.pathname];
    if (list) return listFloor(list, query, env);
    return reject(404);
  },
};
