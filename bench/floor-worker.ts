// The floor: a bare Worker running the statements keyset query the service runs, with no framework,
// no auth, no versions, no link signing. Served only by the bench, next to the production bundle;
// it is its own entry point, so nothing here can reach a production deploy.
//
//   /hello       static JSON, no storage: what the runtime alone costs
//   /statements  the floor: the keyset page, one prepared statement, JSON.stringify
//   /one-trip    diagnostic: the page with the service's other reads in the same batch (key and
//                partner, the account's owner), checked in code afterwards, as the service reads
//   /line-items  the line items floor: a page of one statement's line items in document order,
//                the keyset query of src/statements/statement-reads.ts on its own, through the
//                same index (statement_line_items_page_idx), one prepared statement
//   /two-trips   diagnostic: the same checks in the service's earlier two round trips (key
//                lookup, then ownership check + page in one batch)
//
// Every page path counts the request against the two rate limits the service counts a /v2
// request against (per key and per partner: two `limit()` calls, started before the D1 query and
// awaited with it, as the service does) when the limiter bindings are bound; the bench also
// serves this Worker without them, the floor as it was before the service had limits.
//
//   /import      the import's floor: the rows an import writes (each statement and its
//                `statement.created` event) inserted with one raw prepared statement per row,
//                all in one D1 batch; no validation, no reads; a statement's `line_items`, if
//                it carries any, one raw prepared INSERT per line item in the same batch

/** The slice of the D1 binding this Worker uses (bench/ type-checks without the Workers types). */
interface D1Statement {
  all(): Promise<{ results: Record<string, unknown>[]; meta?: { rows_read?: number } }>;
}

interface D1Result {
  results: Record<string, unknown>[];
  meta?: { rows_written?: number; size_after?: number };
}

interface D1Like {
  prepare(query: string): { bind(...values: unknown[]): D1Statement };
  batch(statements: D1Statement[]): Promise<D1Result[]>;
}

/** The Workers Rate Limiting binding's one method. */
interface RateLimiterLike {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

interface FloorEnv {
  DB: D1Like;
  /** The service's limiters (src/app/rate-policies.ts), bound as the service's are. */
  PARTNER_KEY_RATE_LIMITER?: RateLimiterLike;
  PARTNER_RATE_LIMITER?: RateLimiterLike;
}

const COLUMNS =
  "statement_id, account_id, period_start_date, period_end_date, due_date, currency, " +
  "statement_balance, minimum_due, previous_balance, purchases, payments, credits, refunds, " +
  "interest, fees, overdue_amount, pdf_key, hidden_at, created_at";

// The page query of src/statements/statement-pages.ts (statementPageReads), on its own: visible rows of one account,
// newest first, limit + 1 rows (the extra one only tells whether there is more), through the
// partial index statements_page_idx.
const FIRST_PAGE =
  `SELECT ${COLUMNS} FROM statements WHERE account_id = ?1 AND hidden_at IS NULL ` +
  "ORDER BY period_end_date DESC, statement_id DESC LIMIT ?2";
const NEXT_PAGE =
  `SELECT ${COLUMNS} FROM statements WHERE account_id = ?1 AND hidden_at IS NULL ` +
  "AND (period_end_date, statement_id) < (?3, ?4) " +
  "ORDER BY period_end_date DESC, statement_id DESC LIMIT ?2";

const LINE_ITEM_COLUMNS =
  "line_item_id, type, posted_at, transaction_date, description, amount, merchant_name, " +
  "merchant_category_code, merchant_city, merchant_country, original_amount, " +
  "original_currency, card_last4";

// The line items page of src/statements/statement-reads.ts (lineItemPageReads, no type filter),
// on its own: limit + 1 items of one statement after the position, in document order.
const FIRST_LINE_ITEMS =
  `SELECT ${LINE_ITEM_COLUMNS} FROM statement_line_items WHERE statement_id = ?1 ` +
  "ORDER BY posted_at, line_item_id LIMIT ?2";
const NEXT_LINE_ITEMS =
  `SELECT ${LINE_ITEM_COLUMNS} FROM statement_line_items WHERE statement_id = ?1 ` +
  "AND (posted_at, line_item_id) > (?3, ?4) ORDER BY posted_at, line_item_id LIMIT ?2";

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

const INSERT_LINE_ITEM =
  `INSERT INTO statement_line_items (statement_id, ${LINE_ITEM_COLUMNS}) ` +
  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)";

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

const JSON_HEADERS = { "content-type": "application/json" };

/** The columns an import writes, in the order the floor binds them. */
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
const INSERT_STATEMENT =
  `INSERT INTO statements (${IMPORTED.join(", ")}, created_at) ` +
  `VALUES (${IMPORTED.map((_, i) => `?${i + 1}`).join(", ")}, ?${IMPORTED.length + 1})`;

/** A statement's `statement.created` event, its owner copied from the account row. */
const INSERT_EVENT =
  "INSERT INTO events (event_id, type, statement_id, account_id, customer_id, partner_id, " +
  "environment, merchant_key, created_at) SELECT ?1, 'statement.created', ?2, account_id, " +
  "customer_id, partner_id, environment, merchant_key, ?3 FROM accounts WHERE account_id = ?4";

/** An event id shaped like the service's (`evt_` and 24 hex digits). */
function eventId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `evt_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The import's floor: what D1 itself takes to insert the same rows in one batch, each statement
 * and its event. The bench sends dates already in the stored form, so the rows match the
 * import's byte for byte.
 */
async function importFloor(request: Request, env: FloorEnv): Promise<Response> {
  const body = (await request.json()) as { statements?: Record<string, unknown>[] };
  const rows = body.statements ?? [];
  const createdAt = new Date().toISOString();
  const insert = env.DB.prepare(INSERT_STATEMENT);
  const announce = env.DB.prepare(INSERT_EVENT);
  const writes = rows.map((row) => insert.bind(...IMPORTED.map((c) => row[c] ?? null), createdAt));
  for (const row of rows) {
    writes.push(announce.bind(eventId(), row.statement_id, createdAt, row.account_id));
  }
  const lineItem = env.DB.prepare(INSERT_LINE_ITEM);
  let lineItems = 0;
  for (const row of rows) {
    for (const item of (row.line_items as LineItemInput[] | undefined) ?? []) {
      writes.push(lineItem.bind(...lineItemRow(row.statement_id, item)));
      lineItems += 1;
    }
  }
  const started = performance.now();
  const results = await env.DB.batch(writes);
  const headers = {
    ...JSON_HEADERS,
    "x-d1-ms": String(performance.now() - started),
    "x-d1-size-after": String(results.at(-1)?.meta?.size_after ?? ""),
    "x-d1-rows-written": String(results.reduce((n, r) => n + (r.meta?.rows_written ?? 0), 0)),
  };
  return new Response(
    JSON.stringify({ imported: { statements: rows.length, line_items: lineItems } }),
    { headers },
  );
}

const HELLO = JSON.stringify({ hello: "world" });
const reject = (status: number) => new Response("{}", { status, headers: JSON_HEADERS });

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function keyHash(request: Request): Promise<string> {
  return sha256Hex((request.headers.get("authorization") ?? "").replace(/^Bearer /, ""));
}

/** The key lookup of a request, live at this instant. */
async function callerLookup(env: FloorEnv, request: Request): Promise<D1Statement> {
  return env.DB.prepare(CALLER).bind(await keyHash(request), new Date().toISOString());
}

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

/** The caller's single product, as the service picks it when no merchant-key header is sent. */
function soleProduct(caller: Record<string, unknown>): string {
  return (JSON.parse(String(caller.merchant_keys)) as string[])[0] ?? "";
}

/**
 * A page of one statement's line items, with the same two rate-limit checks as the statements
 * floor (the statement stands in for the key and its partner).
 */
async function lineItemsFloor(query: URLSearchParams, env: FloorEnv): Promise<Response> {
  const statementId = query.get("statement") ?? "";
  const limit = Number(query.get("limit") ?? "10");
  const afterPosted = query.get("after_posted");
  const afterId = query.get("after_id");
  const page =
    afterPosted !== null && afterId !== null
      ? env.DB.prepare(NEXT_LINE_ITEMS).bind(statementId, limit + 1, afterPosted, afterId)
      : env.DB.prepare(FIRST_LINE_ITEMS).bind(statementId, limit + 1);
  const limited = withinLimits(env, statementId, `partner:${statementId}`);
  const { results, meta } = await page.all();
  if (!(await limited)) return reject(429);
  const headers = { ...JSON_HEADERS, "x-d1-rows-read": String(meta?.rows_read ?? "") };
  const body = { data: results.slice(0, limit), has_more: results.length > limit };
  return new Response(JSON.stringify(body), { headers });
}

export default {
  async fetch(request: Request, env: FloorEnv): Promise<Response> {
    const url = new URL(request.url);
    // The hello arm: what the runtime costs with no storage at all.
    if (url.pathname === "/hello") return new Response(HELLO, { headers: JSON_HEADERS });
    if (url.pathname === "/import" && request.method === "POST") return importFloor(request, env);

    const query = url.searchParams;
    if (url.pathname === "/line-items") return lineItemsFloor(query, env);
    const accountId = query.get("account") ?? "";
    const customerId = query.get("customer") ?? "";
    const limit = Number(query.get("limit") ?? "10");
    const afterEnd = query.get("after_end");
    const afterId = query.get("after_id");
    const page =
      afterEnd !== null && afterId !== null
        ? env.DB.prepare(NEXT_PAGE).bind(accountId, limit + 1, afterEnd, afterId)
        : env.DB.prepare(FIRST_PAGE).bind(accountId, limit + 1);

    // Counted alongside the reads, as the service counts them alongside its key lookup; the
    // floor has no key, so the account stands in for both the key and its partner.
    const limited = withinLimits(env, accountId, `partner:${accountId}`);
    const headers: Record<string, string> = { ...JSON_HEADERS };
    let results: Record<string, unknown>[];
    if (url.pathname === "/two-trips") {
      const caller = (await (await callerLookup(env, request)).all()).results[0];
      if (!caller) return reject(401);
      const scope = [customerId, caller.partner_id, caller.environment, soleProduct(caller)];
      const ownership = env.DB.prepare(OWNERSHIP).bind(accountId, ...scope);
      const [check, rows] = await env.DB.batch([ownership, page]);
      if (check?.results[0]?.found !== 2) return reject(404);
      results = rows?.results ?? [];
    } else if (url.pathname === "/one-trip") {
      const [callers, accounts, rows] = await env.DB.batch([
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
      results = rows?.results ?? [];
    } else {
      const { results: rows, meta } = await page.all();
      results = rows;
      // What the page query alone reads, for the bench's per-query cost figures.
      headers["x-d1-rows-read"] = String(meta?.rows_read ?? "");
    }
    if (!(await limited)) return reject(429);
    const body = { data: results.slice(0, limit), has_more: results.length > limit };
    return new Response(JSON.stringify(body), { headers });
  },
};
